//! Modules' `metadata.json` against what Puppet 7.23 makes of them, as
//! recorded in `test_data/metadata/` by `tools/metadata_oracle.rb`:
//! - `ranges.tsv`: version ranges as dependencies write them, with
//!   SemanticPuppet's verdict and the probe versions each includes; the
//!   ranges puppet-ls reads (`puppet_runtime::semver`) must agree on every
//!   one. `ranges.expected` snapshots how each is understood.
//! - `*.fixture`: workspaces whose diagnostics are snapshotted
//!   (`<name>.diagnostics`, regenerate with `UPDATE_EXPECT=1`) and checked
//!   against `puppet.txt`, Puppet's verdicts on the same modules: a module
//!   Puppet drops (or an environment whose modules fail to load) must get
//!   a `metadata-schema` error, a module Puppet loads none; each unmet
//!   dependency `puppet module list` reports on a module of the workspace
//!   must be an `unmet-dependency` (or `invalid-version-range`) warning,
//!   and no other.

use puppet_analysis::host::AnalysisHost;
use puppet_analysis::semver::{Version, VersionRange};
use puppet_analysis::target::{PuppetVersion, Target};
use puppet_syntax::Severity;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/metadata")
}

/// The versions `tools/metadata_oracle.rb` probes each range with.
const PROBES: [&str; 19] = [
    "0.0.3",
    "0.0.4",
    "0.2.3",
    "0.2.5",
    "0.3.0",
    "0.9.0",
    "1.0.0-rc1",
    "1.0.0",
    "1.2.0",
    "1.2.3",
    "1.2.4",
    "1.3.0",
    "1.9.9",
    "2.0.0",
    "2.0.1",
    "3.1.0",
    "4.13.1",
    "9.9.9",
    "10.0.0",
];

#[test]
fn version_ranges_agree_with_puppet() {
    let recorded = std::fs::read_to_string(data_dir().join("ranges.tsv")).expect("ranges.tsv");
    let mut failures = Vec::new();
    let mut understood = String::new();
    for line in recorded.lines() {
        let mut fields = line.split('\t');
        let (Some(range), Some(verdict), Some(included)) =
            (fields.next(), fields.next(), fields.next())
        else {
            failures.push(format!("malformed line {line:?}"));
            continue;
        };
        match (VersionRange::parse(range), verdict) {
            (Ok(parsed), "ok") => {
                let ours: Vec<&str> = PROBES
                    .iter()
                    .copied()
                    .filter(|v| parsed.includes(&Version::parse(v).expect("a probe version")))
                    .collect();
                if ours.join(",") != included {
                    failures.push(format!(
                        "{range:?}: Puppet includes [{included}], puppet-ls [{}]",
                        ours.join(",")
                    ));
                }
                let parts: Vec<String> = parsed.ranges.iter().map(|r| r.to_string()).collect();
                understood.push_str(&format!("{range:?} => {}\n", parts.join(" || ")));
            }
            (Err(e), verdict) if verdict.starts_with("error") => {
                understood.push_str(&format!("{range:?} => {e}\n"));
            }
            (ours, verdict) => failures.push(format!(
                "{range:?}: Puppet says {verdict}, puppet-ls {:?}",
                ours.map(|r| r.to_string())
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    expect_test::expect_file!["../test_data/metadata/ranges.expected"].assert_eq(&understood);
}

/// A workspace's diagnostics as `path:line:col: severity [code] message`.
fn diagnostics(host: &AnalysisHost) -> Vec<(PathBuf, Severity, String, String)> {
    let mut paths: Vec<PathBuf> = host.paths().map(Path::to_path_buf).collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let text = host.text(&path).expect("a loaded file");
        for d in host.diagnostics(&path) {
            let start = usize::from(d.range.start());
            let line = text[..start].matches('\n').count() + 1;
            let column = text[..start]
                .rsplit('\n')
                .next()
                .map_or(0, |l| l.chars().count())
                + 1;
            let shown = format!(
                "{}:{line}:{column}: {} [{}] {} `{}`\n",
                path.display(),
                d.severity.as_str(),
                d.code,
                d.message,
                &text[d.range]
            );
            out.push((path.clone(), d.severity, d.code.to_string(), shown));
        }
    }
    out
}

/// `puppet.txt`'s verdicts, by fixture file name: one line per module
/// (`name: loaded|dropped`, its unmet dependencies indented below) or
/// `environment fails: ...`.
fn puppet_verdicts() -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(data_dir().join("puppet.txt")).expect("puppet.txt");
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current = None;
    for line in text.lines().skip(1) {
        if let Some(name) = line.strip_prefix("# ") {
            current = Some(name.to_string());
            out.entry(name.to_string()).or_default();
        } else if let Some(name) = &current {
            out.entry(name.clone()).or_default().push(line.to_string());
        }
    }
    out
}

#[test]
fn fixtures_agree_with_puppet() {
    let dir = data_dir();
    let verdicts = puppet_verdicts();
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "fixture"))
        .collect();
    fixtures.sort();
    assert!(!fixtures.is_empty());
    let mut failures = Vec::new();
    for fixture in fixtures {
        let file_name = fixture.file_name().unwrap().to_string_lossy().into_owned();
        let name = file_name.trim_end_matches(".fixture");
        let text = std::fs::read_to_string(&fixture).expect("fixture");
        // Puppet 7.23's verdicts: checked for Puppet 7.
        let mut host = AnalysisHost::discover_fixture("/ws", &text);
        host.set_target(Target::of(PuppetVersion::V7), "test");
        let found = diagnostics(&host);
        let actual: String = found.iter().map(|(_, _, _, s)| s.as_str()).collect();
        let snapshot = dir.join(format!("{name}.diagnostics"));
        if update {
            std::fs::write(&snapshot, &actual).expect("write snapshot");
        } else if std::fs::read_to_string(&snapshot).unwrap_or_default() != actual {
            failures.push(format!("{name}: diagnostics changed:\n{actual}"));
        }
        let Some(verdict) = verdicts.get(&file_name) else {
            failures.push(format!(
                "{name}: no verdict in puppet.txt (run tools/metadata_oracle.rb)"
            ));
            continue;
        };
        let metadata_errors = |module: Option<&str>| {
            found
                .iter()
                .filter(|(path, severity, code, _)| {
                    *severity == Severity::Error
                        && code == "metadata-schema"
                        && module.is_none_or(|m| {
                            *path == Path::new("/ws/modules").join(m).join("metadata.json")
                        })
                })
                .count()
        };
        if verdict.iter().any(|l| l.starts_with("environment fails")) {
            if metadata_errors(None) == 0 {
                failures.push(format!(
                    "{name}: Puppet fails to load the modules, puppet-ls reports no error"
                ));
            }
            continue;
        }
        // `puppet module list`'s unmet dependencies on modules of the
        // workspace (a missing module with none of its name is not
        // judged): an unparsable range is `non_semantic_version` with a
        // semantic installed version.
        let (mut unmet, mut unparsable) = (0, 0);
        for line in verdict {
            if let Some((module, state)) = line.split_once(": ") {
                let errors = metadata_errors(Some(module));
                match state {
                    "dropped" if errors == 0 => failures.push(format!(
                        "{name}: Puppet drops module {module}, puppet-ls reports no error"
                    )),
                    "loaded" if errors > 0 => failures.push(format!(
                        "{name}: Puppet loads module {module}, puppet-ls reports {errors} error(s)"
                    )),
                    _ => {}
                }
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let [reason, dependency, ..] = words[..] else {
                continue;
            };
            let module = dependency.split(['/', '-']).nth(1).unwrap_or_default();
            if host.layout().module(module).is_none() {
                continue;
            }
            let installed = words.last().unwrap_or(&"").trim_matches('"');
            match reason {
                "non_semantic_version" if Version::parse(installed).is_ok() => unparsable += 1,
                "version_mismatch" | "non_semantic_version" | "missing" => unmet += 1,
                _ => {}
            }
        }
        let count = |code: &str| found.iter().filter(|(_, _, c, _)| c == code).count();
        if count("unmet-dependency") != unmet {
            failures.push(format!(
                "{name}: `puppet module list` finds {unmet} unmet dependencies on modules of the workspace, puppet-ls reports {}",
                count("unmet-dependency")
            ));
        }
        if count("invalid-version-range") < unparsable {
            failures.push(format!(
                "{name}: `puppet module list` cannot parse {unparsable} ranges, puppet-ls reports {}",
                count("invalid-version-range")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
