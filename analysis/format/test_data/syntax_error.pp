file { '/x':
  ensure => file
  mode => '0644',
}
