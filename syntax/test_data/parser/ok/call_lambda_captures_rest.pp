$r = with(1, 2, 3) |$first, *$rest| { $rest }
