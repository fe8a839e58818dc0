$attrs = { 'ensure' => 'file' }
file { '/tmp/a':
  *    => $attrs,
  mode => '0644',
}
