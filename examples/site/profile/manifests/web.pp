# @summary A web server: nginx serving one site.
#
# @param port
#   The port the site listens on.
# @param ensure
#   Whether the site is there.
class profile::web (
  Integer[1, 65535] $port = 8080,
  Enum['present', 'absent'] $ensure = 'present',
) {
  package { 'nginx':
    ensure => $ensure,
  }

  file { '/etc/nginx/conf.d/site.conf':
    ensure  => file,
    content => @("CONF"),
      server {
        listen ${port};
      }
      | CONF
    require => Package['nginx'],
    notify => Service['nginx'],
  }

  service { 'nginx':
    ensure => "running",
    enable => true,
  }
}
