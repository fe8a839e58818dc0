$r = [foo, foo::bar, ::foo, foo-bar, _under]
