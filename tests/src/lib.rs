//! Shared helpers for the conformance suites: where the real-world corpus
//! is installed and what Puppet 7 said about each file.

use std::path::{Path, PathBuf};

/// Where Debian installs the corpus; paths in the verdict table are
/// relative to it.
pub const CORPUS_ROOT: &str = "/usr/share/puppet/modules";

/// Puppet 7.23's verdict on one corpus file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Path relative to `CORPUS_ROOT`.
    pub path: String,
    pub bytes: u64,
    /// `ok`, `syntax-error` or `validation-error`.
    pub verdict: String,
    /// Puppet's first error, `LINE:COL [CODE] message`, or empty.
    pub error: String,
}

impl Verdict {
    pub fn full_path(&self) -> PathBuf {
        Path::new(CORPUS_ROOT).join(&self.path)
    }

    /// Whether Puppet accepts the file as a parser test: `ok`, plus the one
    /// `validation-error` that only fails because loading it would redefine
    /// Puppet's own `Puppet::AST` type set.
    pub fn accepted(&self) -> bool {
        self.verdict == "ok" || self.path.ends_with("pops/model/ast.pp")
    }
}

/// The verdict table checked into this repository.
pub fn verdicts() -> Vec<Verdict> {
    let table = include_str!("../data/corpus-verdicts.tsv");
    table
        .lines()
        .skip(1)
        .filter(|line| !line.is_empty())
        .map(|line| {
            let mut fields = line.splitn(4, '\t');
            let mut next = || fields.next().unwrap_or_default().to_string();
            Verdict {
                path: next(),
                bytes: next().parse().unwrap_or(0),
                verdict: next(),
                error: next(),
            }
        })
        .collect()
}

/// Whether the corpus is installed here (the checksums of a few known files
/// are not checked; sizes are compared by the suite itself).
///
/// Where the corpus is required (`PUPPET_LS_REQUIRE_CORPUS` set, as
/// `.ci/run` does, or `CI`), a missing corpus fails instead of skipping.
pub fn corpus_installed() -> bool {
    let installed = Path::new(CORPUS_ROOT).join("stdlib").is_dir();
    assert!(
        installed || !corpus_required(),
        "the corpus must be installed here (../shared/corpus/install-corpus.sh)"
    );
    installed
}

/// True where a corpus test may not skip (CI).
pub fn corpus_required() -> bool {
    std::env::var_os("PUPPET_LS_REQUIRE_CORPUS").is_some() || std::env::var_os("CI").is_some()
}
