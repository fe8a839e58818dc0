if $x notice('x')
