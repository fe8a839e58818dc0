file { '/a': ensure => }
