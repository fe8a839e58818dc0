$r = sprintf('%s-%s', 'a', 'b')
$q = foo::bar(1)
$s = foo()
$t = f(1, 2,)
