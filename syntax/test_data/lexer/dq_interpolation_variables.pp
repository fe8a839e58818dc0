"$x $x::y $x:: $x-1 ${x}y $1x $::top $ $"
