file {'/etc/motd': ensure=>file, content=>"hello", mode=>'0644'}
file { '/tmp/one': ensure => directory }
file { '/tmp/none': }
package { ['a', 'b']:
  ensure => installed }
@@nagios_service { "check_${name}":
    host_name   =>   $::fqdn,
  service_description => 'x',;
}
file {
  '/a': ensure => file;
  '/b':
    ensure => directory, mode => '0755'
}
File { owner => 'root', group => 'root' }
Package { ensure => installed }
File['/etc/motd'] { mode => '0600' }
User <| title == 'root' |> { shell => '/bin/bash' }
Package <<| tag == 'x' |>>
User <| |>
class { 'apache': default_vhost => false }
realize(User['a'])
