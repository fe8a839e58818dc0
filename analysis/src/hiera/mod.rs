//! Hiera: the data half of a Puppet code base. Environments and modules
//! configure a hierarchy in `hiera.yaml` ([`config`]); its levels name data
//! files (YAML, JSON, eYAML) whose keys bind class parameters (automatic
//! parameter lookup of `class::param`) and answer `lookup()` calls.
//!
//! Files are read with positions ([`yaml`]); what other analyses need is
//! position-free (the keys a file binds), so that editing a value does not
//! invalidate the code that only asks whether a key exists.

pub mod config;
pub mod yaml;

use crate::db::{DataFile, Workspace};
use std::collections::BTreeSet;
use std::path::Path;

/// Whether a path is a Hiera configuration (rather than a data file).
pub fn is_config(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "hiera.yaml")
}

/// The top-level keys a data file binds (none for `hiera.yaml`, or when
/// the file does not parse).
#[salsa::tracked(returns(ref))]
pub fn data_file_keys(db: &dyn salsa::Database, file: DataFile) -> Vec<String> {
    if is_config(file.path(db)) {
        return Vec::new();
    }
    let doc = yaml::parse(file.text(db));
    doc.root
        .iter()
        .flat_map(|root| root.entries())
        .filter_map(|(key, _)| key.as_str())
        .map(|key| key.trim_start_matches("::").to_string())
        .collect()
}

/// Every key bound by some data file of the workspace (any level of any
/// hierarchy: for the question "can Hiera give this a value?").
#[salsa::tracked(returns(ref))]
pub fn hiera_keys(db: &dyn salsa::Database, workspace: Workspace) -> BTreeSet<String> {
    workspace
        .data_files(db)
        .iter()
        .flat_map(|&file| data_file_keys(db, file).iter().cloned())
        .collect()
}
