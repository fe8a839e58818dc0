$a = 1; $b = 2;
$c = 3; -1
file { 'x': ensure => present; }
