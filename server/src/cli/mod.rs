//! Command-line subcommands.

pub mod eval;
pub mod parse;
pub mod source;
