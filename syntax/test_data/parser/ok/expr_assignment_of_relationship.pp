$a = File['/a'] -> File['/b']
