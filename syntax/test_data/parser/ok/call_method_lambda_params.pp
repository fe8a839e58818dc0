$h = { 'a' => 1 }
$h.each |String $k, Integer $v| { notice("${k}=${v}") }
$h.each |$k, $v,| { }
$r = $h.reduce(0) |$memo, $entry| { $memo + $entry[1] }
