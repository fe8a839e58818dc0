# An account of the fleet, as Hiera describes it.
type Fleet::User = Struct[{
  uid              => Integer[1000],
  groups           => Array[String[1]],
  Optional[shell]  => Stdlib::Absolutepath,
  Optional[expiry] => String,
}]
