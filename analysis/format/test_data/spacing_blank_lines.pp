


$a=1;$b  =  2
$c=[1,2 , 3]


$d = -1



$e = !$a
$f=$h['key'][0]
notice ($a)
$g = $a ? { default => 1 }
