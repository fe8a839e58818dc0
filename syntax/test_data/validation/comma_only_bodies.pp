file { '/x': , }
file { '/y':, ; '/z': }
