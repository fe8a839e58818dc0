//! Hostile input: formatting never panics, never overflows a default
//! (2 MiB) thread stack, and whatever it returns is the same program.

use proptest::prelude::*;
use puppet_format::{
    format_on_type, format_range, format_source, FormatOptions, NotFormatted, Typed,
};
use puppet_syntax::{SourceKind, TextRange, TextSize};

const DEFAULT_STACK: usize = 2 * 1024 * 1024;

/// Runs `f` on a fresh thread with the default stack; a panic fails the
/// test (a stack overflow aborts the whole binary).
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

fn format(text: String) -> Result<String, NotFormatted> {
    on_default_stack(move || format_source(&text, SourceKind::Manifest, &FormatOptions::default()))
}

fn nested(open: &str, inner: &str, close: &str, depth: usize) -> String {
    format!(
        "$x = {}{inner}{}\n",
        open.repeat(depth),
        close.repeat(depth)
    )
}

#[test]
fn nesting_up_to_the_limit_formats_and_deeper_is_refused() {
    let shapes = [
        ("[", "1", "]"),
        ("{ a => ", "1", " }"),
        ("(", "1", ")"),
        ("f(", "1", ")"),
    ];
    for (open, inner, close) in shapes {
        let ok = nested(open, inner, close, 190);
        let formatted = format(ok.clone()).unwrap_or_else(|e| panic!("{open}: {e}"));
        assert!(
            format(formatted.clone()) == Ok(formatted),
            "{open}: not idempotent"
        );
        // Deeper than the formatter goes, or than the parser goes (each
        // level may count twice there).
        let deep = nested(open, inner, close, 900);
        assert!(
            matches!(
                format(deep),
                Err(NotFormatted::TooDeep | NotFormatted::SyntaxErrors { .. })
            ),
            "{open} 900 deep"
        );
    }
    // Calls nest two nodes a level: past the formatter's limit, the parser's
    // not yet.
    let calls = nested("f(", "1", ")", 240);
    assert!(matches!(format(calls), Err(NotFormatted::TooDeep)));
    // Past the parser's own limit the text does not parse.
    let deeper = nested("[", "1", "]", 5000);
    assert!(matches!(
        format(deeper),
        Err(NotFormatted::SyntaxErrors { .. })
    ));
}

#[test]
fn long_chains_format_without_recursion() {
    let sum = format!("$x = {}1\n", "1 + ".repeat(1500));
    let formatted = format(sum).unwrap();
    assert!(formatted.lines().count() > 10, "broken over lines");
    let arrows = format!("{}Notify['z']\n", "Notify['a'] -> ".repeat(1500));
    assert!(format(arrows).is_ok());
    let calls = format!("$x = $y{}\n", ".f".repeat(1500));
    assert!(matches!(format(calls), Err(NotFormatted::TooDeep)));
}

#[test]
fn empty_and_comment_only_files() {
    assert_eq!(format(String::new()), Ok(String::new()));
    assert_eq!(format(" \n\n\t\n".into()), Ok(String::new()));
    assert_eq!(
        format("# only\n\n\n# comments  \n".into()),
        Ok("# only\n\n# comments\n".into())
    );
}

/// Puppet-like token soup: more likely to parse than random bytes.
fn soup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "$x",
        " = ",
        "1",
        "'a'",
        "\"b${c}\"",
        "[",
        "]",
        "{",
        "}",
        "(",
        ")",
        ",",
        " => ",
        "file",
        " { ",
        "'t':",
        " ensure => file",
        ";",
        "\n",
        "  ",
        "# c\n",
        "/* d */",
        "if $y ",
        "else ",
        "case $z { ",
        "default: ",
        " -> ",
        "@(E)\nbody\nE\n",
        "notice(",
        "|$v|",
        " + ",
        "-",
        "?",
        "Hash[String, Integer]",
        ".each",
        "include a",
        "\t",
        " # t\n",
        "=>",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        if let Ok(formatted) = format(text) {
            prop_assert_eq!(format(formatted.clone()), Ok(formatted));
        }
    }

    #[test]
    fn token_soup_formats_to_the_same_program_or_not_at_all(text in soup()) {
        if let Ok(formatted) = format(text.clone()) {
            prop_assert!(puppet_format::same_program(&text, &formatted, SourceKind::Manifest).is_ok());
        }
    }

    #[test]
    fn editor_requests_never_panic(text in soup(), a in 0usize..400, b in 0usize..400, comma in any::<bool>()) {
        let len = text.len();
        let clamp = |n: usize| {
            let mut n = n.min(len);
            while !text.is_char_boundary(n) {
                n -= 1;
            }
            TextSize::from(n as u32)
        };
        let (start, end) = (clamp(a.min(b)), clamp(a.max(b)));
        let options = FormatOptions::default();
        let _ = format_range(&text, SourceKind::Manifest, TextRange::new(start, end), &options);
        let typed = if comma { Typed::Comma } else { Typed::Newline };
        let _ = format_on_type(&text, SourceKind::Manifest, end, typed, &options);
        let past_the_end = TextSize::from((len + a) as u32);
        let _ = format_on_type(&text, SourceKind::Manifest, past_the_end, typed, &options);
        let _ = format_range(&text, SourceKind::Manifest, TextRange::new(end, past_the_end), &options);
    }
}

#[test]
fn windows_line_breaks_become_unix_ones_outside_verbatim_text() {
    let text = "class a {\r\n  $x = @(EOT)\r\n    body\r\n    | EOT\r\n  $y  =  'z' # c\r\n}\r\n";
    let formatted = format(text.into()).unwrap();
    assert_eq!(
        formatted,
        "class a {\n  $x = @(EOT)\n    body\r\n    | EOT\n  $y = 'z' # c\n}\n"
    );
    assert_eq!(format(formatted.clone()), Ok(formatted));
}

#[test]
fn a_heredoc_last_in_a_file_without_a_final_line_break() {
    let formatted = format("$x = @(EOT)\nbody\nEOT".into()).unwrap();
    assert_eq!(formatted, "$x = @(EOT)\nbody\nEOT\n");
}
