function foo($a = $b = 1) { }
