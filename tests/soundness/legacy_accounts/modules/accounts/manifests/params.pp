# Defaults of the accounts module.
class accounts::params (
  $default_shell = '/bin/sh',
) {
  $home_base = $::osfamily ? {
    'RedHat' => '/home',
    default  => '/home',
  }
  $sudo_group = $::osfamily ? {
    'RedHat' => 'wheel',
    default  => 'sudo',
  }
  $manage_sudo = true
}
