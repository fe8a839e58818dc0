file { '/tmp/a':
  content => @("EOT"),
    Hello ${name}
    | EOT
  mode    => '0644',
}
