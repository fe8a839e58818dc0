# A name-based virtual host.
define lamp::vhost (
  $port = '80',
  $docroot = undef,
  $serveraliases = '',
  $ssl = false,
) {
  include lamp::params

  validate_re($port, '^\d+$')
  $real_docroot = $docroot ? {
    undef   => "/var/www/${name}",
    default => $docroot,
  }
  $aliases = any2array($serveraliases)
  $alias_count = size($aliases)
  $ssl_bool = str2bool("$ssl")

  file { $real_docroot:
    ensure => directory,
    owner  => $lamp::params::user,
  }
  file { "${lamp::params::conf_dir}/${name}.conf":
    ensure  => file,
    content => template('lamp/vhost.conf.erb'),
  }
  if $alias_count > 0 {
    notify { "vhost $name has $alias_count aliases, ssl: $ssl_bool": }
  }
}
