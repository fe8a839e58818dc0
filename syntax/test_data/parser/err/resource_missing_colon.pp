file { '/a' ensure => file }
