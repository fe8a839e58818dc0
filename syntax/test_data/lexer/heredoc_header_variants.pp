@(END)
END
@("END")
END
@( END )
END
@(END:json)
END
@(END/tn)
END
@(END:yaml/$)
END
