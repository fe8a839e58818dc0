//! Parity with puppet-lint 3.0.1 on the real-world corpus (Debian's Puppet
//! modules): the same warnings at the same lines, per check, at least 95%
//! in both directions. puppet-lint's answers are recorded in
//! `test_data/puppet-lint-3-corpus.tsv` (by `tools/lint_oracle.rb`); no
//! test runs puppet-lint.
//!
//! Where puppet-ls differs on purpose (docs/lint.md, "Deliberate
//! differences"), `deliberate::explain` names the difference for each line
//! it accounts for; those lines are counted apart, not against the figures.
//!
//! The corpus is mostly clean for a dozen checks; the same comparison on
//! the corpus mutated by `mutations::mutate` (answers in
//! `test_data/puppet-lint-3-mutated.tsv`) measures those too.
//!
//! Needs the corpus installed (`.ci/run` installs it; on CI a missing corpus
//! fails the test). Print the figures with
//! `cargo test -p puppet-lint-checks --test parity -- --nocapture`.

mod corpus;
mod deliberate;
mod mutations;

use puppet_lint_checks::{line_column, lint_path, LintConfig, SourceKind, CHECKS};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const RECORDED: &str = include_str!("../test_data/puppet-lint-3-corpus.tsv");
const RECORDED_MUTATED: &str = include_str!("../test_data/puppet-lint-3-mutated.tsv");
const RECORDED_4: &str = include_str!("../test_data/puppet-lint-4-corpus.tsv");

/// puppet-lint's (check, line) answers per file.
fn recorded(table: &'static str) -> BTreeMap<&'static str, BTreeSet<(&'static str, u32)>> {
    let mut files: BTreeMap<&str, BTreeSet<(&str, u32)>> = BTreeMap::new();
    let mut current = None;
    for row in table.lines().filter(|l| !l.starts_with('#')) {
        if let Some(path) = row.strip_prefix('=') {
            files.entry(path).or_default();
            current = Some(path);
            continue;
        }
        let mut fields = row.split('\t');
        let (Some(check), Some(line), Some(path)) = (fields.next(), fields.next(), current) else {
            panic!("malformed row: {row:?}");
        };
        let line = line.parse().expect("a line number");
        files.entry(path).or_default().insert((check, line));
    }
    files
}

#[derive(Default)]
struct Figures {
    theirs: usize,
    ours: usize,
    both: usize,
    /// Lines only puppet-lint reports, explained by a deliberate difference.
    deliberate_missing: BTreeMap<&'static str, usize>,
    /// Lines only puppet-ls reports, explained by a deliberate difference.
    deliberate_extra: BTreeMap<&'static str, usize>,
    unexplained_missing: Vec<String>,
    unexplained_extra: Vec<String>,
}

impl Figures {
    /// Agreement among the lines puppet-lint reports, deliberate
    /// differences set apart.
    fn recall(&self) -> f64 {
        let missing = self.unexplained_missing.len();
        ratio(self.both, self.both + missing)
    }

    fn precision(&self) -> f64 {
        let extra = self.unexplained_extra.len();
        ratio(self.both, self.both + extra)
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

#[test]
fn lint_agrees_with_puppet_lint_3_on_the_corpus() {
    if corpus::installed() {
        compare(3, "the corpus", RECORDED, |text| text.to_string());
    }
}

/// puppet-lint 4's new checks against puppet-lint 4.3.0 (run from its
/// source; answers for those checks only).
#[test]
fn new_checks_agree_with_puppet_lint_4_on_the_corpus() {
    if corpus::installed() {
        compare(4, "the corpus", RECORDED_4, |text| text.to_string());
    }
}

/// The same on the corpus mutated to show what it is too clean to show
/// (`tests/mutations/mod.rs`): quoted titles and modes, tabs, `<-`, ...
#[test]
fn lint_agrees_with_puppet_lint_3_on_the_mutated_corpus() {
    if corpus::installed() {
        compare(3, "the mutated corpus", RECORDED_MUTATED, mutations::mutate);
    }
}

/// Lints every recorded file (its text made by `prepare` from the corpus
/// file's), compares with puppet-lint's lines for the checks that came with
/// puppet-lint `version`, prints the figures and asserts them.
fn compare(version: u8, name: &str, recorded_text: &'static str, prepare: fn(&str) -> String) {
    let config = LintConfig::all_enabled();
    let compared: BTreeSet<&str> = CHECKS
        .iter()
        .filter(|c| c.since == version)
        .map(|c| c.name)
        .collect();
    let mut figures: BTreeMap<&str, Figures> = compared
        .iter()
        .map(|name| (*name, Figures::default()))
        .collect();
    let recorded = recorded(recorded_text);
    assert!(recorded.len() > 1900, "the recorded answers are incomplete");
    let mut missing_files = Vec::new();
    for (path, theirs) in &recorded {
        let full_path = Path::new(corpus::ROOT).join(path);
        let Ok(bytes) = std::fs::read(&full_path) else {
            missing_files.push(*path);
            continue;
        };
        let text = prepare(&String::from_utf8_lossy(&bytes));
        if theirs
            .iter()
            .any(|(check, _)| matches!(*check, "syntax" | "crash"))
        {
            continue;
        }
        let ours: BTreeSet<(&str, u32)> =
            lint_path(&full_path, &text, SourceKind::Manifest, &config)
                .iter()
                .filter(|d| compared.contains(d.check))
                .map(|d| (d.check, line_column(&text, d.range.start()).0))
                .collect();
        for &(check, line) in theirs.union(&ours) {
            let entry = figures.get_mut(check).expect("a compared check");
            let (in_theirs, in_ours) = (
                theirs.contains(&(check, line)),
                ours.contains(&(check, line)),
            );
            entry.theirs += usize::from(in_theirs);
            entry.ours += usize::from(in_ours);
            let side = match (in_theirs, in_ours) {
                (true, true) => {
                    entry.both += 1;
                    continue;
                }
                (true, false) => deliberate::Side::OnlyPuppetLint,
                _ => deliberate::Side::OnlyPuppetLs,
            };
            let explained = deliberate::explain(check, &text, line, side);
            let location = format!("{path}:{line}");
            match (side, explained) {
                (deliberate::Side::OnlyPuppetLint, Some(why)) => {
                    *entry.deliberate_missing.entry(why).or_default() += 1
                }
                (deliberate::Side::OnlyPuppetLs, Some(why)) => {
                    *entry.deliberate_extra.entry(why).or_default() += 1
                }
                (deliberate::Side::OnlyPuppetLint, None) => {
                    entry.unexplained_missing.push(location)
                }
                (deliberate::Side::OnlyPuppetLs, None) => entry.unexplained_extra.push(location),
            }
        }
    }
    // One print, so that the two tests' tables do not interleave.
    let release = if version == 3 { "3.0.1" } else { "4.3.0" };
    let mut report = format!("Parity with puppet-lint {release} on {name}:\n\n");
    assert!(
        missing_files.len() < 20,
        "corpus files missing: {missing_files:?}"
    );

    report.push_str(&format!("| check | puppet-lint {version} | puppet-ls | same lines | recall | precision | deliberate differences |\n"));
    report.push_str("| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
    let mut failures = Vec::new();
    for (check, f) in &figures {
        let deliberate: Vec<String> = f
            .deliberate_missing
            .iter()
            .map(|(why, n)| format!("{n} only puppet-lint: {why}"))
            .chain(
                f.deliberate_extra
                    .iter()
                    .map(|(why, n)| format!("{n} only puppet-ls: {why}")),
            )
            .collect();
        report.push_str(&format!(
            "| `{check}` | {} | {} | {} | {:.1}% | {:.1}% | {} |\n",
            f.theirs,
            f.ours,
            f.both,
            100.0 * f.recall(),
            100.0 * f.precision(),
            deliberate.join("; ")
        ));
        if std::env::var_os("LINT_PARITY_ALL").is_some()
            || f.recall() < 0.95
            || f.precision() < 0.95
        {
            let sample: Vec<_> = f
                .unexplained_missing
                .iter()
                .map(|l| format!("only puppet-lint {l}"))
                .chain(
                    f.unexplained_extra
                        .iter()
                        .map(|l| format!("only puppet-ls {l}")),
                )
                .take(40)
                .collect();
            failures.push(format!("{check}: {}", sample.join(", ")));
        }
    }
    println!("{report}");
    assert!(
        failures.is_empty(),
        "below 95% (or listed with LINT_PARITY_ALL):\n{}",
        failures.join("\n")
    );
}
