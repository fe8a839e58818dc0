//! What an item declares and publishes, computed from its syntax or its
//! lowered body alone: its signature (kind, name, parameters and their
//! declared types, parent, return type), its documentation, and the names
//! it defines for others to find. Plain data: the database stores it as
//! each item's inputs, so it sits below the database.

pub mod published;
pub mod signature;
pub mod strings;

pub use published::{published, Published};
pub use signature::{normalized_text, DefKind, Documentation, ParamSummary, Signature};
pub use strings::DocStrings;
