$x = 1
$r = $x and $x ? { 1 => true, default => false }
