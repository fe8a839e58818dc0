# What every node of the shop has.
class profile::base (
  Array[Stdlib::Host] $ntp_servers,
  Array[String[1]] $extra_packages = [],
  Enum['present', 'absent'] $ensure = 'present',
) {
  $family = $facts['os']['family']
  $core = $family ? {
    'Debian' => ['ca-certificates', 'curl'],
    'RedHat' => ['ca-certificates', 'curl-minimal'],
    default  => ['curl'],
  }
  $packages = $core + $extra_packages
  package { $packages:
    ensure => $ensure,
  }

  $servers = $ntp_servers.map |Integer $i, String $s| { "server ${s} iburst # ${i}" }
  file { '/etc/chrony.conf':
    ensure  => file,
    content => join($servers, "\n"),
  }

  # Facter reports os.selinux on Linux, with current_mode only where
  # SELinux is enabled.
  $selinux = $facts['os']['selinux']
  if $selinux {
    $mode = $facts['os']['selinux']['current_mode']
    $enforcing = $mode == 'enforcing'
    notify { "selinux: ${selinux['enabled']}, enforcing: ${enforcing}": }
  }

  $motd = @("MOTD"/L)
    Welcome to ${facts['networking']['fqdn']} (${family}).
    Owned by ${::site_owner}; packages: ${packages.length}.
    | MOTD
  file { '/etc/motd':
    ensure  => file,
    content => $motd,
  }
}
