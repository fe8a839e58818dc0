# Firewall rules for the open ports, from the trusted networks only.
class fleet::firewall (
  String $log_prefix,
  Integer[1] $max_rules = 8,
) {
  $ports = lookup('fleet::open_ports', Hash[String, Stdlib::Port])
  $networks = lookup('fleet::trusted_networks')
  $rules = fleet::port_rules($ports, $networks)
  $rules.each |$name, $rule| {
    notify { "rule ${name}: ${rule['port']} from ${rule['source']}": }
  }
  $privileged = $ports.filter |$service, $port| { $port < 1024 }
  $candidates = ['ssh', 'http', 'metrics']
  $exposed = $candidates.filter |$service| { $service in $ports }
  $count = $exposed.length
  $too_many = $rules.length > $max_rules
  $backend = $fleet::firewall_backend
  file { "/etc/fleet/${backend}.rules":
    ensure  => file,
    content => "${log_prefix}${count} exposed, ${privileged.length} privileged, too many: ${too_many}\n",
  }
}
