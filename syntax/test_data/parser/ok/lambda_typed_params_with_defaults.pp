$r = [1].map |Integer[0] $x = 1, Optional[String] $y = undef| { $x }
