# Puppet 7.23 rejects this in its validator (RESOURCE_WITHOUT_TITLE).
file { mode => '0644' }
