Sshkey <<| |>>
Nagios_host <<| tag == $::fqdn |>>
