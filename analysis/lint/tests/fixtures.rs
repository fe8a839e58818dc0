//! Every check on small fixtures (`test_data/fixtures/checks/*.pp`), each
//! with cases that must warn and cases that must not:
//!
//! - the diagnostics and the text after applying every fix are snapshots
//!   (`*.expected`; regenerate with `UPDATE_EXPECT=1`);
//! - the lines puppet-ls reports are puppet-lint 3.0.1's
//!   (`test_data/fixtures/puppet-lint-3.tsv`, recorded by
//!   `tools/lint_oracle.rb`), and for puppet-lint 4's new checks
//!   puppet-lint 4.3.0's (`puppet-lint-4.tsv`), except the differences a
//!   fixture declares in `# differs from puppet-lint 3: CHECK LINE ...`
//!   comments;
//! - each fix, applied alone, removes its diagnostic, adds no syntax
//!   error, and keeps what the code means (the same tokens, strings
//!   compared by value), except for the fixes whose purpose is to change
//!   a value's spelling, which the snapshots show.

use puppet_lint_checks::{
    line_column, lint_path, LintConfig, LintDiagnostic, SourceKind, TextEdit,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const RECORDED_3: &str = include_str!("../test_data/fixtures/puppet-lint-3.tsv");
/// puppet-lint 4's answers for its new checks only.
const RECORDED_4: &str = include_str!("../test_data/fixtures/puppet-lint-4.tsv");

mod common;

use common::{apply, meaning, syntax_errors, VALUE_CHANGING_FIXES};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/fixtures")
}

/// Both tables together: the lines each check should report, per file.
fn recorded() -> BTreeMap<String, BTreeSet<(String, u32)>> {
    let mut files: BTreeMap<String, BTreeSet<(String, u32)>> = BTreeMap::new();
    let mut current = String::new();
    let rows = RECORDED_3.lines().chain(RECORDED_4.lines());
    for row in rows.filter(|l| !l.starts_with('#')) {
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

#[test]
fn fixtures() {
    let recorded = recorded();
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
            .map(|d| (d.check.to_string(), line_column(&text, d.range.start()).0))
            .collect();
        let theirs = recorded.get(&relative).cloned().unwrap_or_default();
        let declared = declared_differences(&text);
        let differing: BTreeSet<_> = ours.symmetric_difference(&theirs).cloned().collect();
        if differing != declared {
            disagreements.push(format!(
                "{relative}: differs from puppet-lint at {:?}, declared {:?}",
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
