# The shop's service.
class shop::service {
  $unit = "shop-${shop::listen_port}"
  service { 'shop':
    ensure => running,
    name   => $unit,
  }
}
