# Values inference cannot know: every type must hold what Puppet computes.
class unknowns (
  Hash[String, Integer] $sizes,
  Array[String] $wanted,
  Hash $labels,
  Integer[1] $days,
  $untyped,
) {
  # An unknown block verdict keeps any subset: no exact size.
  $kept = { 'a' => 1, 'b' => 2 }.filter |$k, $v| { $k in $wanted }
  $picked = ['x', 'y'].filter |$s| { $s in $wanted }
  $n = $picked.length
  # reduce: the memo is a fixed point of the block.
  $total = $sizes.reduce(0) |$sum, $entry| { $sum + $entry[1] }
  $inverted = $sizes.reduce({}) |$memo, $entry| { $memo + { String($entry[1]) => $entry[0] } }
  $lines = $wanted.reduce([]) |$acc, $w| { $acc + ["${w}!"] }
  # Two block parameters: key and value of a hash, index and element of
  # an array, anything of anything else.
  $labels.each |$key, $value| { notice($key, $value) }
  $wanted.each |$i, $w| { notice($i, $w) }
  $untyped.each |$a, $b| { notice($a, $b) }
  # `+` of unknowns concatenates collections or moves time.
  $sum = $untyped + 1
  $later = Timestamp('2024-06-01T03:00:00Z') - Timespan({ 'days' => $days })
  $window = $later - Timestamp('2024-01-01T00:00:00Z')
  # A missing key or index is undef.
  $one = $sizes['a']
  $first = $wanted[0]
  # Legacy facts and top-scope variables are unknown, not undef.
  $report = { 'host' => $::hostname, 'codename' => $::lsbdistcodename, 'role' => $::role }
  $pkgs = $::osfamily ? { 'RedHat' => ['a'], default => ['a', 'b'] }
  # Facts Facter may omit.
  $ec2 = $facts['ec2_metadata']
  $mode = $facts['os']['selinux']['current_mode']
  $family = $facts['os']['family']
  $memory = $facts['memory']['system']['total_bytes'] / 1024
  $certname = $trusted['certname']
  $external = $trusted['external']
  $shell = pick($untyped, $sizes['b'], 'sh')
}
