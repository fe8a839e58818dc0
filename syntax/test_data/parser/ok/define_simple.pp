define foo::bar (
  $ensure = present,
  String $content = '',
) {
  file { $title: ensure => $ensure }
}
