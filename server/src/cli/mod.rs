//! Command-line subcommands.

pub mod check;
pub mod eval;
pub mod fmt;
pub mod lookup;
pub mod parse;
pub mod problems;
pub mod source;
pub mod statistics;
pub mod types;
