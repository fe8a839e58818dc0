$r = [@(A), @(B)]
  first
  | A
  second
  | B
