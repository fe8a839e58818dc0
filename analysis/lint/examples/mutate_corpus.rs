//! Writes the mutated corpus (see `tests/mutations/mod.rs`) for
//! `tools/lint_oracle.rb`:
//!
//!     cargo run -p puppet-lint-checks --example mutate_corpus /tmp/mutated
//!     ruby tools/lint_oracle.rb /tmp/mutated > analysis/lint/test_data/puppet-lint-3-mutated.tsv

#[path = "../tests/mutations/mod.rs"]
mod mutations;

use std::path::{Path, PathBuf};

const CORPUS_ROOT: &str = "/usr/share/puppet/modules";

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "pp") {
            out.push(path);
        }
    }
}

fn main() {
    let target = PathBuf::from(std::env::args().nth(1).expect("usage: mutate_corpus DIR"));
    let mut paths = Vec::new();
    collect(Path::new(CORPUS_ROOT), &mut paths);
    for path in paths {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let relative = path.strip_prefix(CORPUS_ROOT).expect("under the corpus");
        let destination = target.join(relative);
        std::fs::create_dir_all(destination.parent().expect("a parent")).expect("writable");
        std::fs::write(&destination, mutations::mutate(&text)).expect("writable");
    }
}
