$r = type(1)
