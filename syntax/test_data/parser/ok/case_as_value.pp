$x = 1
$r = case $x { 1: { 'one' } default: { 'many' } }
