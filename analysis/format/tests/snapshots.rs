//! Formatter snapshots: every `test_data/*.pp` (and `*.epp`) input has its
//! expected output next to it, `NAME.expected` (or, for an input that is
//! not formatted, the reason). Each expected output must also format to
//! itself and be the same program as its input.
//!
//! Run with `UPDATE_EXPECT=1` to (re)write the expected outputs.

use puppet_format::{format_source, same_program, FormatOptions};
use puppet_syntax::SourceKind;
use std::path::{Path, PathBuf};

fn inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("pp" | "epp")))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "too few formatter snapshots");
    files
}

fn render(text: &str, kind: SourceKind) -> String {
    match format_source(text, kind, &FormatOptions::default()) {
        Ok(formatted) => formatted,
        Err(why) => format!("not formatted: {why}\n"),
    }
}

#[test]
fn snapshots() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    for input in inputs() {
        let text = std::fs::read_to_string(&input).unwrap();
        let kind = SourceKind::from_path(&input);
        let actual = render(&text, kind);
        let expected_path = input.with_extension(format!(
            "{}.expected",
            input.extension().unwrap().to_str().unwrap()
        ));
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if actual != expected {
            if update {
                std::fs::write(&expected_path, &actual).unwrap();
                eprintln!("updated {}", expected_path.display());
            } else {
                failures.push(format!(
                    "{}: output differs (UPDATE_EXPECT=1 to update)\n--- expected\n{expected}\n--- actual\n{actual}",
                    input.display()
                ));
                continue;
            }
        }
        if actual.starts_with("not formatted:") {
            continue;
        }
        if let Err(why) = same_program(&text, &actual, kind) {
            failures.push(format!("{}: meaning changed: {why}", input.display()));
        }
        let again = render(&actual, kind);
        if again != actual {
            failures.push(format!(
                "{}: not idempotent\n--- once\n{actual}\n--- twice\n{again}",
                input.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
