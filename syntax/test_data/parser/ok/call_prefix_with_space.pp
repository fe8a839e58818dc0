$r = sprintf ('%s', 'a')
