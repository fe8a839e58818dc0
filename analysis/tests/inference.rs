//! Type inference over `test_data/infer/*.pp`: every variable definition
//! (assignment target, parameter) with its inferred type and value, in a
//! snapshot next to the input (`UPDATE_EXPECT=1` rewrites them).
//!
//! An input is one manifest, or a multi-file workspace with `#- /path`
//! headers (every manifest is rendered).

use puppet_analysis::host::{parse_fixture, AnalysisHost};
use puppet_analysis::infer::{infer_file, infer_range};
use puppet_analysis::target::{PuppetVersion, Target};
use puppet_analysis::values::format::to_programmatic;
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn render(host: &AnalysisHost, path: &Path) -> String {
    let file = host.file(path).expect("file in workspace");
    let text = host.text(path).expect("text");
    let index = LineIndex::new(&text);
    let types = infer_file(host.db(), host.workspace(), file);
    let mut out = String::new();
    for (range, inferred) in types.definitions() {
        let pos = index.line_col(range.start(), ColumnEncoding::Utf8);
        let name = &text[*range];
        let _ = write!(
            out,
            "{}:{} {name}: {}",
            pos.line + 1,
            pos.col + 1,
            inferred.ty
        );
        if let Some(v) = &inferred.value {
            let _ = write!(out, " = {}", to_programmatic(v));
        }
        out.push('\n');
    }
    out
}

#[test]
fn inference_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/infer");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("test_data/infer")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 5, "inputs missing");
    for input in inputs {
        let text = std::fs::read_to_string(&input).expect("read input");
        let files = if text.starts_with("#- ") {
            parse_fixture(&text)
        } else {
            vec![(PathBuf::from("/t/manifests/init.pp"), text)]
        };
        // The snapshots are Puppet 7's types (legacy facts included).
        let mut host = AnalysisHost::from_files(files.clone());
        host.set_target(Target::of(PuppetVersion::V7), "test");
        // Manifests only (a fixture may hold Ruby or data files).
        let paths: Vec<PathBuf> = files
            .iter()
            .map(|(p, _)| p.clone())
            .filter(|p| host.file(p).is_some())
            .collect();
        let mut actual = String::new();
        for path in &paths {
            if paths.len() > 1 {
                let _ = writeln!(actual, "#- {}", path.display());
            }
            actual.push_str(&render(&host, path));
        }
        expect_test::expect_file![input.with_extension("types")].assert_eq(&actual);
        // Inferring only around a definition (what hover does) agrees
        // with inferring the whole file.
        for path in &paths {
            let file = host.file(path).expect("file");
            let whole = infer_file(host.db(), host.workspace(), file);
            for (range, inferred) in whole.definitions() {
                let partial = infer_range(host.db(), host.workspace(), file, *range);
                assert_eq!(
                    partial.get(*range),
                    Some(inferred),
                    "{}: {range:?}",
                    path.display()
                );
            }
        }
    }
}

/// Inference never panics and stays bounded on every parser input,
/// including broken code and deep nesting.
#[test]
fn inference_is_total_on_parser_inputs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../syntax/test_data/parser");
    let mut count = 0;
    for sub in ["ok", "err"] {
        for entry in std::fs::read_dir(root.join(sub)).expect("parser test data") {
            let path = entry.expect("entry").path();
            if !path.extension().is_some_and(|e| e == "pp" || e == "epp") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read");
            let kind = puppet_syntax::SourceKind::from_path(&path);
            let types = puppet_analysis::host::infer_text(&text, kind);
            // Every recorded range lies inside the text.
            for (range, _) in types.definitions() {
                assert!(usize::from(range.end()) <= text.len(), "{}", path.display());
            }
            count += 1;
        }
    }
    assert!(count > 150, "only {count} inputs");
    let deep = format!("$x = {}1{}", "[".repeat(240), "]".repeat(240));
    let types = puppet_analysis::host::infer_text(&deep, puppet_syntax::SourceKind::Manifest);
    assert_eq!(types.definitions().len(), 1);
}
