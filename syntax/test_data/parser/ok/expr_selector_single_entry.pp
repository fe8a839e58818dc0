$x = 1
$r = $x ? 1 => 'one'
