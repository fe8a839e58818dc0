function f() >> { }
