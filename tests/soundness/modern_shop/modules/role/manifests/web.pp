# The web front end of the shop.
class role::web {
  include profile::base
  include profile::web
  include profile::monitoring
}
