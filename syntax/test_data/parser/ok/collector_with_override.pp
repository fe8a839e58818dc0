File <| tag == 'conf' |> {
  owner => 'root',
  mode  +> '0644',
}
