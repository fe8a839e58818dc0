//! The crate boundaries that `docs/architecture.md` promises, checked on
//! the sources: only the server and the file-system layer (`puppet-vfs`)
//! touch the disk or the environment; everything below reads through the
//! `FileSystem` it is given.

use std::path::{Path, PathBuf};

/// The crates that must not do IO themselves.
const PURE_CRATES: &[&str] = &[
    "syntax",
    "analysis",
    "analysis/codes",
    "analysis/runtime",
    "analysis/ide",
    "analysis/format",
    "analysis/lint",
];

/// What doing IO looks like in Rust source.
const IO_MARKERS: &[&str] = &[
    "std::fs",
    "std::env::var",
    "std::process",
    "std::net",
    "File::open",
    "File::create",
    "DiskFs",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_server_and_the_file_system_layer_do_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    let mut offenders = Vec::new();
    for krate in PURE_CRATES {
        let mut files = Vec::new();
        rust_files(&root.join(krate).join("src"), &mut files);
        assert!(!files.is_empty(), "{krate}/src has no Rust files");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            checked += 1;
            for (n, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                if let Some(marker) = IO_MARKERS.iter().find(|m| line.contains(*m)) {
                    offenders.push(format!("{}:{}: {marker}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} files checked");
    assert!(
        offenders.is_empty(),
        "IO outside the server and puppet-vfs:\n{}",
        offenders.join("\n")
    );
}
