//! Runs every case of the conformance data (Puppet 7.23's own results)
//! through `puppet_analysis::eval::record::eval_case_as` as Puppet 7 (the
//! function behind `puppet-ls eval --jsonl`), and compares value, type and
//! error-or-not.
//!
//! Data files, all in `test_data/`:
//!
//! - `eval.jsonl`: the shared conformance data set;
//! - `eval_extra.jsonl`: further cases answered by the same Puppet oracle
//!   (`eval_oracle.rb --extra`): `tail-*` for corners the shared set leaves
//!   out (block arities, formats, strftime flags, SemVerRange bounds, alias
//!   iteration and redefinition, hash patterns...), `mut-*` for variants of
//!   shared cases with other numbers. Cases where Puppet prints an internal
//!   object dump are left out, as in the shared set.
//!
//! Field meanings (from the data set's README):
//!
//! | field | meaning |
//! | --- | --- |
//! | `id` | stable case id, `<category>-<number>` |
//! | `expr` | Puppet source; may hold several statements; the last expression's value is the result |
//! | `value` | the result as Puppet's `String($v, '%p')` prints it; `null` on error |
//! | `type` | the result's inferred type as Puppet's `type($v)` prints it; `null` on error |
//! | `generalized` | `type($v, generalized)`, for information |
//! | `error` | `null`, or Puppet's first error message. Messages are informative only: an implementation must report an error for these cases, in its own words |
//! | `warnings` | warnings Puppet logged while evaluating (string-to-number coercion, unknown variable...) |
//!
//! Cases were evaluated as the body of `puppet apply -e '<expr>'` with default
//! settings (strict variables off, no facts), by Puppet 7.23: they are
//! evaluated here as Puppet 7 (`strict = warning`), whatever the default
//! target. `tests/targets.rs` holds cases whose answers differ between
//! Puppet 7 and 8.
//!
//! Each case has its own recorded outcome in `test_data/eval.expect`
//! (`<id> pass`, or `<id> <kind>` for a known difference), so a regression of
//! any single case fails the test, and a case that starts passing shows as a
//! snapshot diff. `UPDATE_EXPECT=1 cargo test --test conformance` rewrites it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use puppet_analysis::eval::record::{eval_case_as, CaseRecord};
use puppet_analysis::target::{PuppetVersion, Target};

/// The data files, in the order their cases are listed in the snapshot.
const DATA_FILES: &[&str] = &["eval.jsonl", "eval_extra.jsonl"];

/// One case of the data: what Puppet produced.
struct Case {
    id: String,
    expr: String,
    value: Option<String>,
    type_: Option<String>,
    error: Option<String>,
}

fn field(v: &serde_json::Value, key: &str) -> Option<String> {
    v.get(key).and_then(|x| x.as_str()).map(str::to_string)
}

fn load(file: &str) -> Vec<Case> {
    let path = format!("{}/test_data/{file}", env!("CARGO_MANIFEST_DIR"));
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    data.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|line| {
            let case: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
            Some(Case {
                id: field(&case, "id")?,
                expr: field(&case, "expr")?,
                value: field(&case, "value"),
                type_: field(&case, "type"),
                error: field(&case, "error"),
            })
        })
        .collect()
}

/// How the evaluator's result compares with Puppet's: `pass`, or the kind of
/// difference.
fn outcome(case: &Case, got: &CaseRecord) -> &'static str {
    match (&case.error, &got.error) {
        (Some(_), Some(_)) => "pass",
        (None, Some(_)) => "spurious-error",
        _ if got.unsupported.is_some() => "unsupported",
        (Some(_), None) => "missing-error",
        (None, None) if got.value == case.value && got.type_ == case.type_ => "pass",
        (None, None) => "wrong-result",
    }
}

#[test]
fn conformance() {
    let mut per_cat: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut snapshot = String::new();
    for case in DATA_FILES.iter().flat_map(|f| load(f)) {
        let got = eval_case_as(&case.expr, Target::of(PuppetVersion::V7));
        let kind = outcome(&case, &got);
        writeln!(snapshot, "{} {kind}", case.id).unwrap();
        let cat = case.id.rsplit_once('-').map_or(&*case.id, |(c, _)| c);
        let entry = per_cat.entry(cat.to_string()).or_default();
        entry.1 += 1;
        if kind == "pass" {
            entry.0 += 1;
        } else {
            failures.push(format!(
                "{}: {:?}\n    expected {} :: {} error={:?}\n    got      {} :: {} error={:?} unsupported={:?}",
                case.id,
                case.expr,
                case.value.as_deref().unwrap_or("-"),
                case.type_.as_deref().unwrap_or("-"),
                case.error,
                got.value.as_deref().unwrap_or("-"),
                got.type_.as_deref().unwrap_or("-"),
                got.error,
                got.unsupported
            ));
        }
    }
    let (mut pass, mut total) = (0, 0);
    for (cat, (p, t)) in &per_cat {
        eprintln!("{cat:16} {p:4}/{t:4} {:6.1}%", percent(*p, *t));
        pass += p;
        total += t;
    }
    eprintln!(
        "overall          {pass:4}/{total:4} {:6.1}%",
        percent(pass, total)
    );
    let out = std::env::temp_dir().join("puppet-eval-conformance-failures.txt");
    let _ = std::fs::write(&out, failures.join("\n"));
    eprintln!("failures written to {}", out.display());
    expect_test::expect_file!["../test_data/eval.expect"].assert_eq(&snapshot);
}

fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}
