node 'a.example.com', 'b.example.com' { }
node www.example.com { }
node /^web\d+$/ { include web }
node default { }
node 192.168.0.1 { }
node "x.example.com", { }
