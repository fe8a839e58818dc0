foo(type => 1)
foo(1, function => 2)
foo(a => type, b => function)
$x = Struct[type => Integer]
$y = [type, function]
