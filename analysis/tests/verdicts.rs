//! Workspaces with the verdicts Puppet 7.23 and Puppet 8.10 gave them: every
//! fixture under `test_data/verdicts/` is a small environment (modules,
//! `site.pp`, Hiera data) that `tools/compile_oracle.rb` compiled with each
//! Puppet (`regenerate.sh`), recording `ok` or the error in `verdicts.tsv`
//! (Puppet 7) and `verdicts8.tsv` (Puppet 8). A fixture's `oracle:` line
//! sets `strict` or `strict_variables` for both the referee and puppet-ls.
//!
//! The rule puppet-ls keeps, for each Puppet it targets: an error only where
//! that Puppet fails. So a fixture the referee compiles must get no error,
//! and one it rejects must get at least one. Every fixture's diagnostics
//! are also snapshotted per version (`<name>.diagnostics` for Puppet 7,
//! `<name>.diagnostics8` for Puppet 8; regenerate with `UPDATE_EXPECT=1`),
//! warnings included.
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
fn diagnostics(fixture: &str, target: Target) -> (String, usize) {
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
    host.set_target(target, "the referee's");
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

/// The target a fixture is compiled for: the referee's version with its
/// defaults, and the settings of the fixture's `oracle:` lines.
fn fixture_target(version: PuppetVersion, fixture: &str) -> Target {
    let mut target = Target::of(version);
    let options = fixture
        .lines()
        .take_while(|l| !l.starts_with("#- "))
        .filter_map(|l| l.strip_prefix("oracle:"))
        .flat_map(str::split_whitespace);
    for option in options {
        match option.split_once('=') {
            Some(("strict", word)) => target.strict = word.parse().expect("a strict word"),
            Some(("strict_variables", flag)) => {
                target.strict_variables = flag.parse().expect("true or false")
            }
            _ => {}
        }
    }
    target
}

/// `limits.tsv`: the failures of a referee that puppet-ls knows it cannot
/// prove (`major<TAB>fixture<TAB>why`): for these, puppet-ls must report no
/// error (a warning at most), and the test fails once it does report one,
/// so that the list only shrinks. Every other failure must be an error.
fn limits(text: &str) -> std::collections::BTreeMap<(u64, &str), &str> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut fields = line.splitn(3, '\t');
            let major = fields
                .next()
                .and_then(|m| m.parse().ok())
                .expect("a major version");
            let name = fields.next().expect("a fixture");
            let why = fields.next().expect("a reason");
            ((major, name), why)
        })
        .collect()
}

/// One referee: its recorded verdicts and the snapshots of puppet-ls's
/// diagnostics under its version.
struct Referee {
    version: PuppetVersion,
    verdicts: &'static str,
    snapshot: &'static str,
}

const REFEREES: [Referee; 2] = [
    Referee {
        version: PuppetVersion::V7,
        verdicts: "verdicts.tsv",
        snapshot: "diagnostics",
    },
    Referee {
        version: PuppetVersion::V8,
        verdicts: "verdicts8.tsv",
        snapshot: "diagnostics8",
    },
];

#[test]
fn errors_exactly_where_puppet_7_fails() {
    check_referee(&REFEREES[0]);
}

#[test]
fn errors_exactly_where_puppet_8_fails() {
    check_referee(&REFEREES[1]);
}

fn check_referee(referee: &Referee) {
    let dir = data_dir();
    let verdicts = std::fs::read_to_string(dir.join(referee.verdicts)).expect("verdicts");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let limits_text = std::fs::read_to_string(dir.join("limits.tsv")).expect("limits.tsv");
    let limits = limits(&limits_text);
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
        let target = fixture_target(referee.version, &fixture);
        let (actual, errors) = diagnostics(&fixture, target);
        let puppet = format!("Puppet {}", referee.version);
        let limit = limits.get(&(referee.version.major(), name));
        match (verdict, limit) {
            ("ok", _) if errors > 0 => failures.push(format!(
                "{name}: {puppet} compiles it, puppet-ls reports {errors} error(s):\n{actual}"
            )),
            ("error", None) if errors == 0 => failures.push(format!(
                "{name}: {puppet} fails ({puppet_error}), puppet-ls reports no error:\n{actual}"
            )),
            ("error", Some(_)) if errors > 0 => failures.push(format!(
                "{name}: limits.tsv says puppet-ls cannot prove {puppet}'s failure, but it reports an error: remove the line"
            )),
            ("ok", Some(_)) => failures.push(format!(
                "{name}: limits.tsv lists a fixture {puppet} compiles: remove the line"
            )),
            ("ok" | "error", _) => {}
            (other, _) => failures.push(format!("{name}: unknown verdict '{other}'")),
        }
        let snapshot = dir.join(format!("{name}.{}", referee.snapshot));
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
