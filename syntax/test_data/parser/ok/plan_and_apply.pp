# Bolt: Puppet 7.23 accepts this only with --tasks (checked).
plan mymod::deploy(TargetSpec $targets, String $msg = 'hi') {
  $r = run_task('x', $targets)
  apply($targets, _catch_errors => true) {
    notify { $msg: }
  }
  return $r
}
