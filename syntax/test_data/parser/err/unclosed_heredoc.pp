$x = @(END)
  text
  ENDX
