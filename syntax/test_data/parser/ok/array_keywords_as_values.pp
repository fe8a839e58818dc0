$a = [type, function]
$h = { type => function }
