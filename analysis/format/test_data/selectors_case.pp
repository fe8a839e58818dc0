$mode = $facts['os']['family'] ? { 'RedHat' => '0640', 'Debian' => '0644', default => '0600' }
$short = $x ? { true => 1, default => 2 }
$broken = $facts['os']['family'] ? {
  'RedHat' => 'a', /Debian|Ubuntu/ => 'b',
  default => 'c' }
case $facts['os']['family'] {
  'RedHat', 'CentOS': { $pkg = 'httpd' }
  'Debian': {
    $pkg = 'apache2'
  }

  default: { fail('unsupported') }
}
