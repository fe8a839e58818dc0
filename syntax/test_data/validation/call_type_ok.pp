notice(Integer('1'))
