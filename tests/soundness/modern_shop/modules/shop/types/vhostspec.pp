# A virtual host of the shop, as Hiera gives it.
type Shop::VhostSpec = Struct[{
  docroot           => Stdlib::Absolutepath,
  port              => Shop::Port,
  Optional[aliases] => Array[Stdlib::Fqdn],
}]
