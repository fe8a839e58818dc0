$r = Enum['a', 'b',]
