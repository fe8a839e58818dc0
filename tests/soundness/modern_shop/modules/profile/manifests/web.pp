# The shop's web server: virtual hosts and rate limits from Hiera.
class profile::web (
  Hash[String, Shop::VhostSpec] $vhosts,
  Hash[String, Integer] $rate_limits,
  Integer[1] $default_limit = 50,
) {
  class { 'shop':
    vhosts => $vhosts,
  }

  $vhosts.each |$name, $vhost| {
    shop::vhost { $name:
      * => $vhost,
    }
  }

  # Limits for every endpoint, with a default for the ones not listed.
  $checkout = $rate_limits['checkout']
  $search = $rate_limits['search']
  $effective_search = pick($search, $default_limit)
  $limits_text = $rate_limits.map |$endpoint, $limit| { "${endpoint}=${limit}" }
  $all_limits = $rate_limits + { 'search' => $effective_search }

  file { '/etc/shop/limits.conf':
    ensure  => file,
    content => "checkout: $checkout\n${limits_text.join("\n")}\n",
  }

  $busy = $all_limits.filter |$endpoint, $limit| { $limit > $default_limit }
  notify { "busy endpoints: ${busy.keys.join(',')}": }
}
