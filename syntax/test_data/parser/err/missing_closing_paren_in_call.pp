notice('a'
$y = 1
