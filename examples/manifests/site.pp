# The nodes of a small control repository: `puppet-ls check examples`.
node 'web01.example.com' {
  include profile::web
}
