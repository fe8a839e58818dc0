//! Operator semantics over values, with Puppet's errors.
//!
//! Entry points the evaluator calls: [`arith::binary`] / [`arith::unary_minus`]
//! for `+ - * / % << >>`, [`compare::equals`] / [`compare::compare_op`] for
//! `== != < <= > >=`, [`matching::match_op`] for `=~`/`!~`,
//! [`matching::in_op`] for `in`, [`access::access`] for `[]`, and
//! [`Value::is_truthy`](crate::model::Value::is_truthy) for `! and or`.

pub mod access;
pub mod arith;
pub mod compare;
pub mod matching;

pub use access::access;
pub use arith::{binary, unary_minus, ArithOp};
pub use compare::{compare_op, equals, CompareOp};
pub use matching::{in_op, match_op, MatchData, MatchOutcome};

use crate::model::Value;
use crate::target::Strict;

/// Why an operation produced no value.
#[derive(Clone, Debug, PartialEq)]
pub enum OpError {
    /// Puppet raises this error (message informative, close to Puppet's).
    Error(String),
    /// The result cannot be computed statically (Ruby-only regexp, catalog
    /// lookups...); not a user error.
    Unsupported(String),
}

impl OpError {
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            OpError::Error(m) | OpError::Unsupported(m) => m,
        }
    }
}

impl From<crate::types::parameterize::AccessError> for OpError {
    fn from(e: crate::types::parameterize::AccessError) -> Self {
        match e {
            crate::types::parameterize::AccessError::Error(m) => OpError::Error(m),
            crate::types::parameterize::AccessError::Unsupported(m) => OpError::Unsupported(m),
        }
    }
}

/// Puppet's `NUMERIC_COERCION` issue (a string used as a number, `'1' +
/// 1`) under `strict`: silent when `off`, a warning when `warning` (Puppet
/// 7's default), the evaluation fails with the same message when `error`
/// (Puppet 8's default).
pub(crate) fn numeric_coercion(
    strict: Strict,
    before: &str,
    after: &str,
    warnings: &mut Vec<String>,
) -> Result<(), OpError> {
    let message =
        format!("The string '{before}' was automatically coerced to the numerical value {after}");
    match strict {
        Strict::Off => Ok(()),
        Strict::Warning => {
            warnings.push(message);
            Ok(())
        }
        Strict::Error => Err(OpError::Error(message)),
    }
}

/// Whether a message is Puppet's `NUMERIC_COERCION` (as a warning, or the
/// error it is under `strict = error`).
pub fn is_numeric_coercion(message: &str) -> bool {
    message.starts_with("The string '")
        && message.contains("' was automatically coerced to the numerical value ")
}

/// A value plus the warnings Puppet logs while computing it (for example
/// string-to-number coercion).
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluated {
    /// The result.
    pub value: Value,
    /// Warning messages.
    pub warnings: Vec<String>,
}

impl Evaluated {
    /// A result without warnings.
    pub fn plain(value: Value) -> Self {
        Evaluated {
            value,
            warnings: Vec::new(),
        }
    }
}
