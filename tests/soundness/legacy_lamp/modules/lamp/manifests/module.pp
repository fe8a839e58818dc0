# An Apache module, enabled with a2enmod where there is one.
define lamp::module () {
  $mod = $name
  if $::osfamily == 'Debian' {
    exec { "a2enmod $mod":
      creates => "/etc/apache2/mods-enabled/${mod}.load",
    }
  } else {
    notify { "module $mod is built in": }
  }
}
