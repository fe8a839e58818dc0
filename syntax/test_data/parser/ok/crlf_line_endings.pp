$x = 1
# c
$r = @(END)
  t
  END
