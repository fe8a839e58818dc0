//! `check --statistics`, and the upgrade report: the problems grouped by
//! code, most errors first, with how many `check --fix` rewrites. Checking a
//! code base that targets Puppet 7 with `--puppet-version 8` prints it
//! unasked: it is the list of what will fail on Puppet 8.

use super::problems::{Level, Problem};
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Default)]
struct Counts {
    errors: usize,
    warnings: usize,
    notes: usize,
    fixable: usize,
}

/// The table, one line per code: `code  errors  warnings  notes  fixable`.
pub fn table(problems: &[Problem]) -> String {
    let mut by_code: BTreeMap<&str, Counts> = BTreeMap::new();
    for problem in problems {
        let counts = by_code.entry(problem.code.as_str()).or_default();
        match problem.severity {
            Level::Error => counts.errors += 1,
            Level::Warning => counts.warnings += 1,
            Level::Info => counts.notes += 1,
        }
        counts.fixable += usize::from(problem.fix.is_some());
    }
    let mut rows: Vec<(&str, Counts)> = by_code.into_iter().collect();
    rows.sort_by(|(a, x), (b, y)| {
        (y.errors, y.warnings, y.notes)
            .cmp(&(x.errors, x.warnings, x.notes))
            .then(a.cmp(b))
    });
    let width = rows
        .iter()
        .map(|(code, _)| code.len())
        .chain(["code".len()])
        .max()
        .unwrap_or(4);
    let mut out = format!(
        "{:width$}  {:>6}  {:>8}  {:>5}  {:>7}\n",
        "code", "errors", "warnings", "notes", "fixable"
    );
    for (code, c) in &rows {
        let _ = writeln!(
            out,
            "{code:width$}  {:>6}  {:>8}  {:>5}  {:>7}",
            c.errors, c.warnings, c.notes, c.fixable
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::problems::ProblemCode;
    use puppet_syntax::Code;

    fn problem(code: Code, severity: Level, fix: bool) -> Problem {
        Problem {
            path: "x.pp".into(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 2,
            severity,
            code: ProblemCode::Analysis(code),
            message: String::new(),
            source_line: String::new(),
            fix: fix.then(|| "fix".to_string()),
        }
    }

    #[test]
    fn codes_are_grouped_with_most_errors_first() {
        let problems = [
            problem(Code::UnknownVariable, Level::Warning, false),
            problem(Code::LegacyFact, Level::Error, true),
            problem(Code::LegacyFact, Level::Error, false),
            problem(Code::UnknownVariable, Level::Error, false),
        ];
        expect_test::expect![[r#"
            code              errors  warnings  notes  fixable
            legacy-fact            2         0      0        1
            unknown-variable       1         1      0        0
        "#]]
        .assert_eq(&table(&problems));
    }
}
