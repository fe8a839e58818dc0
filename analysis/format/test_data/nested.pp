$config = {'server' => {'listen' => {'address' => '0.0.0.0', 'port' => 8080}, 'tls' => {'enabled' => true, 'ciphers' => ['a', 'b']}}, 'client' => {}}
$deep = {
  'a' => {'b' => {'c' => {'d' => {'e' => [1, [2, [3, {'f' => 'g'}]]]}}}},
}
$empty = {}
$list = [ ]
