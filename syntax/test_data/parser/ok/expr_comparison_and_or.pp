$r = 1 + 1 == 2 and 3 < 4 or 5 >= 6 and 7 != 8
