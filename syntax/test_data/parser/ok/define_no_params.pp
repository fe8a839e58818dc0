define foo { }
define foo::baz() { }
