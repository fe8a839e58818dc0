$x = $facts
$y = $::facts
$z = $foo::bar::baz
$n = $1
