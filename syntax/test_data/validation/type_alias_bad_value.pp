type Foo = $x
