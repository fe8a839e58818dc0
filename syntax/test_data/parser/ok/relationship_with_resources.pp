package { 'ntp': }
-> file { '/etc/ntp.conf': }
~> service { 'ntpd': }
