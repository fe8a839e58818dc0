class Foo { }
