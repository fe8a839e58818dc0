function foo($Abc) { }
