//! Every check on small fixtures (`test_data/fixtures/checks/*.pp`), each
//! with cases that must warn and cases that must not:
//!
//! - the diagnostics and the text after applying every fix are snapshots
//!   (`*.expected`; regenerate with `UPDATE_EXPECT=1`);
//! - the lines puppet-ls reports are puppet-lint 3.0.1's
//!   (`test_data/fixtures/puppet-lint-3.tsv`, recorded by
//!   `tools/lint_oracle.rb`), except the differences a fixture declares in
//!   `# differs from puppet-lint 3: CHECK LINE ...` comments;
//! - each fix, applied alone, removes its diagnostic, adds no syntax
//!   error, and keeps what the code means (the same tokens, strings
//!   compared by value), except for the fixes whose purpose is to change
//!   a value's spelling, which the snapshots show.

use puppet_lint_checks::{
    line_column, lint_path, LintConfig, LintDiagnostic, SourceKind, TextEdit, CHECKS,
};
use puppet_syntax::ast::{AstNode, DqStringExpr, SqStringExpr, StringPart};
use puppet_syntax::{SyntaxKind, SyntaxNode};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const RECORDED: &str = include_str!("../test_data/fixtures/puppet-lint-3.tsv");

/// Fixes that rewrite a value on purpose: `ensure => '/x'` into `link` and
/// a target, `644` into `'0644'`, `// x` into a comment.
const VALUE_CHANGING_FIXES: &[&str] = &[
    "ensure_not_symlink_target",
    "file_mode",
    "unquoted_file_mode",
    "slash_comments",
];

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/fixtures")
}

fn recorded() -> BTreeMap<String, BTreeSet<(String, u32)>> {
    let mut files: BTreeMap<String, BTreeSet<(String, u32)>> = BTreeMap::new();
    let mut current = String::new();
    for row in RECORDED.lines().filter(|l| !l.starts_with('#')) {
        if let Some(path) = row.strip_prefix('=') {
            current = path.to_string();
            files.entry(current.clone()).or_default();
            continue;
        }
        let fields: Vec<&str> = row.split('\t').collect();
        let line = fields[1].parse().expect("a line number");
        files
            .entry(current.clone())
            .or_default()
            .insert((fields[0].to_string(), line));
    }
    files
}

/// `# differs from puppet-lint 3: CHECK LINE (why)` declarations.
fn declared_differences(text: &str) -> BTreeSet<(String, u32)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("# differs from puppet-lint 3: "))
        .map(|rest| {
            let mut words = rest.split_whitespace();
            let check = words.next().expect("a check name").to_string();
            let line = words
                .next()
                .and_then(|w| w.parse().ok())
                .expect("a line number");
            (check, line)
        })
        .collect()
}

fn lint(path: &Path, text: &str) -> Vec<LintDiagnostic> {
    lint_path(path, text, SourceKind::Manifest, &LintConfig::all_enabled())
}

fn apply(text: &str, edits: &[&TextEdit]) -> String {
    let mut edits: Vec<&TextEdit> = edits.to_vec();
    edits.sort_by_key(|e| std::cmp::Reverse(e.delete.start()));
    let mut out = text.to_string();
    let mut last_start = None;
    for edit in edits {
        // Edits of different diagnostics may touch the same blanks: keep
        // the first (in text order from the end) and skip overlapping ones.
        if last_start.is_some_and(|start| edit.delete.end() > start) {
            continue;
        }
        out.replace_range(std::ops::Range::<usize>::from(edit.delete), &edit.insert);
        last_start = Some(edit.delete.start());
    }
    out
}

fn render(text: &str, diagnostics: &[LintDiagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let (line, column) = line_column(text, d.range.start());
        let fix = d
            .fix
            .as_ref()
            .map_or(String::new(), |f| format!(" [fix: {}]", f.label));
        out.push_str(&format!(
            "{line}:{column} {} {}: {}{fix}\n",
            d.check,
            d.severity.as_str(),
            d.message
        ));
    }
    out
}

/// What the code means, as far as fixes are concerned: its significant
/// tokens, with strings, bare-word titles and host names by value and
/// `"$x"` the same as `"${x}"`.
fn meaning(text: &str) -> Vec<String> {
    let root = puppet_syntax::parse(text, SourceKind::Manifest).syntax_node();
    let mut out = Vec::new();
    walk_meaning(&root, &mut out);
    out
}

fn walk_meaning(node: &SyntaxNode, out: &mut Vec<String>) {
    for element in node.children_with_tokens() {
        match element {
            puppet_syntax::NodeOrToken::Node(child) => match child.kind() {
                SyntaxKind::SQ_STRING_EXPR => out.push(format!(
                    "string {:?}",
                    SqStringExpr::cast(child).expect("a string").value()
                )),
                SyntaxKind::DQ_STRING_EXPR => {
                    for part in DqStringExpr::cast(child).expect("a string").parts() {
                        match part {
                            StringPart::Text(t) => out.push(format!("string {t:?}")),
                            StringPart::Interpolation(i) => {
                                let mut inner = Vec::new();
                                walk_meaning(i.syntax(), &mut inner);
                                let inner: Vec<String> = inner
                                    .into_iter()
                                    .map(|t| t.replace("VARIABLE $", "NAME "))
                                    .collect();
                                out.push(format!("interpolation {}", inner.join(" ")));
                            }
                        }
                    }
                }
                SyntaxKind::HOSTNAME => out.push(format!("string {:?}", child.text().to_string())),
                SyntaxKind::QUALIFIED_NAME | SyntaxKind::BARE_WORD
                    if child.parent().is_some_and(|p| {
                        p.kind() == SyntaxKind::RESOURCE_BODY || p.kind() == SyntaxKind::ARRAY_EXPR
                    }) =>
                {
                    out.push(format!("string {:?}", child.text().to_string()))
                }
                _ => walk_meaning(&child, out),
            },
            puppet_syntax::NodeOrToken::Token(token) => {
                if !token.kind().is_trivia()
                    && !matches!(
                        token.kind(),
                        SyntaxKind::DOLLAR_BRACE | SyntaxKind::INTERP_CLOSE
                    )
                {
                    out.push(format!("{:?} {}", token.kind(), token.text()));
                }
            }
        }
    }
}

fn syntax_errors(text: &str) -> usize {
    puppet_syntax::parse(text, SourceKind::Manifest)
        .errors()
        .len()
}

#[test]
fn fixtures() {
    let recorded = recorded();
    let puppet_lint_3: BTreeSet<&str> = CHECKS
        .iter()
        .filter(|c| c.since == 3)
        .map(|c| c.name)
        .collect();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixtures_dir().join("checks"))
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
        .collect();
    paths.sort();
    let mut disagreements = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("fixture text");
        let relative = path
            .strip_prefix(fixtures_dir())
            .expect("under fixtures")
            .to_string_lossy()
            .to_string();
        let diagnostics = lint(path, &text);

        // puppet-lint's lines.
        let ours: BTreeSet<(String, u32)> = diagnostics
            .iter()
            .filter(|d| puppet_lint_3.contains(d.check))
            .map(|d| (d.check.to_string(), line_column(&text, d.range.start()).0))
            .collect();
        let theirs = recorded.get(&relative).cloned().unwrap_or_default();
        let declared = declared_differences(&text);
        let differing: BTreeSet<_> = ours.symmetric_difference(&theirs).cloned().collect();
        if differing != declared {
            disagreements.push(format!(
                "{relative}: differs from puppet-lint 3 at {:?}, declared {:?}",
                differing, declared
            ));
        }

        // Each fix alone.
        for d in diagnostics.iter().filter(|d| d.fix.is_some()) {
            let fix = d.fix.as_ref().expect("a fix");
            let fixed = apply(&text, &fix.edits.iter().collect::<Vec<_>>());
            let (line, _) = line_column(&text, d.range.start());
            let still_there = lint(path, &fixed)
                .iter()
                .filter(|after| after.check == d.check)
                .count()
                >= diagnostics
                    .iter()
                    .filter(|before| before.check == d.check)
                    .count();
            assert!(
                !still_there,
                "{relative}:{line}: the {} fix leaves the problem:\n{fixed}",
                d.check
            );
            assert!(
                syntax_errors(&fixed) <= syntax_errors(&text),
                "{relative}:{line}: the {} fix adds a syntax error:\n{fixed}",
                d.check
            );
            let reordered = d.check == "ensure_first_param";
            if !VALUE_CHANGING_FIXES.contains(&d.check) {
                let (mut before, mut after) = (meaning(&text), meaning(&fixed));
                if reordered {
                    before.sort();
                    after.sort();
                }
                assert_eq!(
                    before, after,
                    "{relative}:{line}: the {} fix changes the meaning:\n{fixed}",
                    d.check
                );
            }
        }

        // Snapshot: diagnostics, then the text with every fix applied.
        let all_edits: Vec<&TextEdit> = diagnostics
            .iter()
            .filter_map(|d| d.fix.as_ref())
            .flat_map(|f| &f.edits)
            .collect();
        let fixed = apply(&text, &all_edits);
        let snapshot = format!(
            "{}\n-- after every fix --\n{fixed}",
            render(&text, &diagnostics)
        );
        expect_test::expect_file![path.with_extension("expected")].assert_eq(&snapshot);
    }
    assert!(paths.len() >= 10, "fixtures missing");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
