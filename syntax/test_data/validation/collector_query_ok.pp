File <| mode == '0644' and (owner != 'root' or tag == 'x') |>
