$r = reduce([1, 2], 0,) |$a, $b| { $a + $b }
