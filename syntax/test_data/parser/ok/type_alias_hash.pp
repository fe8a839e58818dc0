type MyMod::H = { a => 1 }
