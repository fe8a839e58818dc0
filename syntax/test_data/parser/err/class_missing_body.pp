class a
class b { }
