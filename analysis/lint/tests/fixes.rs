//! Fixes on real code: on every file of the mutated corpus (the corpus made
//! to show the problems it is too clean to show, `mutations/mod.rs`), the
//! fixes of each check applied together remove that check's fixable
//! problems, add no syntax error, and keep what the code means (the same
//! tokens, strings compared by value); fixes that rewrite a value on
//! purpose are applied but their meaning is not compared.
//!
//! Needs the corpus installed, like `parity.rs`.

mod common;
mod corpus;
mod mutations;

use common::{apply, meaning, syntax_errors, VALUE_CHANGING_FIXES};
use puppet_lint_checks::{lint_path, LintConfig, LintDiagnostic, SourceKind, CHECKS};
use std::collections::BTreeMap;
use std::path::Path;

fn fixable_count(diagnostics: &[LintDiagnostic], check: &str) -> usize {
    diagnostics
        .iter()
        .filter(|d| d.check == check && d.fix.is_some())
        .count()
}

#[test]
fn fixes_on_the_mutated_corpus_resolve_problems_and_keep_the_meaning() {
    if !corpus::installed() {
        return;
    }
    let config = LintConfig::all_enabled();
    let paths = corpus::manifests(Path::new(corpus::ROOT));
    assert!(paths.len() > 1900, "corpus incomplete");
    let mut applied: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let text = mutations::mutate(&String::from_utf8_lossy(&bytes));
        let diagnostics = lint_path(path, &text, SourceKind::Manifest, &config);
        let (errors_before, meaning_before) = (syntax_errors(&text), meaning(&text));
        for check in CHECKS.iter().filter(|c| c.fixable).map(|c| c.name) {
            let edits: Vec<_> = diagnostics
                .iter()
                .filter(|d| d.check == check)
                .filter_map(|d| d.fix.as_ref())
                .flat_map(|f| &f.edits)
                .collect();
            if edits.is_empty() {
                continue;
            }
            *applied.entry(check).or_default() += fixable_count(&diagnostics, check);
            let fixed = apply(&text, &edits);
            let mut only_this = LintConfig::default();
            only_this.only([check]);
            let after = lint_path(path, &fixed, SourceKind::Manifest, &only_this);
            let place = format!("{}: {check}", path.display());
            if fixable_count(&after, check) >= fixable_count(&diagnostics, check) {
                failures.push(format!("{place}: the fixes leave their problems"));
            }
            if syntax_errors(&fixed) > errors_before {
                failures.push(format!("{place}: the fixes add a syntax error"));
            }
            if VALUE_CHANGING_FIXES.contains(&check) {
                continue;
            }
            let (mut before, mut after) = (meaning_before.clone(), meaning(&fixed));
            if check == "ensure_first_param" {
                // Attributes change order, not content.
                before.sort();
                after.sort();
            }
            if before != after {
                failures.push(format!("{place}: the fixes change the meaning"));
            }
        }
    }
    println!("fixes applied on the mutated corpus: {applied:?}");
    for check in [
        "double_quoted_strings",
        "unquoted_resource_title",
        "hard_tabs",
        "trailing_whitespace",
        "arrow_alignment",
    ] {
        assert!(
            applied.get(check).is_some_and(|n| *n > 100),
            "too few {check} fixes to mean anything"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
