if true {
  class foo { }
}
