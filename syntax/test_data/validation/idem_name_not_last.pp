foo
notice(2)
