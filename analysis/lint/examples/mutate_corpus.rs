//! Writes the mutated corpus (see `tests/mutations/mod.rs`) for
//! `tools/lint_oracle.rb`:
//!
//!     cargo run -p puppet-lint-checks --example mutate_corpus /tmp/mutated
//!     ruby tools/lint_oracle.rb /tmp/mutated > analysis/lint/test_data/puppet-lint-3-mutated.tsv

#[path = "../tests/corpus/mod.rs"]
mod corpus;
#[path = "../tests/mutations/mod.rs"]
mod mutations;

use std::path::{Path, PathBuf};

fn main() {
    let target = PathBuf::from(std::env::args().nth(1).expect("usage: mutate_corpus DIR"));
    for path in corpus::manifests(Path::new(corpus::ROOT)) {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let relative = path.strip_prefix(corpus::ROOT).expect("under the corpus");
        let destination = target.join(relative);
        std::fs::create_dir_all(destination.parent().expect("a parent")).expect("writable");
        std::fs::write(&destination, mutations::mutate(&text)).expect("writable");
    }
}
