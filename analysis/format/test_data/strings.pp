$a = "plain"
$b = "with ${interp}"
$c = "newline\n"
$d = "dollar \$x"
$e = "it's"
$f = "back\\slash"
$g = "unknown \. escape"
$h = ""
$i = "multi
line"
$j = "\u263A"
$k = "cr\r"
$l = "tab\t"
$m = 'single'
notice("${a}")
