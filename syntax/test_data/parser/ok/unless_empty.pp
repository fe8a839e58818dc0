unless false { }
