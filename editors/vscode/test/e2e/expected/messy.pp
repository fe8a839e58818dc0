class webapp::messy (String $root = '/srv/www', $mode = '0644') {
  file { $root:
    ensure => directory,
    mode   => $mode,
  }
}
