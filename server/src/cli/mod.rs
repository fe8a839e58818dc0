//! Command-line subcommands.

pub mod parse;
pub mod source;
