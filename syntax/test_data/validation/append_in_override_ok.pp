File['/x'] { mode +> '0644' }
