[@(A), @("B")] $z
first
A
second $x
B
$after
