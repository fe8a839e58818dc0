# The fleet's baseline: accounts, quotas and tags.
class fleet (
  Hash[String, Fleet::User] $users,
  Fleet::Quotas $quotas,
  Stdlib::Absolutepath $default_shell,
  Enum['nftables', 'firewalld'] $firewall_backend,
  Hash $labels = { 'team' => 'platform' },
) {
  $base_tags = lookup('fleet::base_tags')
  $role_tags = lookup('fleet::role_tags')
  $all_tags = $base_tags + $role_tags

  $users.each |$name, $user| {
    $shell = pick($user['shell'], $default_shell)
    fleet::account { $name:
      uid    => $user['uid'],
      groups => $user['groups'],
      shell  => $shell,
      quota  => $quotas[$name],
    }
  }

  # Accounts by uid, for the audit file.
  $by_uid = $users.reduce({}) |$memo, $entry| {
    $memo + { String($entry[1]['uid']) => $entry[0] }
  }
  $uids = $by_uid.keys.sort

  $quotas.each |$user, $megabytes| {
    notify { "quota ${user}: ${megabytes} MB": }
  }
  $labels.each |$key, $value| {
    notify { "label ${key}=${value}": }
  }

  $ec2 = $facts['ec2_metadata']
  $instance = $ec2 ? {
    undef   => 'bare metal',
    default => $ec2['instance-type'],
  }
  $audit = @("AUDIT")
    host: ${trusted['certname']} (${instance})
    tags: ${all_tags}
    uids: ${uids.join(' ')}
    firewall: $firewall_backend
    | AUDIT
  file { '/etc/fleet/audit':
    ensure  => file,
    content => $audit,
  }
  notify { "fleet tags $all_tags":
    message => $all_tags,
  }
}
