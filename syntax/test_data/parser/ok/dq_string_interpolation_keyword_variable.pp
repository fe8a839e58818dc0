$type = 1
$r = "${type} ${facts} ${1}"
