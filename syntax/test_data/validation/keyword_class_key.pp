foo(class => 1)
