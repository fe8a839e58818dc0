foo foo-bar _x foo::bar ::foo Foo Foo::Bar ::Foo Foo::bar foo- x::
