$x = true
$r = !!$x
$s = !($x and $x)
