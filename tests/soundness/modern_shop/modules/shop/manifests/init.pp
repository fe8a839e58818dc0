# The shop application server.
class shop (
  String[1] $package_name,
  Integer[1, 64] $worker_count,
  Stdlib::Port $listen_port,
  Enum['debug', 'info', 'warn'] $log_level,
  Hash[String, Boolean] $features,
  Hash[String, Shop::VhostSpec] $vhosts = {},
  String $admin_email = 'root@localhost',
) {
  $enabled = $features.filter |$feature, $on| { $on }
  $enabled_names = $enabled.keys
  $settings = {
    'workers'  => $worker_count,
    'port'     => $listen_port,
    'loglevel' => $log_level,
    'admin'    => $admin_email,
  } + $features

  package { $package_name:
    ensure => installed,
  }
  file { '/etc/shop/shop.conf':
    ensure  => file,
    content => shop::render_settings($settings),
    require => Package[$package_name],
  }
  file { '/etc/shop/features':
    ensure  => file,
    content => "enabled: ${enabled_names.join(',')} of ${features.length}\n",
  }
  $memory_mb = $facts['memory']['system']['total_bytes'] / (1024 * 1024)
  $per_worker = $memory_mb / $worker_count
  contain shop::service
  notify { "shop: ${worker_count} workers, ${per_worker} MB each": }
}
