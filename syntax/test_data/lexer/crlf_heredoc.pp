@(END)
  a
  END
$x
