$r = 'b' in 'abc'
$q = 1 + 1 in [2]
