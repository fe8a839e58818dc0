if $facts['os']['family'] == 'Debian' {
  $pkg = 'apache2'
  $only_then = 1
} else {
  $pkg = 'httpd'
}
$which = $pkg
$maybe = $only_then
$choice = $facts['kernel'] ? {
  'Linux' => 1,
  default => 2,
}
case $facts['kernel'] {
  'Linux': { $k = 'l' }
  'Windows': { $k = 10 }
  default: { $k = undef }
}
$kk = $k
if true {
  $const = 1
} else {
  $const = 'never'
}
$c = $const
$r = if $facts['x'] { 5 } else { 6 }
