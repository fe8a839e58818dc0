@()
@(END:j)
@(END/q)
END
