notice(private)
