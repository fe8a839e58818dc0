//! Real-world corpus conformance: every file Debian's Puppet modules ship,
//! parsed and validated, compared with Puppet 7.23's own verdict.
//!
//! Needs the corpus installed (`bash ../shared/corpus/install-corpus.sh`,
//! which `.ci/run` does); without it the test says it was skipped.

use puppet_ls_tests::{corpus_installed, verdicts};
use puppet_syntax::{parse_and_validate, Severity, SourceKind};
use std::path::Path;

#[test]
fn corpus_agrees_with_puppet() {
    if !corpus_installed() {
        eprintln!("SKIPPED: the real-world corpus is not installed (run ../shared/corpus/install-corpus.sh)");
        return;
    }
    let verdicts = verdicts();
    assert!(verdicts.len() > 2000, "verdict table is incomplete");
    let mut agree = 0usize;
    let mut missing = Vec::new();
    let mut disagreements = Vec::new();
    for verdict in &verdicts {
        let path = verdict.full_path();
        let Ok(bytes) = std::fs::read(&path) else {
            missing.push(verdict.path.clone());
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let (parse, problems) =
            parse_and_validate(&text, SourceKind::from_path(Path::new(&verdict.path)));
        assert_eq!(
            parse.syntax_node().text().to_string(),
            text,
            "tree text differs from file text: {}",
            verdict.path
        );
        let errors: Vec<_> = problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .collect();
        let ok = if verdict.accepted() {
            errors.is_empty()
        } else {
            !errors.is_empty()
        };
        if ok {
            agree += 1;
        } else {
            let first = errors.first().map_or("no error".to_string(), |e| {
                format!("{:?} {}", e.range, e.message)
            });
            disagreements.push(format!(
                "{} (Puppet: {}) ours: {first}",
                verdict.path, verdict.verdict
            ));
        }
    }
    let checked = verdicts.len() - missing.len();
    println!(
        "corpus: {agree}/{checked} files agree with Puppet 7.23 ({:.2}%); {} not installed",
        100.0 * agree as f64 / checked.max(1) as f64,
        missing.len()
    );
    assert!(
        missing.len() < 20,
        "too many corpus files missing: {:?}",
        &missing[..missing.len().min(10)]
    );
    assert!(
        disagreements.is_empty(),
        "disagreements:\n{}",
        disagreements.join("\n")
    );
}
