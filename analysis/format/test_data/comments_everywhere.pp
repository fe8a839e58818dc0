if $a # why
{
  include x
}
file # type
{ # brace
  '/x': # title
  ensure # name
  => # arrow
  file # value
  , # comma
}
$h = { # open
  # lead
  a => 1 # trail
  # before close
}
foo( # open paren
  1 # one
  , 2
) # after
case $x { # case
  # option comment
  'a': { } # trailing option
  default: {
    # only a comment
  }
}
$s = $x ? { # sel
  default => 1, # d
}
class c ( # params
) {
}
$z = [ # empty with comment
]
