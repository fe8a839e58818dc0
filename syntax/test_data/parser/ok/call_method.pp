$x = [1, 2]
$r = $x.length
$q = $x.join(',')
$s = 'abc'.size()
$t = $x.reverse_each.map |$v| { $v }
