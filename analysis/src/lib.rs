//! The semantic layer of Puppet code, on an incremental database: the
//! lowered model per item and the definition [`index`], name resolution
//! ([`hir`]), inference ([`infer`]), [`diagnostics`], workspace discovery
//! ([`workspace`]), Hiera data ([`hiera`]), modules' `metadata.json`
//! ([`metadata`]), Ruby plugins and facts.
//! [`host`] owns the database (`AnalysisHost`: files in, edits applied) and
//! hands out read-only snapshots (`Analysis`); the IDE features on top are
//! the `puppet-ide` crate. The Puppet runtime (values, types, operators, the
//! evaluator, built-ins) is `puppet-runtime`, re-exported below at the paths
//! the semantic code uses.

pub mod db;
pub mod declared;
pub mod diagnostics;
pub mod docs;
pub mod hiera;
pub mod hir;
pub mod host;
pub mod index;
pub mod infer;
pub mod layout;
pub mod links;
pub mod metadata;
pub mod module_facts;
pub mod resolve;
pub mod ruby_plugins;
pub mod stdlib;
pub mod version_detection;
pub mod workspace;

// The runtime crate's modules, at the paths the semantic layers use.
pub use puppet_runtime::{builtins, eval, model, ops, semver, target, types, values};
