#- /ws/modules/demo/types/port.pp
type Demo::Port = Integer[1, 65535]
#- /ws/modules/demo/types/config.pp
type Demo::Config = Struct[{ port => Demo::Port, host => String }]
#- /ws/modules/demo/functions/answer.pp
function demo::answer() >> Integer[42, 42] { 42 }
#- /ws/modules/demo/manifests/init.pp
class demo (Demo::Port $port, Demo::Config $cfg) {
  $p = $port
  $next = $port + 1
  $h = $cfg['host']
  $a = demo::answer()
  $typed = Demo::Port
  $u = [$port].map |$x| { $x }
}
