//! `Analysis::variable_types` answers what hover shows, for every variable
//! reference of the soundness programs (`tests/soundness/`, which the
//! harness `tools/soundness/` checks against Puppet): the harness judges
//! hover through this list.

use puppet_analysis::host::AnalysisHost;
use puppet_ide::FilePosition;
use std::path::{Path, PathBuf};

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/soundness");
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/soundness")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.join("manifests/site.pp").is_file())
        .collect();
    programs.sort();
    programs
}

/// The type in a variable's hover: its first code line is `$name: Type`.
fn hovered_type(markdown: &str) -> Option<&str> {
    let line = markdown.lines().nth(1)?;
    Some(line.split_once(": ")?.1)
}

#[test]
fn every_reference_has_the_type_hover_shows() {
    let programs = programs();
    assert!(!programs.is_empty(), "no soundness programs");
    let mut checked = 0;
    for program in programs {
        let host = AnalysisHost::from_paths(&puppet_vfs::DiskFs, std::slice::from_ref(&program));
        let analysis = puppet_ide::snapshot(&host);
        let paths: Vec<PathBuf> = analysis.paths().map(Path::to_path_buf).collect();
        for path in paths {
            for r in analysis.variable_types(&path).expect("not cancelled") {
                // On the last character: the start of `$mod::cls::x` is
                // also the class name's.
                let position = FilePosition {
                    path: path.clone(),
                    offset: r.range.end() - puppet_syntax::TextSize::from(1),
                };
                let hover = analysis.hover(&position).expect("not cancelled");
                let markdown = hover.map(|h| h.markdown).unwrap_or_default();
                assert_eq!(
                    hovered_type(&markdown),
                    Some(r.ty.as_str()),
                    "{}:{:?} ${}: hover shows\n{markdown}",
                    path.display(),
                    r.range,
                    r.name
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} references");
}
