$r = foo (1)
