# Probes of what Puppet 8 computes differently (docs/soundness.md):
#   ruby -I /opt/puppet8/root/usr/lib/ruby/vendor_ruby tools/soundness/soundness.rb tools/soundness/repro8
# Legacy facts read through $facts are undef under Puppet 8 (Facter sends
# none); Hiera interpolates them as empty strings, and `%{::osfamily}` (an
# unknown variable) fails the compilation, hence last; max/min compare
# strings as strings and accept Timestamps, Timespans and SemVers.
# Everything compiles under Puppet 7 too (`ruby tools/soundness/soundness.rb
# tools/soundness/repro8`).
class repro8::facts_hash {
  $family = $facts['osfamily']
  $os_name = $facts['operatingsystem']
  $major = $facts['operatingsystemmajrelease']
  $fqdn = $facts['fqdn']
  $host = $facts['hostname']
  $dom = $facts['domain']
  $ip = $facts['ipaddress']
  $sel = $facts['selinux']
  $selmode = $facts['selinux_current_mode']
  $codename = $facts['lsbdistcodename']
  $arch = $facts['architecture']
  $cpus = $facts['processorcount']
  $mem = $facts['memorysize']
  $kernel = $facts['kernel']
  notice($family, $os_name, $major, $fqdn, $host, $dom, $ip, $sel, $selmode, $codename)
  notice($arch, $cpus, $mem, $kernel)
  $text = "family ${facts['osfamily']} on ${facts['fqdn']}"
  notice($text)
  $dug = $facts.dig('osfamily')
  $dug2 = $facts.dig('os', 'family')
  notice($dug, $dug2)
  $top = $::facts['osfamily']
  notice($top)
  $picked = pick($facts['osfamily'], 'none')
  notice($picked)
  $sel_value = $facts['osfamily'] ? {
    'Debian' => 'deb',
    'RedHat' => 'rpm',
    default  => 'other',
  }
  notice($sel_value)
  case $facts['operatingsystem'] {
    'Debian', 'Ubuntu': { $pm = 'apt' }
    'RedHat': { $pm = 'dnf' }
    default: { $pm = undef }
  }
  notice($pm)
  $is_debian = $facts['osfamily'] == 'Debian'
  notice($is_debian)
  $in = 'Debian' in $facts['osfamily']
  notice($in)
  $is_string = $facts['osfamily'] =~ String
  notice($is_string)
  $lookup_family = $facts['os']['family']
  notice($lookup_family)
}

class repro8::getters {
  $gv = getvar('::osfamily')
  $gv2 = getvar('facts.osfamily')
  $fact = fact('osfamily')
  $fact2 = fact('os.family')
  $def = defined('$::osfamily')
  notice($gv, $gv2, $fact, $fact2, $def)
  $all = $facts.filter |$k, $v| { $k =~ /^os/ }
  notice($all)
  $keys = $facts.keys.filter |$k| { $k == 'osfamily' }
  notice($keys)
  $has = 'osfamily' in $facts
  notice($has)
  $has_key = $facts.has_key('osfamily')
  notice($has_key)
}

class repro8::hiera {
  $pkg = lookup('repro8::pkg')
  $port = lookup('repro8::port')
  $family_text = lookup('repro8::family_text')
  $host_text = lookup('repro8::host_text')
  notice($pkg, $port, $family_text, $host_text)
  $typed = lookup('repro8::port', Integer)
  notice($typed)
}

class repro8::functions {
  $latest = max(Timestamp('2024-01-01T00:00:00Z'), Timestamp('2024-02-01T00:00:00Z'))
  notice($latest)
  $longest = max(Timespan({ 'days' => 1 }), Timespan({ 'days' => 2 }))
  notice($longest)
  $ver = max(SemVer('1.2.3'), SemVer('1.10.0'))
  notice($ver)
  $low = min('b', 'a')
  notice($low)
  $num = max(1, 2.5)
  notice($num)
  $smax = max('10', '9')
  $smin = min('10', '9')
  notice($smax, $smin)
  $amax = ['10', '9'].max
  $amin = ['10', '9'].min
  notice($amax, $amin)
  $mixed = max(1, '2')
  notice($mixed)
  $sorted = sort(['10', '9', '1'])
  notice($sorted)
  $cmp = compare('10', '9')
  notice($cmp)
  $vc = versioncmp('1.0', '1.0.0')
  notice($vc)
}

class repro8::hiera_legacy {
  $legacy_text = lookup('repro8::legacy_text')
  notice($legacy_text)
}

include repro8::facts_hash
include repro8::getters
include repro8::functions
include repro8::hiera
include repro8::hiera_legacy
