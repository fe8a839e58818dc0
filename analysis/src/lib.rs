//! Semantic analysis of Puppet code.
//!
//! The semantic core is split into three layers that the evaluator builds on:
//! - [`values`]: the runtime value model (what an expression evaluates to), with
//!   Puppet's exact string forms;
//! - [`types`]: the Puppet type system (representation, display, assignability,
//!   inference, commonality, parameterization);
//! - [`ops`]: operator semantics over values (arithmetic, comparison, matching,
//!   `in`, access), with Puppet's errors.
//!
//! [`eval`] is the bounded constant evaluator over the typed AST built on them.
//!
//! The workspace layer is an incremental database ([`db`], salsa): file
//! [`summary`]s feed the definition [`index`]; [`workspace`] discovery says
//! which files and modules there are; [`diagnostics`] reports per file.

pub mod db;
pub mod diagnostics;
pub mod docs;
pub mod hiera;
pub mod hir;
pub mod host;
pub mod ide;
pub mod index;
pub mod infer;
pub mod module_facts;
pub mod ruby_plugins;
pub mod workspace;

// The runtime crate's modules, at the paths the semantic layers use.
pub use puppet_runtime::{builtins, eval, ops, types, values};
