class foo {
  "x"
}
