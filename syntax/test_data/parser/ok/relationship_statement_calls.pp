include a
Class['a'] -> Class['b']
