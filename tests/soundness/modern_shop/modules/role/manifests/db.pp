# The database server of the shop.
class role::db {
  include profile::base
  include profile::db
  include profile::monitoring
}
