class foo {
}
class foo::bar {
  $x = 1
}
