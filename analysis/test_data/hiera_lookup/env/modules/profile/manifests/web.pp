class profile::web (
  Hash $users = {},
) {
  include profile::base
}
