function foo::baz(*$rest) >> Array[Integer] {
  $rest
}
function foo::none() { }
