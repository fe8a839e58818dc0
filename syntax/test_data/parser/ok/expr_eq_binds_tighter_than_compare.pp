$r = 1 < 2 == true
