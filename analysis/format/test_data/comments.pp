# File header comment


# Documents the class.
class  demo(
  # the port
  Integer $port = 80, # trailing on a parameter
  $name = 'x'   # no comma after
  # before the closing parenthesis
) {
  # leading comment in block
  $a = [ 1, # one
    2,
    # before the closing bracket
  ]
  $h = { 'a' => # after the arrow
    1, 'b' => 2 }
  file { '/x': # after the title
    # between attributes
    ensure => file,

    # after a blank line
    mode => '0644', # trailing
    # before the closing brace
  }
  if $a { # after the opening brace
    notice('x')
  }
  # between a closing brace and else
  else {
    notice('y') /* block */
  }
  foo(/* inline */ 1, 2)
  /* a block comment
     over two lines */
  $b = 1
  # last in block
}
# at the end
