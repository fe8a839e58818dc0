//! Validation conformance: every input under `test_data/validation/` is
//! checked against the verdict Puppet 7.23 gave it (`puppet-verdicts.tsv`,
//! recorded with `../shared/oracle/validate.rb`), and our diagnostics are
//! snapshotted next to it (`.diag`; regenerate with `UPDATE_EXPECT=1`).

use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use puppet_syntax::{parse_and_validate, Severity, SourceKind};
use std::path::Path;

fn render_diagnostics(text: &str, kind: SourceKind) -> String {
    let (_, problems) = parse_and_validate(text, kind);
    let index = LineIndex::new(text);
    let mut out = String::new();
    for p in &problems {
        let start = index.line_col(p.range.start(), ColumnEncoding::Utf32);
        let end = index.line_col(p.range.end(), ColumnEncoding::Utf32);
        out.push_str(&format!(
            "{}:{}-{}:{} {} [{}] {}\n",
            start.line + 1,
            start.col + 1,
            end.line + 1,
            end.col + 1,
            p.severity.as_str(),
            p.code,
            p.message
        ));
    }
    out
}

#[test]
fn validation_agrees_with_puppet() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/validation");
    let verdicts = std::fs::read_to_string(dir.join("puppet-verdicts.tsv")).expect("verdict table");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in verdicts.lines().filter(|l| !l.is_empty()) {
        let mut fields = line.split('\t');
        let (Some(file), Some(verdict)) = (fields.next(), fields.next()) else {
            continue;
        };
        let text = std::fs::read_to_string(dir.join(file)).expect("input file");
        let kind = SourceKind::from_path(Path::new(file));
        let (_, problems) = parse_and_validate(&text, kind);
        let has_error = problems.iter().any(|p| p.severity == Severity::Error);
        if has_error != (verdict != "ok") {
            failures.push(format!(
                "{file}: Puppet says {verdict}, we found errors: {has_error}"
            ));
        }
        let actual = render_diagnostics(&text, kind);
        let snapshot = dir.join(file).with_extension("diag");
        if update {
            std::fs::write(&snapshot, &actual).expect("write snapshot");
        } else {
            let expected = std::fs::read_to_string(&snapshot).unwrap_or_default();
            if expected != actual {
                failures.push(format!(
                    "{file}: diagnostics changed\n--- expected\n{expected}--- actual\n{actual}"
                ));
            }
        }
        checked += 1;
    }
    assert!(checked >= 50, "too few validation cases: {checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
