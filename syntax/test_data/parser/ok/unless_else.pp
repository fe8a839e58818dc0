$x = 1
unless $x > 1 {
  notice('small')
} else {
  notice('big')
}
