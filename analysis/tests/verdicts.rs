//! Workspaces with the verdict Puppet 7.23 gave them: every fixture under
//! `test_data/verdicts/` is a small environment (modules, `site.pp`, Hiera
//! data) that `tools/compile_oracle.rb` compiled with Puppet, recording
//! `ok` or the error in `verdicts.tsv`.
//!
//! The rule puppet-ls keeps: an error only where Puppet fails. So a fixture
//! Puppet compiles must get no error, and one Puppet rejects must get at
//! least one. Every fixture's diagnostics are also snapshotted
//! (`<name>.diagnostics`, regenerate with `UPDATE_EXPECT=1`), warnings
//! included.
//!
//! The fixtures are written to a temporary directory and discovered as the
//! CLI would discover them (`AnalysisHost::from_paths`).

use puppet_analysis::host::{parse_fixture, AnalysisHost};
use puppet_analysis::target::{PuppetVersion, Target};
use puppet_syntax::Severity;
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/verdicts")
}

/// Every diagnostic of the workspace as `/ws/path:line: severity [code] message`.
fn diagnostics(fixture: &str) -> (String, usize) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let root = dir.path().join("ws");
    for (path, text) in parse_fixture(fixture) {
        let relative = path
            .strip_prefix("/ws")
            .expect("fixture paths start with /ws");
        let target = root.join(relative);
        std::fs::create_dir_all(target.parent().expect("a parent")).expect("create dir");
        std::fs::write(&target, text).expect("write fixture file");
    }
    let mut host = AnalysisHost::from_paths(&puppet_vfs::DiskFs, std::slice::from_ref(&root));
    // `verdicts.tsv` is Puppet 7.23's.
    host.set_target(Target::of(PuppetVersion::V7), "test");
    let mut out = String::new();
    let mut errors = 0;
    for path in host.paths().map(Path::to_path_buf).collect::<Vec<_>>() {
        let text = host.text(&path).expect("loaded file");
        let shown = Path::new("/ws").join(path.strip_prefix(&root).unwrap_or(&path));
        for d in host.diagnostics(&path) {
            let line = text[..u32::from(d.range.start()) as usize]
                .matches('\n')
                .count()
                + 1;
            if d.severity == Severity::Error {
                errors += 1;
            }
            out.push_str(&format!(
                "{}:{line}: {} [{}] {}\n",
                shown.display(),
                d.severity.as_str(),
                d.code,
                d.message
            ));
        }
    }
    (out, errors)
}

#[test]
fn errors_exactly_where_puppet_fails() {
    let dir = data_dir();
    let verdicts = std::fs::read_to_string(dir.join("verdicts.tsv")).expect("verdicts.tsv");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in verdicts.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields = line.split('\t');
        let (Some(name), Some(verdict)) = (fields.next(), fields.next()) else {
            continue;
        };
        let puppet_error = fields.next().unwrap_or_default();
        let fixture = std::fs::read_to_string(dir.join(format!("{name}.fixture")))
            .unwrap_or_else(|e| panic!("{name}.fixture: {e}"));
        let (actual, errors) = diagnostics(&fixture);
        match verdict {
            "ok" if errors > 0 => failures.push(format!(
                "{name}: Puppet compiles it, puppet-ls reports {errors} error(s):\n{actual}"
            )),
            "error" if errors == 0 => failures.push(format!(
                "{name}: Puppet fails ({puppet_error}), puppet-ls reports no error:\n{actual}"
            )),
            "ok" | "error" => {}
            other => failures.push(format!("{name}: unknown verdict '{other}'")),
        }
        let snapshot = dir.join(format!("{name}.diagnostics"));
        if update {
            std::fs::write(&snapshot, &actual).expect("write snapshot");
        } else {
            let expected = std::fs::read_to_string(&snapshot).unwrap_or_default();
            if expected != actual {
                failures.push(format!(
                    "{name}: diagnostics changed\n--- expected\n{expected}--- actual\n{actual}"
                ));
            }
        }
        checked += 1;
    }
    let fixtures = std::fs::read_dir(&dir)
        .expect("fixture directory")
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "fixture"))
        .count();
    assert_eq!(
        checked, fixtures,
        "every fixture needs a verdict: run tools/compile_oracle.rb"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
