# Nodes of the shop: a web front end and a database server.
$site_owner = 'shop-team'

node 'test.example.com' {
  include role::web
}

node 'web02.example.com' {
  include role::web
}

node /^db\d+\.example\.com$/ {
  include role::db
}

node default {
  include profile::base
}
