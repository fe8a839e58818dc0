$r = ['single', 'it\'s', 'back\\slash', "double"]
