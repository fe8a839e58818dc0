include foo, bar
require foo
contain foo::bar
notice 'hello'
notice('hello')
tag 'a', 'b'
realize(User['x'])
