//! Hiera: the data half of a Puppet code base. Environments and modules
//! configure a hierarchy in `hiera.yaml` ([`config`]); its levels name data
//! files (YAML, JSON, eYAML) whose keys bind class parameters (automatic
//! parameter lookup of `class::param`) and answer `lookup()` calls.
//!
//! Files are read with positions ([`yaml`]); what other analyses need is
//! position-free (the keys a file binds), so that editing a value does not
//! invalidate the code that only asks whether a key exists.

pub mod calls;
pub mod config;
pub mod data;
pub mod interpolation;
pub mod layers;
pub mod lookup;
pub mod value;
pub mod yaml;

use std::path::Path;

/// Whether a path is a Hiera configuration (rather than a data file).
pub fn is_config(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "hiera.yaml")
}
