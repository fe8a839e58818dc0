define foo($name) { }
