each([1, 2]) |$x| { notice($x) }
with(1) || { 2 }
