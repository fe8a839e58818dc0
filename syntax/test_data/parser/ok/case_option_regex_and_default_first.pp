case $facts['os']['family'] {
  default: { }
  /(?i:debian|ubuntu)/: { }
}
