$r = @(END).strip
  text
  END
