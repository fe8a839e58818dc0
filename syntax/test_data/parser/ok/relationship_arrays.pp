[Package['a'], Package['b']] -> Service['c']
