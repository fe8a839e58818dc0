class foo {
  $x = 1
  $x
}
