# Valid nesting at column 0: must not trigger missing-brace recovery.
class a {
class b { }
define c { }
}
