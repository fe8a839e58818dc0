$x = 1
$x =~ /a/
notice(2)
