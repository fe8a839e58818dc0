$s = 'abc'
$r = $s =~ /b/
$q = $s !~ /^x/
$t = $s =~ String
