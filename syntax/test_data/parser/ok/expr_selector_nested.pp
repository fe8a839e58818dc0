$x = 1
$y = 2
$r = $x ? {
  1       => $y ? { 2 => 'a', default => 'b' },
  default => 'c',
}
