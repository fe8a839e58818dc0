apache::vhost { 'site':
  port => 80,
}
