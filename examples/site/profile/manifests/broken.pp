# @summary Deliberate mistakes: puppet-ls reports all of them, Puppet only
#   the first.
class profile::broken {
  file { '/tmp/a':
    ensure => file
    mode   => '0644',
  }
  $x = [1, 2
  $1 = 'numeric variables cannot be assigned'
}

# @summary Parsed although the class above has errors.
class profile::after_the_errors {
  notice('still parsed as a class, in the wrong file for autoloading')
}
