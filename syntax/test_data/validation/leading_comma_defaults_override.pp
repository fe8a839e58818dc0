File { , mode => '0644' }
File['/x'] { , mode => '0644' }
File <| |> { , mode => '0644' }
