class outer {
  class inner { }
  define thing { }
}
