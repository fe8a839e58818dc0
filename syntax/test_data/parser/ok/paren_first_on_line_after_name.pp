$r = foo
(1 + 2).each |$x| { }
