class foo (
  String $a,
  Integer[0, 10] $b = 1,
  $c = undef,
  Optional[Hash[String, Any]] $d = {},
) inherits foo::params {
}
