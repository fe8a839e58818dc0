Package['x'] -> File['y'] ~> Service['z']
File['a'] <- File['b']
Service['s'] <~ File['c']
