$r = [1].type
$q = 1.type()
