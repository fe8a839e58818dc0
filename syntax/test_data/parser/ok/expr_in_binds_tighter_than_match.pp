$r = 'a' in ['a'] =~ Boolean
