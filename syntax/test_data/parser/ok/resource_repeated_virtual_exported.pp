# Puppet 7.23 accepts this (`@@ @file`: exported wins).
@@@file { '/a': }
