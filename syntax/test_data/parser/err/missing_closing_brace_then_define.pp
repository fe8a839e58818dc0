define a {
  file { "/x":
    ensure => file,
  }

define b { }
