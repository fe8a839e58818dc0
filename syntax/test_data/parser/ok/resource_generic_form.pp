Resource['file'] { '/tmp/a': ensure => file }
Resource[File] { '/tmp/b': }
