$r = [String, Foo::Bar, ::Foo, Integer[1, 2], Hash[String, Array[Integer]]]
