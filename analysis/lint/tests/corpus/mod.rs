//! The real-world corpus (Debian's Puppet modules) for the parity and fix
//! suites and the examples that prepare their data.

#![allow(dead_code)] // each user takes what it needs

use std::path::{Path, PathBuf};

/// Where `../shared/corpus/install-corpus.sh` installs the corpus.
pub const ROOT: &str = "/usr/share/puppet/modules";

/// Whether the corpus is installed. Where it is required (`CI` or
/// `PUPPET_LS_REQUIRE_CORPUS` set, as `.ci/run` does) a missing corpus
/// fails; elsewhere the caller skips, and this says so.
pub fn installed() -> bool {
    if Path::new(ROOT).join("stdlib").is_dir() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none() && std::env::var_os("PUPPET_LS_REQUIRE_CORPUS").is_none(),
        "the corpus must be installed on CI (.ci/run installs it)"
    );
    eprintln!("SKIPPED: the real-world corpus is not installed");
    false
}

/// Every `.pp` file under `dir` (following symbolic links), sorted.
pub fn manifests(dir: &Path) -> Vec<PathBuf> {
    puppet_vfs::DiskFs.files_under(dir, &["pp"])
}
