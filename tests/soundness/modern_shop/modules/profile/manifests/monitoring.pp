# Health checks for whatever the node runs.
class profile::monitoring (
  Integer[1, 3600] $interval = 60,
  Optional[String[1]] $contact = undef,
) {
  $checks = {
    'disk' => { 'warn' => 80, 'crit' => 95 },
    'load' => { 'warn' => $facts['processors']['count'] * 2, 'crit' => $facts['processors']['count'] * 4 },
  }
  $checks.each |String $check, Hash[String, Integer] $levels| {
    $summary = $levels.map |$level, $threshold| { "${level}>${threshold}" }
    notify { "check ${check}: ${summary.join(' ')} every ${interval}s": }
  }
  $who = $contact ? {
    undef   => lookup('shop::admin_email'),
    default => $contact,
  }
  $last_run = Timestamp('2024-06-01T12:00:00Z')
  $next_run = $last_run + Timespan($interval)
  $window = $next_run - $last_run
  notify { "monitoring contact ${who}, next run ${next_run}, window ${window}": }
}
