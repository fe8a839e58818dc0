$x = 1
$r = @("END")
  value: ${x} and $x
  | END
