# One virtual host of the shop.
define shop::vhost (
  Stdlib::Absolutepath $docroot,
  Shop::Port $port,
  Array[Stdlib::Fqdn] $aliases = [],
) {
  $conf = shop::vhost_name($title, $port)
  $server_names = [$title] + $aliases
  $ssl = $port ? {
    Integer[443, 443] => true,
    '443'             => true,
    default           => false,
  }
  file { "/etc/shop/vhosts/${conf}":
    ensure  => file,
    content => epp('shop/vhost.conf.epp', {
      'name'         => $title,
      'docroot'      => $docroot,
      'port'         => $port,
      'server_names' => $server_names,
      'ssl'          => $ssl,
    }),
  }
}
