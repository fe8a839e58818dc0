# Accounts on every host, Puppet 3 style.
$admin_group = 'sysadmin'

node default {
  include accounts
}
