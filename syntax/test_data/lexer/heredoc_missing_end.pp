@(END)
text
