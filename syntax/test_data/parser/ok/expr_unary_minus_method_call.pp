$x = [1, 2]
$r = -$x.length + 1
