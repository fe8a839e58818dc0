# Puppet 7.23 crashes on this (internal error): a heredoc inside an interpolation of a heredoc body.
$r = @("OUT")
  a ${@(IN)}
    inner
    | IN
  b
  | OUT
