$x = 'a'
$r = "outer ${"inner ${x}"} ${'sq'} ${ $x ? { 'a' => "y", default => 'n' } }"
