file { 'x':,, ensure => absent }
