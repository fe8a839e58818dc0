[1].each |$x| {
  define foo { }
}
