//! Hostile and random input: parsing must never panic, never overflow a
//! default (2 MiB) thread stack, stay fast, and give a lossless tree.
//!
//! Crashers found by the fuzzer (see `fuzz/README.md`) live in
//! `test_data/fuzz/` as raw files; every file there is replayed here.

use std::path::Path;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use puppet_syntax::{SourceKind, SyntaxNode, TextSize};

/// The default stack of a Rust test thread (and of `std::thread::spawn`).
/// Set explicitly so `RUST_MIN_STACK` cannot hide an overflow.
const DEFAULT_STACK: usize = 2 * 1024 * 1024;

/// Generous, since tests usually run unoptimised on a shared machine; the
/// point is to catch quadratic (or worse) behaviour, which takes minutes.
const TIME_LIMIT: Duration = Duration::from_secs(20);

/// Runs `f` on a fresh thread with the default 2 MiB stack and propagates
/// its panic (a stack overflow aborts the whole test binary instead).
fn on_default_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let handle = std::thread::Builder::new()
        .stack_size(DEFAULT_STACK)
        .spawn(f)
        .expect("spawn test thread");
    match handle.join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// Everything the checks need to know about one parse, without the tree.
#[derive(Debug)]
struct Outcome {
    errors: usize,
    #[allow(dead_code)] // shown through Debug
    max_depth: usize,
    elapsed: Duration,
}

/// Lexes, parses and validates `text`, checks that the tree is lossless,
/// walks it, and drops it; all on the calling thread.
fn check_text(text: &str, kind: SourceKind) -> Outcome {
    let start = Instant::now();

    let lexed = puppet_syntax::lex(text, kind);
    let lexed_len: usize = lexed.tokens.iter().map(|t| t.len as usize).sum();
    assert_eq!(lexed_len, text.len(), "token lengths must cover the input");
    drop(lexed);

    let (parse, errors) = puppet_syntax::parse_and_validate(text, kind);
    let root = parse.syntax_node();
    assert_eq!(root.text_range().end(), TextSize::of(text));
    assert!(root.text() == text, "the tree must be lossless");
    for error in parse.errors().iter().chain(&errors) {
        assert!(
            error.range.end() <= TextSize::of(text),
            "error range out of bounds: {error:?}"
        );
    }
    let max_depth = walk(&root, text.len());
    // Drop the cursor, the green tree and the parse explicitly: dropping a
    // deep tree is recursive in rowan, so it must also fit on the stack.
    drop(root);
    drop(parse);

    Outcome {
        errors: errors.len(),
        max_depth,
        elapsed: start.elapsed(),
    }
}

/// Visits every node and token (iteratively, as rowan does) and returns the
/// depth of the deepest element; also checks that the tokens cover the text.
fn walk(root: &SyntaxNode, len: usize) -> usize {
    let mut depth = 0usize;
    let mut max_depth = 0usize;
    let mut tokens_len = 0usize;
    for event in root.preorder_with_tokens() {
        match event {
            rowan::WalkEvent::Enter(element) => {
                depth += 1;
                max_depth = max_depth.max(depth);
                if let Some(token) = element.as_token() {
                    tokens_len += token.text().len();
                }
            }
            rowan::WalkEvent::Leave(_) => depth -= 1,
        }
    }
    assert_eq!(tokens_len, len, "the tokens must cover the text");
    max_depth
}

/// `check_text` on a 2 MiB thread, for both source kinds, within the time limit.
fn check(name: &str, text: String) -> Vec<Outcome> {
    let text = std::sync::Arc::new(text);
    [SourceKind::Manifest, SourceKind::Template]
        .into_iter()
        .map(|kind| {
            let t = text.clone();
            let outcome = on_default_stack(move || check_text(&t, kind));
            eprintln!("{name} ({kind:?}): {outcome:?}");
            assert!(
                outcome.elapsed < TIME_LIMIT,
                "{name} ({kind:?}) took {:?}",
                outcome.elapsed
            );
            outcome
        })
        .collect()
}

/// `check`, and parsing it as a manifest must report errors (unbalanced input).
fn check_has_errors(name: &str, text: String) {
    let outcomes = check(name, text);
    assert!(outcomes[0].errors > 0, "{name}: expected errors");
}

const N: usize = 100_000;

#[test]
fn deep_brackets() {
    check_has_errors("100k [", "[".repeat(N));
    check(
        "100k [1 ... ]",
        format!("{}1{}", "[".repeat(N), "]".repeat(N)),
    );
    check("100k $x[", format!("$x{}", "[".repeat(N)));
}

#[test]
fn deep_parens() {
    check_has_errors("100k (", "(".repeat(N));
    check(
        "100k (1 ... )",
        format!("{}1{}", "(".repeat(N), ")".repeat(N)),
    );
    check("100k f(", format!("{}1", "f(".repeat(N)));
}

#[test]
fn deep_braces() {
    check_has_errors("100k {", "{".repeat(N));
    check("100k {...}", format!("{}{}", "{".repeat(N), "}".repeat(N)));
    check("100k {a=>", format!("{}1", "{a=>".repeat(N)));
    check(
        "100k class { ",
        format!("{}{}", "class a { ".repeat(N / 10), "}".repeat(N / 10)),
    );
}

#[test]
fn deep_interpolation() {
    check_has_errors("100k \"${", "\"${".repeat(N));
    check(
        "100k \"${ ... }\"",
        format!("{}x{}", "\"${".repeat(N), "}\"".repeat(N)),
    );
    check("100k \"${[", format!("\"{}", "${[".repeat(N)));
    check(
        "10k heredoc in interpolation",
        "\"${@(END)\n".repeat(N / 10),
    );
}

const M: usize = 50_000;

/// One test per chain so that a stack overflow (which aborts the whole test
/// binary) names the construct.
macro_rules! chain_tests {
    ($($name:ident: $text:expr;)*) => {
        $(
            #[test]
            fn $name() {
                check(stringify!($name), $text);
            }
        )*
    };
}

chain_tests! {
    chain_arrow: format!("$a{}", " -> $a".repeat(M));
    chain_arrow_resources: format!("{}file {{ 'x': }}", "file { 'x': } -> ".repeat(M));
    chain_squiggle: format!("$a{}", " ~> $a".repeat(M));
    chain_plus: format!("$x = 1{}", " + 1".repeat(M));
    chain_minus: format!("$x = 1{}", " - 1".repeat(M));
    chain_and: format!("$x = true{}", " and true".repeat(M));
    chain_assign: format!("{}1", "$x = ".repeat(M));
    chain_unary_minus: format!("$x = {}1", "-".repeat(M));
    chain_unary_not: format!("$x = {}true", "!".repeat(M));
    chain_method_call: format!("$x{}", ".f".repeat(M));
    chain_index: format!("$x{}", "[0]".repeat(M));
    chain_selector: format!("$x{}", " ? { default => 1 }".repeat(M));
    chain_in: format!("$x{}", " in $y".repeat(M));
    chain_comma: format!("[{}]", "1,".repeat(M));
    chain_call: format!("f{}", "()".repeat(M));
}

/// Postfix chains (`.f`, `[0]`, `()`) must parse in linear time: 20,000
/// links should take milliseconds, but took seconds when rowan's node cache
/// rehashed the whole deep chain (`node_hash` is recursive). Run on a big
/// stack so that this checks time only (`chain_*` check the stack).
#[test]
fn postfix_chains_are_linear() {
    let m = 20_000;
    for (name, text) in [
        ("20k .f", format!("$x{}", ".f".repeat(m))),
        ("20k [0]", format!("$x{}", "[0]".repeat(m))),
        ("20k ()", format!("f{}", "()".repeat(m))),
    ] {
        let elapsed = std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn(move || {
                let start = Instant::now();
                let parse = puppet_syntax::parse(&text, SourceKind::Manifest);
                let elapsed = start.elapsed();
                assert!(parse.syntax_node().text() == text.as_str());
                elapsed
            })
            .expect("spawn")
            .join()
            .unwrap();
        eprintln!("{name}: {elapsed:?}");
        assert!(
            elapsed < Duration::from_secs(1),
            "{name} took {elapsed:?} (quadratic?)"
        );
    }
}

#[test]
fn deep_if() {
    let m = 10_000;
    check(
        "10k nested if",
        format!("{}{}", "if $a { ".repeat(m), "} ".repeat(m)),
    );
    check_has_errors("10k unclosed if", "if $a { ".repeat(m));
    check(
        "10k nested if/else",
        format!("{}{}", "if $a { 1 } else { ".repeat(m), "} ".repeat(m)),
    );
    check(
        "10k elsif",
        format!("if $a {{ }}{} else {{ }}", " elsif $a { }".repeat(m)),
    );
    check(
        "10k nested unless/case",
        format!(
            "{}{}",
            "unless $a { case $b { default: { ".repeat(m),
            "} } } ".repeat(m)
        ),
    );
}

#[test]
fn deep_templates() {
    check("100k <%", "<%".repeat(N));
    check("100k <%= [", format!("<%= {}", "[".repeat(N)));
    check("100k <% { %>", "<% { %>".repeat(N / 10));
    check("100k %>", "%>".repeat(N));
}

#[test]
fn many_heredocs() {
    check("10k heredocs", "$x = @(END)\n".repeat(N / 10));
    check(
        "10k heredocs on one line",
        format!("{}\nEND\n", "@(END) ".repeat(N / 10)),
    );
}

/// Every file in `test_data/fuzz/` (crashers found by the fuzzer) must now
/// parse without panicking, as raw bytes decoded lossily like the fuzzer does.
#[test]
fn fuzz_regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/fuzz");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("read_dir entry").path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    entries.sort();
    for path in entries {
        let bytes = std::fs::read(&path).expect("read crasher");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        check(&path.display().to_string(), text);
    }
}

/// Pieces of Puppet that tend to change the lexer's or parser's state.
const FRAGMENTS: &[&str] = &[
    "class ",
    "define ",
    "node ",
    "inherits ",
    "if ",
    "elsif ",
    "else ",
    "unless ",
    "case ",
    "default",
    "and ",
    "or ",
    "in ",
    "function ",
    "type ",
    "plan ",
    "true",
    "undef",
    "$x",
    "$::y",
    "${",
    "${x}",
    "$",
    "x",
    "::",
    "Foo",
    "Integer[1]",
    "'a'",
    "\"a\"",
    "\"",
    "'",
    "\\",
    "\\\"",
    "@(END)",
    "@(\"END\"/L)",
    "END",
    "|-END",
    "@",
    "@@",
    "<|",
    "|>",
    "<<|",
    "|>>",
    "->",
    "~>",
    "<-",
    "<~",
    "=>",
    "+>",
    "==",
    "!=",
    "=~",
    "!~",
    "<=",
    ">=",
    "<<",
    ">>",
    "=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "!",
    "?",
    ":",
    ";",
    ",",
    ".",
    "|",
    "<",
    ">",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    " ",
    "\n",
    "\t",
    "# c\n",
    "/*",
    "*/",
    "/x/",
    "0x1f",
    "1.5e3",
    "42",
    "<%",
    "<%=",
    "<%-",
    "-%>",
    "%>",
    "<%#",
    "<%%",
    "%%>",
    "é",
    "\u{FEFF}",
    "\r\n",
];

fn puppetish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        8 => prop::sample::select(FRAGMENTS).prop_map(str::to_owned),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..80).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_puppetish_text_parses_losslessly(text in puppetish()) {
        for kind in [SourceKind::Manifest, SourceKind::Template] {
            check_text(&text, kind);
        }
    }
}
