$x = 'a'
case $x {
  'a', 'b': { notice('ab') }
  /^c/, [1, 2]: { }
  Integer: { notice('int') }
  default: { notice('other') }
}
