# Defaults of the lamp module, by operating system.
class lamp::params {
  case $::osfamily {
    'Debian': {
      $package = 'apache2'
      $service = 'apache2'
      $conf_dir = '/etc/apache2/sites-enabled'
      $user = 'www-data'
    }
    'RedHat': {
      $package = 'httpd'
      $service = 'httpd'
      $conf_dir = '/etc/httpd/conf.d'
      $user = 'apache'
    }
    default: {
      fail("The lamp module does not support ${::osfamily}")
    }
  }
  $port = '80'
  $docroot = '/var/www'
  $modules = ['rewrite', 'headers']
  $php_packages = $::operatingsystem ? {
    'Ubuntu' => ['php8.1', 'libapache2-mod-php8.1'],
    'Debian' => ['php8.2', 'libapache2-mod-php8.2'],
    default  => ['php', 'php-mysqlnd'],
  }
  $timeout = 300
}
