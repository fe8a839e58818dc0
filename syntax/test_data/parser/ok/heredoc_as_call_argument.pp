notice(@(END), 'after')
  body
  | END
