Package['httpd'] -> File['/etc/httpd.conf'] ~> Service['httpd']
Package['a']
-> Service['a']
package { 'x': ensure => installed } -> service { 'x': ensure => running, enable => true }
Class['a'] <- Class['b']
$total = $a + $b - $c * $d / $e % $f
$ok = ($a or $b) and !$c and $d in [1, 2]
file { '/a': ensure => file }
->
# a comment between the arrow and its operand
file { '/b': ensure => file }
