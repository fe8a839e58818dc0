class narrowing (
  Variant[String, Integer] $v,
  Optional[String] $o = undef,
  $any = undef,
) {
  if $v =~ Integer {
    $int = $v
  } else {
    $str = $v
  }
  if $o {
    $defined = $o
  }
  if $o != undef {
    $defined2 = $o
  }
  unless $v =~ String {
    $not_string = $v
  }
  case $v {
    Integer: { $case_int = $v }
    String: { $case_str = $v }
  }
  case $any {
    /^a/: { $matched = $any }
    Boolean, Integer: { $bool_or_int = $any }
    default: { $other = $any }
  }
  $sel = $v ? {
    Integer => $v + 1,
    default => 'x',
  }
  if $v =~ Integer and $o =~ String {
    $both_int = $v
    $both_str = $o
  }
  if $any =~ /^(\d+)$/ {
    $group = $1
  }
}
