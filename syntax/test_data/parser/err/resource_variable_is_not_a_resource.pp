$f = File['/tmp/a']
$f { mode => '0600' }
