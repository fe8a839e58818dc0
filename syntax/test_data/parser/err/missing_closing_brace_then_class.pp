class a {
  if $x {
    notice('x')
}

class b {
}
