$r = [1].map |$x { $x }
