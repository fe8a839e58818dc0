# Parameters are bound by automatic parameter lookup (ntp::servers, ...).
class ntp (
  Array[String] $servers,
  Boolean       $enabled,
  Integer       $port     = 123,
  Hash          $settings = {},
  String        $driftfile = '/var/lib/ntp/drift',
) {
}
