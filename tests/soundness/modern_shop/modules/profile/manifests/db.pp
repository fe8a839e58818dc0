# The shop's database server.
class profile::db (
  Array[String[1]] $databases,
  Hash[Stdlib::Fqdn, Stdlib::Port] $replicas,
  Integer $max_connections = 200,
) {
  $databases.each |$index, $db| {
    file { "/var/lib/shop/db/${db}":
      ensure => directory,
    }
    notify { "database ${index}: ${db}": }
  }

  $replica_lines = $replicas.reduce([]) |$lines, $pair| {
    $lines + ["${pair[0]}:${pair[1]}"]
  }
  $replica_count = $replicas.length
  $per_replica = $replica_count ? {
    0       => $max_connections,
    default => $max_connections / $replica_count,
  }

  case $facts['os']['family'] {
    'RedHat': { $service = 'postgresql-15' }
    'Debian': { $service = 'postgresql@15-main' }
    default:  { fail("unsupported ${facts['os']['family']}") }
  }

  service { $service:
    ensure => running,
  }
  file { '/etc/shop/replicas':
    ensure  => file,
    content => "${replica_lines.join("\n")}\nper replica: ${per_replica}\n",
  }
}
