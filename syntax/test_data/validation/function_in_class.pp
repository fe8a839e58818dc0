class outer {
  function outer::f() { 1 }
}
