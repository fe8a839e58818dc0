foo(unless => 1)
