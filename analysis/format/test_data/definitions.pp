class  profile::web(String $docroot = '/var/www', Boolean $ssl = false, Optional[Integer[1, 65535]] $port = undef, $required) inherits profile::params {
  include ::apache
  contain apache::mod::ssl, apache::mod::rewrite
}
define  mymod::thing($value, $ensure = present) { notice($value) }
function mymod::double(Integer $x) >> Integer { $x * 2 }
node 'web01.example.com', /^db\d+$/ { include role::web }
node default {}
type Mymod::Port = Integer[1, 65535]
class empty {
}
class with_params (
  $a, $bb = 1,
) {}
class typed (
  Array[Struct[{
    min => Integer,
    max => Integer,
  }]] $ranges = [],
  Array[Enum['a', 'b', 'c',
  ]] $letters = ['a'],
  String $s = 'x',
) {}
