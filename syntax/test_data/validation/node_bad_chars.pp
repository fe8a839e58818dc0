node 'a b' { }
