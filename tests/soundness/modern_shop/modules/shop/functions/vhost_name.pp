# The file name of a virtual host's configuration.
function shop::vhost_name(String[1] $name, Shop::Port $port) >> String {
  $suffix = $port ? {
    443     => 'ssl',
    '443'   => 'ssl',
    default => "port${port}",
  }
  "${name}-${suffix}.conf"
}
