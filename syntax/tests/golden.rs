//! Data-driven golden tests for the lexer and the parser.
//!
//! Every input under `test_data/` has a snapshot next to it:
//!
//! * `parser/ok/*.pp|*.epp`: valid Puppet; the snapshot (`.rast`) is the
//!   tree, and the input must parse without any error.
//! * `parser/err/*.pp|*.epp`: invalid Puppet; the snapshot is the tree and
//!   the errors, and there must be at least one error.
//! * `lexer/*.pp|*.epp`: the token list (`.tokens`) with the lexer's errors.
//!
//! Every tree must also give the input back. Run with `UPDATE_EXPECT=1` to
//! (re)write the snapshots; without it a mismatch fails with a diff.

use puppet_syntax::{lex, parse, SourceKind, SyntaxError};
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn test_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")
}

/// The `.pp` and `.epp` inputs of a directory, sorted by name.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("pp" | "epp")
            )
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs in {}", dir.display());
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Appends the errors after a blank line, one per line.
fn render_errors(out: &mut String, errors: &[SyntaxError]) {
    if errors.is_empty() {
        return;
    }
    out.push('\n');
    for error in errors {
        let _ = writeln!(
            out,
            "{}@{:?} [{}] {}",
            error.severity.as_str(),
            error.range,
            error.code,
            error.message
        );
    }
}

/// Compares `actual` with the snapshot at `path`, or rewrites it when
/// `UPDATE_EXPECT` is set. Returns a description of the mismatch.
fn check_snapshot(path: &Path, actual: &str) -> Option<String> {
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, actual).unwrap();
        eprintln!("updated {}", path.display());
        return None;
    }
    Some(format!(
        "snapshot mismatch: {} (run with UPDATE_EXPECT=1 to update)\n{}",
        path.display(),
        diff(&expected, actual)
    ))
}

/// A small line diff: the common prefix and suffix are elided, the rest is
/// shown as `-` (expected) and `+` (actual) lines with a little context.
fn diff(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = String::new();
    for line in &old[prefix.saturating_sub(3)..prefix] {
        let _ = writeln!(out, "  {line}");
    }
    for line in &old[prefix..old.len() - suffix] {
        let _ = writeln!(out, "- {line}");
    }
    for line in &new[prefix..new.len() - suffix] {
        let _ = writeln!(out, "+ {line}");
    }
    for line in old[old.len() - suffix..].iter().take(3) {
        let _ = writeln!(out, "  {line}");
    }
    out
}

/// Parses one input and checks it; returns the problems found.
fn parser_case(path: &Path, expect_errors: bool) -> Vec<String> {
    let text = read(path);
    let parse = parse(&text, SourceKind::from_path(path));
    let mut problems = Vec::new();
    if parse.syntax_node().text().to_string() != text {
        problems.push(format!(
            "{}: the tree text differs from the input",
            path.display()
        ));
    }
    let errors = parse.errors();
    if expect_errors && errors.is_empty() {
        problems.push(format!(
            "{}: expected at least one error, got none",
            path.display()
        ));
    }
    if !expect_errors && !errors.is_empty() {
        let listed: Vec<String> = errors
            .iter()
            .map(|e| format!("  {:?} {}", e.range, e.message))
            .collect();
        problems.push(format!(
            "{}: expected no errors, got:\n{}",
            path.display(),
            listed.join("\n")
        ));
    }
    let mut snapshot = parse.debug_tree();
    render_errors(&mut snapshot, errors);
    problems.extend(check_snapshot(&path.with_extension("rast"), &snapshot));
    problems
}

/// Lexes one input and checks it; returns the problems found.
fn lexer_case(path: &Path) -> Vec<String> {
    let text = read(path);
    let lexed = lex(&text, SourceKind::from_path(path));
    let mut snapshot = String::new();
    let mut offset = 0usize;
    for token in &lexed.tokens {
        let end = offset + token.len as usize;
        let token_text = text.get(offset..end).unwrap_or("<not on a char boundary>");
        let _ = writeln!(snapshot, "{:?}@{offset}..{end} {token_text:?}", token.kind);
        offset = end;
    }
    let mut problems = Vec::new();
    if offset != text.len() {
        problems.push(format!(
            "{}: the tokens cover {offset} of {} bytes",
            path.display(),
            text.len()
        ));
    }
    render_errors(&mut snapshot, &lexed.errors);
    problems.extend(check_snapshot(&path.with_extension("tokens"), &snapshot));
    problems
}

fn report(problems: Vec<String>) {
    assert!(
        problems.is_empty(),
        "{} golden problem(s):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
fn parser_ok() {
    let dir = test_data().join("parser/ok");
    report(
        inputs(&dir)
            .iter()
            .flat_map(|p| parser_case(p, false))
            .collect(),
    );
}

#[test]
fn parser_err() {
    let dir = test_data().join("parser/err");
    report(
        inputs(&dir)
            .iter()
            .flat_map(|p| parser_case(p, true))
            .collect(),
    );
}

#[test]
fn lexer() {
    let dir = test_data().join("lexer");
    report(inputs(&dir).iter().flat_map(|p| lexer_case(p)).collect());
}
