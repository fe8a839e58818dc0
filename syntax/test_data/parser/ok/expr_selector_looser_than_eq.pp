$x = 1
$r = $x == 1 ? { true => 'y', default => 'n' }
