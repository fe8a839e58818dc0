$r = "tab\t nl\n cr\r space\s dollar\$ quote\" bs\\ sq\' u\u2603 u\u{1F600} other\q"
