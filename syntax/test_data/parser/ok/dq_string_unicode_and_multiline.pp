$r = "café ☃
second line"
