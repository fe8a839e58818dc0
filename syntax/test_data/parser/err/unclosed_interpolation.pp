$x = "a ${y
$z = 1
