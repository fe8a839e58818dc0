# After a validation call returns, its arguments have the types it accepts.
class validation ($flag, $name, $port = '8080', $paths = [], $count = 1, $level = 1) {
  validate_bool($flag)
  validate_string($name)
  validate_integer($port, 65535)
  validate_absolute_path($paths)
  assert_type(Integer[0], $count)
  validate_legacy(Integer, 'validate_integer', $level)
  $v_flag = $flag
  $v_name = $name
  $v_port = $port
  $v_paths = $paths
  $v_count = $count
  $v_level = $level
}
# A guard whose other branch fails.
class validation::guards ($x, $y, $z, $w) {
  unless $x =~ Integer { fail('x must be an integer') }
  if !($y =~ String) {
    fail('y must be a string')
  }
  case $z {
    'a', 'b': { $kind = 'letter' }
    default: { fail('z must be a or b') }
  }
  # A block with assert_type returns the block's answer: no proof.
  assert_type(Integer, $w) |$expected, $actual| { warning('not an integer') }
  $g_x = $x
  $g_y = $y
  $g_z = $z
  $g_w = $w
}
