User <| |>
User <| title == 'alice' |>
User <| groups == 'admin' and (uid != 0 or tag == 'x') |>
