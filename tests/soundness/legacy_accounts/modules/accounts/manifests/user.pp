# A local user with a home directory (untyped parameters, validated).
define accounts::user (
  $uid,
  $comment = '',
  $shell = '/bin/sh',
  $groups = [],
  $managehome = true,
  $ensure = 'present',
) {
  validate_re($uid, '^\d+$')
  validate_absolute_path($shell)
  validate_re($ensure, '^(present|absent)$')

  $home = "${accounts::params::home_base}/$name"
  $uid_num = 0 + $uid
  $is_system = $uid_num < 1000
  $all_groups = flatten([$groups, $::admin_group])

  user { $name:
    ensure     => $ensure,
    uid        => $uid,
    comment    => $comment,
    shell      => $shell,
    groups     => $all_groups,
    home       => $home,
    managehome => $managehome,
  }
  if $managehome {
    file { "$home/.profile":
      ensure  => file,
      owner   => $name,
      content => "# profile of $comment ($title)\n",
    }
  }
  if $is_system {
    warning("user $name has a system uid")
  }
}
