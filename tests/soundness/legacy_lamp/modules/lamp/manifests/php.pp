# PHP for Apache.
class lamp::php inherits lamp::params {
  package { $php_packages:
    ensure => installed,
  }
  $ini = $::osfamily ? {
    'Debian' => '/etc/php/php.ini',
    default  => '/etc/php.ini',
  }
  # lsb_release is not installed everywhere: Facter may omit the fact.
  $codename = $::lsbdistcodename
  file { $ini:
    ensure  => file,
    content => "memory_limit = ${timeout}M ; $codename\n",
  }
  if defined(Class['lamp']) {
    notify { "php for ${lamp::server_admin}": }
  }
}
