$r = @(END:json)
  {"a": 1}
  |- END
$q = @(END/tn$)
  tab\t nl\n dollar\$x
  END
$s = @(END:text/)
  all\tescapes
  END
