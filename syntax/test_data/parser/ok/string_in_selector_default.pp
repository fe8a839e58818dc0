$x = 'a'
$r = "${x}" ? { 'a' => 'yes', default => 'no' }
