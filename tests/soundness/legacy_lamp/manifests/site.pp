# Puppet 3 style site manifest: top-scope variables, resource defaults,
# one node per host.
$admin_email = 'root@example.com'
$backup_host = 'backup.example.com'

Exec {
  path => '/usr/sbin:/usr/bin:/sbin:/bin',
}

node 'test.example.com', 'web02.example.com' {
  include lamp
  include lamp::php
}

node 'db01.example.com' {
  class { 'lamp':
    manage_php => false,
  }
  include lamp::mysql
}
