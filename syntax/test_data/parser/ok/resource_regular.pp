file { '/tmp/a':
  ensure  => file,
  content => 'x',
  mode    => '0644',
}
