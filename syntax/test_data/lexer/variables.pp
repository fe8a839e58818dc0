$x $::x $x::y $::x::y $0 $_x $Foo $x_1 $
