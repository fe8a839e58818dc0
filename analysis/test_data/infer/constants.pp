$port = 8000 + 80
$name_ = "web-${port}"
$list = [1, 2, 3].map |$x| { $x * 2 }
$h = { 'a' => 1, 'b' => 'two' }
$first = $h['a']
$size = $list.length
$up = 'abc'.upcase
[$a, $b] = [1, 'x']
$div = 10 / 4
$cmp = $port > 80
$re = 'abc' =~ /b/
$ty = Integer[1, 5]
$fl = 1.5 * 2
