# Nightly backups of the database nodes, with a retention window.
class fleet::backup (
  Integer[1] $keep_days,
  Array[Stdlib::Absolutepath] $paths,
) {
  $now = Timestamp('2024-06-01T03:00:00Z')
  $retention = Timespan({ 'days' => $keep_days })
  $oldest = $now - $retention
  $next = $now + Timespan({ 'hours' => 24 })
  $stamp = $oldest.strftime('%Y-%m-%d')
  $sizes = { '/etc' => 12, '/srv' => 4096, '/var/log' => 512 }
  $big = $sizes.filter |$path, $mb| { $path in $paths and $mb > $keep_days }
  $total = $big.reduce(0) |$sum, $entry| { $sum + $entry[1] }
  file { '/etc/fleet/backup.conf':
    ensure  => file,
    content => epp('fleet/backup.conf.epp', {
      'paths'  => $paths,
      'oldest' => $stamp,
      'next'   => String($next),
      'total'  => $total,
    }),
  }
}
