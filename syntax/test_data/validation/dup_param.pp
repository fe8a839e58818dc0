define foo($a, $a) { }
