#- /ws/modules/facty/lib/facter/facty.rb
Facter.add('service_default') do
  setcode do
    '<SERVICE DEFAULT>'
  end
end
Facter.add(:uname_full) do
  confine kernel: 'Linux'
  setcode 'uname -a'
end
Facter.add(:computed) do
  setcode do
    Facter.value(:processors)['count'] * 2
  end
end
#- /ws/modules/facty/manifests/init.pp
# Facts the workspace's modules add: Optional, since a module's fact may
# not resolve; Any when its value is computed by Ruby.
class facty {
  $default = $::service_default
  $also = $facts['service_default']
  $uname = $::uname_full
  $computed = $::computed
  $unknown = $::no_such_fact
}
