class profile::base (
  String        $motd,
  String        $timezone,
  String        $contact,
  Array[String] $packages,
  Hash          $sysctl,
  Hash          $limits,
  Hash          $users,
  String        $log_level = 'warning',
) {
  include ntp
}
