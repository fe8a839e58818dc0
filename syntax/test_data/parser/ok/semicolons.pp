# Puppet 7.23: ';' only between statements (and after resource bodies).
$a = 1; $b = 2
class a { $x = 1; $y = 2 }
file { "/a": ensure => file; "/b": ; }
