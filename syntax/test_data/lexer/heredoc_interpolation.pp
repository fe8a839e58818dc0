@("E")
  ${x} $y \$z
  E
@("F"/$)
  \$not ${x}
  F
