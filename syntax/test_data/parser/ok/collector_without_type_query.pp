File <| |> -> Package <| |>
User <| (title == 'a') |>
