# A user account with its home and quota.
define fleet::account (
  Integer[1000] $uid,
  Array[String[1]] $groups,
  Stdlib::Absolutepath $shell,
  Optional[Integer[0]] $quota = undef,
) {
  $home = "/home/${title}"
  user { $title:
    ensure     => present,
    uid        => $uid,
    groups     => $groups,
    shell      => $shell,
    home       => $home,
    managehome => true,
  }
  $admin = 'wheel' in $groups
  if $quota =~ Integer {
    $soft = $quota * 9 / 10
    notify { "quota for ${title}: ${soft}/${quota}": }
  }
  $label = $admin ? {
    true    => "${title} (admin, uid $uid)",
    default => "${title} (uid $uid)",
  }
  notify { $label: }
}
