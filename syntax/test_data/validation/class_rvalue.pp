$x = class foo { }
