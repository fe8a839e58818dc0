# One firewall rule per open port, for each trusted network.
function fleet::port_rules(Hash[String, Stdlib::Port] $ports, Array[String] $networks) >> Hash[String, Hash] {
  $ports.reduce({}) |$rules, $entry| {
    $service = $entry[0]
    $port = $entry[1]
    $rules + $networks.reduce({}) |$acc, $net| {
      $acc + { "${service}-${net}" => { 'port' => $port, 'source' => $net } }
    }
  }
}
