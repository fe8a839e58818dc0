nginx::resource::server { 'x':, ensure => absent }
