# `key = value` lines of the settings, sorted by key.
function shop::render_settings(Shop::Settings $settings) >> String {
  $lines = $settings.keys.sort.map |$key| {
    $value = $settings[$key]
    "${key} = ${value}"
  }
  $lines.join("\n")
}
