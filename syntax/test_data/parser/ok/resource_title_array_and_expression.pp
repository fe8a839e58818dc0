$dir = '/tmp'
file { ['/a', '/b']: ensure => file }
file { "${dir}/c": }
