$x = 1
/* never closed
$y = 2
