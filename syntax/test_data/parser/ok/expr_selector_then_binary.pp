$x = 1
$r = $x ? { default => 1 } + 2
