node 'a', 'b', {
}
