$_x = 1
$r = "${_x}"
$q = $::settings::x
$d = $0
