foo(type)
