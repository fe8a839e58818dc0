@@sshkey { 'host': type => 'ssh-rsa', key => 'AAAA' }
