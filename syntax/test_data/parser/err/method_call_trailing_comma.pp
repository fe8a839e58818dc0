$r = $x.map(1,)
