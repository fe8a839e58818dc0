# Minimal reproductions of the unsound hovers the harness found (see
# docs/soundness.md): `ruby tools/soundness/soundness.rb tools/soundness/repro`.
# One class per kind; each `notice` argument is the hovered reference.
type Repro::Conf = Hash[String, Integer]

# 1. Two-parameter lambda over a hash whose type is an alias: $k hovers
#    Integer[0] (array index) and $v Tuple[String, Integer, 2, 2] (a pair).
class repro::hash_lambda(Repro::Conf $conf = { 'a' => 1 }) {
  $conf.each |$k, $v| { notice($k, $v) }
}

# 2. The same over an unparameterized Hash: $k and $v hover Unit (not a
#    Puppet type).
class repro::plain_hash(Hash $h = { 'a' => 1 }) {
  $h.each |$k, $v| { notice($k, $v) }
}

# 3. Variables interpolated in a heredoc hover Undef.
class repro::heredoc(String $who = 'x') {
  $text = @("END")
    who: ${who}
    | END
  notice($text)
}

# 4. Short form "$var" hovers the type of the string (String), not the
#    variable's.
class repro::short_form(Integer $n = 3) {
  notice("n is $n")
}

# 5. reduce with a hash (or array) memo grown with +: Variant[Hash[0, 0], Numeric].
class repro::reduce_hash(Hash[String, Integer] $h = { 'a' => 1 }) {
  $inverted = $h.reduce({}) |$memo, $kv| { $memo + { String($kv[1]) => $kv[0] } }
  notice($inverted)
}

# 6. + with operands of unknown type: Numeric (here two arrays).
class repro::unknown_plus {
  $all = lookup('repro::tags') + lookup('repro::more')
  notice($all)
}

# 7. Timestamp plus or minus a Timespan that is not a constant: Numeric.
class repro::time(Integer $days = 2) {
  $then = Timestamp('2024-06-01T00:00:00Z') - Timespan({ 'days' => $days })
  notice($then)
}

# 8. filter with a predicate that is not constant keeps the input's exact
#    size: Array[Enum['a', 'b', 'c'], 3, 3] where Puppet keeps one.
class repro::filter(Integer $min = 2) {
  $long = ['a', 'bb', 'c'].filter |$s| { $s.length >= $min }
  notice($long)
}

# 9. Access into Hash[String, Integer] is not Optional: a missing key is undef.
class repro::hash_access(Hash[String, Integer] $limits = { 'a' => 1 }) {
  $b = $limits['b']
  notice($b)
}

# 10. Facts Facter omits on some systems are claimed present:
#     ec2_metadata (off EC2), os.selinux.current_mode (SELinux disabled),
#     lsbdistcodename (no lsb_release).
class repro::facts {
  $ec2 = $facts['ec2_metadata']
  notice($ec2)
  if $facts['os']['selinux'] {
    $mode = $facts['os']['selinux']['current_mode']
    notice($mode)
  }
  notice($::lsbdistcodename)
}

# 11. A hash literal of legacy top-scope facts: values hover Undef.
class repro::legacy_hash {
  $h = { 'family' => $::osfamily }
  notice($h)
}

# 12. A selector on a legacy fact keeps only the default's type.
class repro::legacy_selector {
  $p = $::osfamily ? { 'RedHat' => ['x'], default => ['y', 'z'] }
  notice($p)
}

node default {
  include repro::hash_lambda, repro::plain_hash, repro::heredoc, repro::short_form
  include repro::reduce_hash, repro::unknown_plus, repro::time, repro::filter
  include repro::hash_access, repro::facts, repro::legacy_hash, repro::legacy_selector
}
