//! Broken Hiera files never break the analysis: the control repository of
//! `puppet-analysis`'s lookup tests (environment and module layers, every
//! kind of level and interpolation) with one YAML file mangled — YAML
//! fragments spliced in, spans cut out, the text truncated — and every
//! question asked of it: diagnostics of every Hiera file, lookups with
//! their explanation, and hover, completion, definition and references at
//! places in the mangled file. A panic fails the test (the server would
//! catch it, but the answer would be lost).

use puppet_analysis::hiera::lookup::{explain, Node, Strategy};
use puppet_analysis::host::AnalysisHost;
use puppet_ide::FilePosition;
use puppet_syntax::TextSize;
use std::path::{Path, PathBuf};

/// What YAML and Hiera give meaning to: indicators, flow and block
/// structure, anchors, tags, interpolations, keys.
const FRAGMENTS: &[&str] = &[
    ":",
    ": ",
    "- ",
    "-",
    "? ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "!!str ",
    "!",
    "|\n",
    ">-\n",
    "'",
    "\"",
    "#",
    "\n",
    "\n  ",
    "\t",
    "%{",
    "}",
    "%{facts.os.family}",
    "%{lookup('k')}",
    "%{alias('ntp::servers')}",
    "%{literal('%')}",
    "%{::fqdn}",
    "%{scope('x')}",
    "ntp::servers",
    "lookup_options:\n  ntp::servers:\n    merge: deep\n",
    "---\n",
    "...\n",
    "version: 4\n",
    "hierarchy:\n",
    "  - name: X\n",
    "    path: \"%{",
    "\u{feff}",
    "é",
    "😀",
    "~",
    "null",
    "0x1F",
    "1e400",
    ".inf",
    "<<: *a\n",
];

/// The environment's files, rebased under `/env`.
fn environment() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test_data/hiera_lookup/env");
    let mut files = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("the test environment") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                let relative = path.strip_prefix(&root).expect("under the root");
                files.push((Path::new("/env").join(relative), text));
            }
        }
    }
    files.push(("/env/manifests/site.pp".into(), "include ntp\n".into()));
    files.sort();
    files
}

fn boundary(rng: &mut fastrand::Rng, text: &str) -> usize {
    let mut i = rng.usize(..=text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The text with one to four fragments spliced in, spans cut out, or the
/// tail cut off.
fn mangle(rng: &mut fastrand::Rng, text: &str) -> String {
    let mut out = text.to_string();
    for _ in 0..rng.usize(1..=4) {
        let at = boundary(rng, &out);
        match rng.usize(..4) {
            0 | 1 => out.insert_str(at, FRAGMENTS[rng.usize(..FRAGMENTS.len())]),
            2 => {
                let end = boundary(rng, &out).max(at);
                out.replace_range(at..end.min(at + 40).max(at), "");
                while !out.is_char_boundary(at.min(out.len())) {
                    out.pop();
                }
            }
            _ => out.truncate(at),
        }
    }
    out
}

#[test]
fn mangled_hiera_files_are_answered_without_a_panic() {
    let files = environment();
    let yaml: Vec<usize> = (0..files.len())
        .filter(|&i| {
            let path = &files[i].0;
            path.extension().is_some_and(|e| e == "yaml" || e == "json")
                && !path.starts_with("/env/facts")
        })
        .collect();
    assert!(yaml.len() >= 15, "{} Hiera files", yaml.len());
    let node = Node {
        name: "web01.example.com".into(),
        facts: Default::default(),
        environment: "production".into(),
    };
    let keys = [
        "ntp::servers",
        "profile::base::packages",
        "profile::base::limits",
        "interp::alias",
        "no::such",
    ];
    let mut rng = fastrand::Rng::with_seed(0x41e5_a0b0_2026_1126);
    // The mangling reaches what it means to: broken YAML, bad
    // interpolations, and hovers that still answer.
    let (mut syntax_errors, mut interpolation_errors, mut hovers) = (0, 0, 0);
    for case in 0..300 {
        let mut files = files.clone();
        let (path, text) = &mut files[yaml[rng.usize(..yaml.len())]];
        *text = mangle(&mut rng, text);
        let (path, text) = (path.clone(), text.clone());
        let hiera: Vec<PathBuf> = yaml.iter().map(|&i| files[i].0.clone()).collect();
        let host = AnalysisHost::discover_files("/env", files);
        let analysis = host.analysis();
        for file in &hiera {
            let found = analysis.diagnostics(file).expect("not cancelled");
            let has = |code: &str| found.iter().any(|d| d.code.as_str() == code);
            syntax_errors += usize::from(has("yaml-syntax"));
            interpolation_errors += usize::from(has("hiera-interpolation"));
        }
        for key in keys {
            for merge in [None, Some(Strategy::Unique)] {
                let _ = explain(host.db(), host.workspace(), &node, key, merge);
            }
        }
        let ide = puppet_ide::snapshot(&host);
        for _ in 0..8 {
            let position = FilePosition {
                path: path.clone(),
                offset: TextSize::from(boundary(&mut rng, &text) as u32),
            };
            let context = || {
                format!(
                    "case {case}: {} at {:?}:\n{text}",
                    path.display(),
                    position.offset
                )
            };
            let hover = ide
                .hover(&position)
                .unwrap_or_else(|_| panic!("{}", context()));
            hovers += usize::from(hover.is_some());
            ide.completions(&position)
                .unwrap_or_else(|_| panic!("{}", context()));
            ide.goto_definition(&position)
                .unwrap_or_else(|_| panic!("{}", context()));
            ide.find_references(&position, true)
                .unwrap_or_else(|_| panic!("{}", context()));
        }
    }
    assert!(
        syntax_errors >= 100 && interpolation_errors >= 3 && hovers >= 200,
        "{syntax_errors} syntax errors, {interpolation_errors} interpolation errors, {hovers} hovers"
    );
}
