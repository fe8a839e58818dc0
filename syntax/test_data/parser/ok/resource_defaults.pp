File {
  owner => 'root',
  mode  => '0644',
}
Exec { path => ['/bin', '/usr/bin'] }
Package { }
