# MySQL, Puppet 3 style.
class lamp::mysql (
  $root_password,
  $max_connections = '151',
  $bind_address = $::ipaddress,
) {
  validate_string($root_password)
  validate_integer($max_connections)

  $packages = $::osfamily ? {
    'RedHat' => ['mariadb-server'],
    default  => ['mariadb-server', 'mariadb-client'],
  }
  $all_packages = concat($packages, ['percona-toolkit'])
  package { $all_packages:
    ensure => installed,
  }
  $settings = merge({ 'bind-address' => $bind_address }, { 'max_connections' => $max_connections })
  $lines = join_keys_to_values($settings, ' = ')
  file { '/etc/mysql/conf.d/puppet.cnf':
    ensure  => file,
    content => inline_template("[mysqld]\n<%= @lines.join(\"\\n\") %>\n"),
  }
  $report = {
    'host'   => $::hostname,
    'ip'     => $::ipaddress,
    'family' => $::osfamily,
  }
  notify { 'mysql host':
    message => $report,
  }
  $backup = "$::backup_host:/backups/$::hostname"
  notify { "mysql backups go to $backup": }
}
