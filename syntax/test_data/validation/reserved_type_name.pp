class integer { }
