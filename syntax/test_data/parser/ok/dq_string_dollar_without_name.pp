$r = "cost: $ 5 and $"
