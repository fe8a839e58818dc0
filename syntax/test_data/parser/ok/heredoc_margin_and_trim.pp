$r = @(END)
    indented
      more
    |- END
