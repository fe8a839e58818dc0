# Bolt: Puppet 7.23 accepts this only with --tasks (checked).
plan p() {
  apply('localhost') { }
}
