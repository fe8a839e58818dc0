$r = if true { 1 } else { 2 }
if false { }
