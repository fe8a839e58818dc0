//! The `lint:ignore` quick fix on real code: on every fourth file of the
//! mutated corpus, for the first finding of each check, the control comment the
//! fix adds silences that finding (on its line), adds no syntax error and
//! keeps what the code means; and the fix's forms on small examples.
//!
//! Needs the corpus installed, like `parity.rs`.

mod common;
mod corpus;
mod mutations;

use common::{apply, meaning, syntax_errors};
use expect_test::expect;
use puppet_lint_checks::{ignore_on_line, line_column, lint_path, LintConfig, SourceKind};
use std::collections::BTreeSet;
use std::path::Path;

fn with_ignore(text: &str, check: &str, offset: u32) -> String {
    let root = puppet_syntax::parse(text, SourceKind::Manifest).syntax_node();
    match ignore_on_line(&root, check, offset.into()) {
        Some(edits) => apply(text, &edits.iter().collect::<Vec<_>>()),
        None => "(none)".to_string(),
    }
}

#[test]
fn the_forms_of_the_fix() {
    let cases = [
        ("$a = \"x\"\n", "double_quoted_strings", 5),
        ("$a = \"x\" # why\n", "double_quoted_strings", 5),
        (
            "$a = \"x\" # lint:ignore:140chars why\n",
            "double_quoted_strings",
            5,
        ),
        (
            "$a = \"x\" #lint:ignore:140chars\n",
            "double_quoted_strings",
            5,
        ),
        ("$a = \"x\n  y\"\nnotice($a)\n", "double_quoted_strings", 5),
        ("$a = 'x\n  y'\n", "x", 12),
        ("$a = @(END)\n  t\n  | END\n", "x", 23),
        ("$a = @(END)\n  t\n  | END\n", "x", 13),
        ("class a {\n  # a comment\n}\n", "80chars", 14),
        ("$a = \"x ${b}\n  y\"\n", "x", 9),
    ];
    let out: Vec<String> = cases
        .iter()
        .map(|(text, check, offset)| with_ignore(text, check, *offset))
        .collect();
    expect![[r#"
        $a = "x" # lint:ignore:double_quoted_strings
        --
        $a = "x" # lint:ignore:double_quoted_strings why
        --
        $a = "x" # lint:ignore:140chars lint:ignore:double_quoted_strings why
        --
        $a = "x" #lint:ignore:140chars lint:ignore:double_quoted_strings
        --
        (none)--
        $a = 'x
          y' # lint:ignore:x
        --
        (none)--
        (none)--
        class a {
          # lint:ignore:80chars
          # a comment
          # lint:endignore
        }
        --
        (none)"#]]
    .assert_eq(&out.join("--\n"));
}

#[test]
fn the_fix_silences_each_finding_on_the_mutated_corpus() {
    if !corpus::installed() {
        return;
    }
    let config = LintConfig::all_enabled();
    let paths = corpus::manifests(Path::new(corpus::ROOT));
    assert!(paths.len() > 1900, "corpus incomplete");
    let (mut silenced, mut refused) = (0, 0);
    let mut failures = Vec::new();
    // Every fourth file: enough findings of every kind, in a quarter of the time.
    for path in paths.iter().step_by(4) {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let text = mutations::mutate(&String::from_utf8_lossy(&bytes));
        let root = puppet_syntax::parse(&text, SourceKind::Manifest).syntax_node();
        let found = lint_path(path, &text, SourceKind::Manifest, &config);
        let mut seen = BTreeSet::new();
        for d in found.iter().filter(|d| seen.insert(d.check)) {
            let Some(edits) = ignore_on_line(&root, d.check, d.range.start()) else {
                refused += 1;
                continue;
            };
            let fixed = apply(&text, &edits.iter().collect::<Vec<_>>());
            // A comment-only line moves down by the block's first line.
            let moved = u32::from(edits.len() == 2);
            let line = line_column(&text, d.range.start()).0;
            let place = format!("{}:{line}: {}", path.display(), d.check);
            let mut only_this = LintConfig::default();
            only_this.only([d.check]);
            let after = lint_path(path, &fixed, SourceKind::Manifest, &only_this);
            if after
                .iter()
                .any(|a| line_column(&fixed, a.range.start()).0 == line + moved)
            {
                let shown: Vec<&str> = fixed.lines().skip(line as usize - 1).take(3).collect();
                failures.push(format!("{place}: still reported on its line: {shown:?}"));
            }
            if syntax_errors(&fixed) > syntax_errors(&text) {
                failures.push(format!("{place}: the comment adds a syntax error"));
            }
            if meaning(&fixed) != meaning(&text) {
                failures.push(format!("{place}: the comment changes the meaning"));
            }
            silenced += 1;
        }
    }
    println!("lint:ignore fixes: {silenced} silenced, {refused} lines where no comment fits");
    assert!(
        silenced > 1000,
        "too few findings to mean anything: {silenced}"
    );
    assert!(
        refused * 20 < silenced,
        "too many refused: {refused} of {}",
        silenced + refused
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
