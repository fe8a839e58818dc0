$r = /^foo\/bar$/
$q = 'x' =~ /[a-z]+/
