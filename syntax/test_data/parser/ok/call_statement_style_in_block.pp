class foo {
  include bar
  info "x", 1
}
