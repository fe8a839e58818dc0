//! The Puppet runtime, without IO and without a database: what Puppet
//! computes, statically.
//!
//! The modules, bottom up; each uses only modules listed before it:
//!
//! - [`regexp`], [`semver`], [`time`]: the scalar kinds values and types
//!   are built from (Ruby regexps, semantic versions and ranges, timespans
//!   and timestamps), each standalone;
//! - [`model`]: the data, [`model::Value`] (what an expression evaluates
//!   to) and [`model::Type`] (every Puppet type), defined in terms of each
//!   other;
//! - [`values`]: operations on values, with Puppet's exact string forms;
//! - [`types`]: the type system's operations (display, assignability,
//!   inference, commonality, parameterization);
//! - [`ops`]: operator semantics over values, with Puppet's errors;
//! - [`hir`]: the lowered model of a body that the evaluator runs;
//! - [`builtins`]: the built-in tables (functions, resource types, facts,
//!   generated from Puppet itself), plain data;
//! - [`eval`]: the bounded constant evaluator, which consults the tables
//!   and reads their type strings back as types.
//!
//! [`target`] (the Puppet version and compiler settings checked for) is
//! plain data that the tables and the evaluator read.

pub mod builtins;
pub mod eval;
pub mod hir;
pub mod model;
pub mod ops;
pub mod regexp;
pub mod semver;
pub mod target;
pub mod time;
pub mod types;
pub mod values;
