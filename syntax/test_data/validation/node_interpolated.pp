node "a${x}" { }
