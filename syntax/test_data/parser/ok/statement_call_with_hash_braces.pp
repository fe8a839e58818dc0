# Puppet 7.23 accepts this: an untitled "resource" of a statement function is
# a call with a hash argument.
notice { a => 1 }
include { }
