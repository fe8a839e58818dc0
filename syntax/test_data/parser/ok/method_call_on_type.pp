$r = Integer.new('42')
$q = String(42)
