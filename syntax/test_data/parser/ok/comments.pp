# line comment
$x = 1 # trailing
/* block
   comment */
$y = /* inline */ 2
