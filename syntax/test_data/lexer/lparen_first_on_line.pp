foo(1)
foo (1)
(1)
  (2)
	(3)
foo
(4)
