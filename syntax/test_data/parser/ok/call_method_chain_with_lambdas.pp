$r = [1, 2, 3].filter |$v| { $v > 1 }.map |$v| { $v * 2 }
