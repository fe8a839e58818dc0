function foo($1) { }
