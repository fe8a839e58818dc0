node default {
  if $x {
    include a
  
}

node b { }
