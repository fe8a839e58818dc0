class a {
  $x = [1,
