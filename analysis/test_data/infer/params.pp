class demo (
  Integer[1, 65535] $port = 80,
  Optional[String] $owner = undef,
  Array[String] $users = [],
  Hash[String, Integer] $limits = {},
  $untyped = 'x',
  Enum['present', 'absent'] $ensure = 'present',
) {
  $next = $port + 1
  $doubled = $port * 2
  $all = $users + ['root']
  $users.each |$u| { $each_user = $u }
  $users.each |$i, $u| { $index = $i }
  $limits.each |$k, $v| { $key = $k $val = $v }
  $limits.each |$pair| { $p = $pair }
  $names = $users.map |$u| { "user ${u}" }
  $maybe = $untyped
  $title_copy = $title
  $rendered = "${port}"
}
define demo::site (String $docroot, Boolean $ssl = false) {
  $copy = $docroot
  $name_copy = $name
}
function demo::double(Integer $x) >> Integer {
  $r = $x * 2
  $r
}
$from_function = demo::double(4)
$from_builtin = lookup('x')
$joined = join(['a', 'b'], ',')
$ver = versioncmp('1', '2')
$fam = $facts['os']['family']
$os = $facts['os']
$kernel = $facts['kernelrelease']
$legacy = $::osfamily
$certname = $trusted['certname']

# lookup() with a type argument has that type (Puppet asserts the value
# found and the default against it); without one, Any.
class lookups {
  $port = lookup('lookups::port', Integer[1, 65535])
  $names = lookup('lookups::names', Array[String], 'unique', [])
  $anything = lookup('lookups::anything')
  notice($port, $names, $anything)
}
