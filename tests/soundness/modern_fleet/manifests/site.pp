# Every node of the fleet gets the same baseline; databases also back up.
node default {
  include fleet
  include fleet::firewall
}

node /^db\d+/ {
  include fleet
  include fleet::firewall
  include fleet::backup
}
