if $a { notice(1) } elsif $b { notice(2) } else { notice(3) }
unless $x { fail('no') }
$doubled = $list.map |$v| { $v * 2 }
$list.each |String $k, $v| {
  notice("${k}=${v}")
}
with(1) |$x| { notice($x) }
$filtered = $hash.filter |$k, $v| { $v =~ /x/ }.map |$k, $v| { $k }
$r = $a.reduce(0) |$memo, $x| { $memo + $x }
