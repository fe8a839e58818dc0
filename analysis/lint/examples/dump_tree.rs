//! Prints the syntax tree of a file, to see what the checks walk.
fn main() {
    let path = std::env::args().nth(1).expect("usage: dump_tree FILE");
    let text = std::fs::read_to_string(&path).expect("readable file");
    let parse = puppet_syntax::parse(&text, puppet_syntax::SourceKind::Manifest);
    print!("{}", parse.debug_tree());
}
