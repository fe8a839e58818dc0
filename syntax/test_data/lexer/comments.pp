# hash
/* block */ /**/ /* * */ /* multi
line */ # end