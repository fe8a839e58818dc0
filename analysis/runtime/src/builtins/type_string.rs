//! Turning the table's Puppet type strings (`Variant[String, Array[String]]`)
//! into [`Type`]s.
//!
//! The generator writes types exactly as Puppet prints them, so the
//! project's own evaluator reads them back: one parser for user code and for
//! built-ins. Names the evaluator does not know (Puppet-internal object types
//! such as `Puppet::LookupContext`) become [`Type::TypeReference`].

use crate::eval::{Evaluator, Limits};
use crate::types::Type;
use crate::values::Value;

/// The type a type string denotes; never fails.
pub fn parse_type(text: &str) -> Type {
    let text = text.trim();
    if let Some(t) = Type::from_name(text) {
        return t;
    }
    let limits = Limits {
        max_steps: 10_000,
        max_depth: 64,
        max_collection: 1_000,
    };
    match Evaluator::new(limits).eval_source(text).value {
        Some(Value::Type(t)) => t,
        _ => Type::TypeReference(text.to_string()),
    }
}
