if defined(File['/x']) and $facts['os']['family'] == 'Debian' {
}
