//! What the analysis benches share: where the corpus is and how figures
//! are summarised.

use std::path::PathBuf;
use std::time::Duration;

/// The corpus to measure on (`PUPPET_CORPUS`, by default Debian's), or
/// `None` after saying why the bench does nothing.
pub fn corpus_root() -> Option<PathBuf> {
    let root = PathBuf::from(
        std::env::var("PUPPET_CORPUS").unwrap_or_else(|_| "/usr/share/puppet/modules".into()),
    );
    if root.is_dir() {
        Some(root)
    } else {
        println!("corpus not installed at {}: skipped", root.display());
        None
    }
}

/// The `p` quantile of sorted durations.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}
