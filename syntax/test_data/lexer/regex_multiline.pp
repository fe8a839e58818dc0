$x =~ /a
b/
