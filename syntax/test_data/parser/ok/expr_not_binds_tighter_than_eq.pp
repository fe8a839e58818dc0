$x = false
$r = !$x == true
