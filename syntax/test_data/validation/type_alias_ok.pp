type Foo = Variant[String, Integer[1]]
