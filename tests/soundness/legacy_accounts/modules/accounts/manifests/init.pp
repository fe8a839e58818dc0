# Local accounts from Hiera.
class accounts (
  $users = {},
  $sudoers = [],
  $purge = false,
) inherits accounts::params {
  validate_hash($users)
  validate_array($sudoers)
  validate_bool($purge)

  $user_defaults = {
    'shell'      => $accounts::params::default_shell,
    'managehome' => true,
  }
  create_resources('accounts::user', $users, $user_defaults)

  $names = keys($users)
  $admins = intersection($names, $sudoers)
  $admin_count = size($admins)
  $others = difference($names, $sudoers)

  if $manage_sudo and !empty($admins) {
    file { '/etc/sudoers.d/puppet':
      ensure  => file,
      mode    => '0440',
      content => template('accounts/sudoers.erb'),
    }
  }
  group { $::admin_group:
    ensure => present,
  }
  $summary = "$admin_count admins, others: ${others}"
  notify { "accounts on ${::fqdn}: $summary": }
  if $purge {
    resources { 'user':
      purge => true,
    }
  }
}
