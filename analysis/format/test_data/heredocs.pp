$a = @(EOT)
  Hello ${name}
  trailing spaces stay   
  | EOT
$b = @("END"/L)
    interpolated $x \
    joined
    |- END
notice(@(ONE), @(TWO)) # two heredocs on one line
first
ONE
second
TWO
file { '/etc/x':
  ensure => file, content => @(CONF),
    key = value
    | CONF
  mode => '0644',
}
