# Apache with virtual hosts (Puppet 3 style: params class, validate_*).
class lamp (
  $port = $lamp::params::port,
  $docroot = $lamp::params::docroot,
  $modules = $lamp::params::modules,
  $vhosts = hiera('lamp::vhosts', {}),
  $manage_php = true,
  $server_admin = $::admin_email,
  $timeout = $lamp::params::timeout,
) inherits lamp::params {
  validate_string($docroot)
  validate_array($modules)
  validate_bool($manage_php)
  validate_hash($vhosts)
  validate_re($port, '^\d+$')

  $real_timeout = $timeout + 0
  $host_info = {
    'fqdn'   => $::fqdn,
    'ip'     => $::ipaddress,
    'os'     => $::operatingsystem,
    'family' => $::facts['os']['family'],
  }
  $info_text = join(join_keys_to_values($host_info, '='), ', ')

  package { $package:
    ensure => installed,
  }
  service { $service:
    ensure  => running,
    enable  => true,
    require => Package[$package],
  }
  file { "$conf_dir/00-default.conf":
    ensure  => file,
    content => template('lamp/default.conf.erb'),
    notify  => Service[$service],
  }
  lamp::module { $modules: }
  $lamp_tag = 'lamp'
  Package <| tag == $lamp_tag |> -> Service[$service]

  $vhost_defaults = {
    'docroot' => "$docroot/default",
  }
  create_resources('lamp::vhost', $vhosts, $vhost_defaults)

  if $manage_php {
    $php_list = join($php_packages, ' ')
    notify { "php packages: $php_list": }
  }
  notify { "lamp on $info_text, timeout $real_timeout": }
}
