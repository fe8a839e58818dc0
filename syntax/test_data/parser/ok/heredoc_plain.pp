$r = @(END)
  text $x
  END
