File['/tmp/a'] {
  mode => '0600',
}
Service['x', 'y'] { enable => true }
