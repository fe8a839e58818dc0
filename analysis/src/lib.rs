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

pub mod eval;
pub mod ops;
pub mod types;
pub mod values;
