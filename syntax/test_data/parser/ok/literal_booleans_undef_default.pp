$r = [true, false, undef, default]
