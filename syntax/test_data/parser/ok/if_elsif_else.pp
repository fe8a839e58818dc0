$x = 1
if $x == 1 {
  notice('one')
} elsif $x == 2 {
  notice('two')
} elsif $x =~ /3/ {
} else {
  notice('other')
}
