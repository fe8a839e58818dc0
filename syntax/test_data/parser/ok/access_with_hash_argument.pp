$r = Struct[a => Integer, b => String]
