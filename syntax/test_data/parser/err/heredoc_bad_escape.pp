$x = @(END/x)
  a
  END
