class foo::default { }
class foo::class_x { }
