function foo::bar(String $x, Optional[Integer] $y = undef) >> String {
  "${x}-${y}"
}
