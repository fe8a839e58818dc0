case $x {
  'a' { }
}
