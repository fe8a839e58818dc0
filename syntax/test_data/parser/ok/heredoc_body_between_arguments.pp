$r = sprintf(@(END)
  %s and %s
  | END
, 'a', 'b')
