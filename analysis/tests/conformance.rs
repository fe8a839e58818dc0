//! Runs every case of `test_data/eval.jsonl` (Puppet 7.23's own results)
//! through `puppet_analysis::eval::record::eval_case`, the function behind
//! `puppet-ls eval --jsonl`, and compares value, type and error-or-not.
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
//! settings (strict variables off, no facts).

use std::collections::BTreeMap;

use puppet_analysis::eval::record::eval_case;

/// Ratchet: the number of passing cases must not drop below this.
const BASELINE_PASS: usize = 2956;

fn field(v: &serde_json::Value, key: &str) -> Option<String> {
    v.get(key).and_then(|x| x.as_str()).map(str::to_string)
}

#[test]
fn conformance() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/test_data/eval.jsonl");
    let data = std::fs::read_to_string(path).expect("test_data/eval.jsonl");
    let mut per_cat: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut pass, mut total) = (0usize, 0usize);
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
        let (Some(id), Some(expr)) = (field(&case, "id"), field(&case, "expr")) else {
            continue;
        };
        let want_value = field(&case, "value");
        let want_type = field(&case, "type");
        let want_error = field(&case, "error");
        let got = eval_case(&expr);
        let ok = match &want_error {
            Some(_) => got.error.is_some(),
            None => got.error.is_none() && got.value == want_value && got.type_ == want_type,
        };
        let cat = id
            .rsplit_once('-')
            .map_or(id.as_str(), |(c, _)| c)
            .to_string();
        let entry = per_cat.entry(cat).or_default();
        entry.1 += 1;
        total += 1;
        if ok {
            entry.0 += 1;
            pass += 1;
        } else {
            failures.push(format!(
                "{id}: {expr:?}\n    expected {} :: {} error={:?}\n    got      {} :: {} error={:?} unsupported={:?}",
                want_value.as_deref().unwrap_or("-"),
                want_type.as_deref().unwrap_or("-"),
                want_error,
                got.value.as_deref().unwrap_or("-"),
                got.type_.as_deref().unwrap_or("-"),
                got.error,
                got.unsupported
            ));
        }
    }
    for (cat, (p, t)) in &per_cat {
        eprintln!(
            "{cat:12} {p:4}/{t:4} {:6.1}%",
            100.0 * *p as f64 / (*t).max(1) as f64
        );
    }
    eprintln!(
        "overall      {pass:4}/{total:4} {:6.1}%",
        100.0 * pass as f64 / total.max(1) as f64
    );
    let out = std::env::temp_dir().join("puppet-eval-conformance-failures.txt");
    let _ = std::fs::write(&out, failures.join("\n"));
    eprintln!("failures written to {}", out.display());
    assert!(
        pass >= BASELINE_PASS,
        "conformance regressed: {pass} < {BASELINE_PASS}"
    );
}
