$x = foo('a', b => 1, ccc => 2)
notice(epp('mod/t.epp', name => $name, port => $port))
$y = [a => 1, b => 2]
$z = bar(
  'first', key => 'value', other_key => 'other value',
)
