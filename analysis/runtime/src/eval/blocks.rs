//! How the built-in iteration functions call their block. Puppet picks, in
//! dispatch order, the first signature whose block parameter count the
//! lambda accepts (`each` tries `Callable[2,2]` before `Callable[1,1]`), and
//! rejects a lambda that no signature fits, whatever the collection holds.

use super::{Evaluator, Flow};
use crate::builtins::builtins_for;
use crate::hir::body::{Body, ExprId, LambdaId};
use crate::model::Type;
use crate::target::PuppetVersion;

/// The argument counts a lambda accepts: its required parameters, and all
/// of them (unbounded with a `*$rest` parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LambdaArity {
    pub min: usize,
    pub max: Option<usize>,
}

impl LambdaArity {
    /// The arity of lambda `l` of `body`.
    pub fn of(body: &Body, l: LambdaId) -> Self {
        let params = &body[l].params;
        let min = params
            .iter()
            .take_while(|p| p.default.is_none() && !p.rest)
            .count();
        let max = match params.last() {
            Some(p) if p.rest => None,
            _ => Some(params.len()),
        };
        LambdaArity { min, max }
    }

    fn accepts(self, n: usize) -> bool {
        n >= self.min && self.max.is_none_or(|m| n <= m)
    }

    /// Ruby's `Proc#arity` of the lambda: the number of parameters when all
    /// are required, else minus one more than the required ones.
    pub fn ruby_arity(self) -> i64 {
        match self.max {
            Some(m) if m == self.min => m as i64,
            _ => -(self.min as i64) - 1,
        }
    }

    /// The counts as Puppet's messages put them after "got".
    fn describe(self) -> String {
        match self.max {
            Some(m) if m == self.min => m.to_string(),
            None => format!("at least {}", self.min),
            Some(m) if self.min == 0 => format!("at most {m}"),
            Some(m) => format!("between {} and {m}", self.min),
        }
    }
}

/// The block parameter counts the signatures of built-in `fname` accept, in
/// dispatch order, from the generated table's block types (`Callable[2, 2]`
/// passes two arguments, `Callable[String]` one); empty when its block takes
/// any parameters (`with`, `slice`, `unwrap`: a bare `Callable`) or it takes
/// no block.
pub fn block_counts(version: PuppetVersion, fname: &str) -> Vec<usize> {
    let Some(function) = builtins_for(version).function(fname) else {
        return Vec::new();
    };
    let mut counts = Vec::new();
    for signature in &function.signatures {
        let Type::Callable(callable) = signature.callable() else {
            continue;
        };
        let Some(block) = callable.block.as_deref() else {
            continue;
        };
        match passed_count(block) {
            Some(n) if !counts.contains(&n) => counts.push(n),
            Some(_) => {}
            None => return Vec::new(),
        }
    }
    counts
}

/// How many arguments a block of this type is called with; `None` for a
/// bare `Callable` (any).
fn passed_count(block: &Type) -> Option<usize> {
    let block = match block {
        Type::Optional(Some(inner)) => inner,
        other => other,
    };
    let Type::Callable(callable) = block else {
        return None;
    };
    match callable.params.as_deref()? {
        Type::Tuple(types, size) => Some(match size.and_then(|s| s.to) {
            Some(max) => usize::try_from(max).ok()?,
            None => types.len(),
        }),
        _ => None,
    }
}

/// Whether `fname` also has signatures without a block, which makes
/// Puppet's message for a misfit block the general one.
fn has_blockless_signature(version: PuppetVersion, fname: &str) -> bool {
    builtins_for(version)
        .function(fname)
        .is_some_and(|f| f.signatures.iter().any(|s| s.block.is_none()))
}

/// "1 argument", "no arguments", "between 1 and 2 arguments".
fn expected_counts(counts: &[usize]) -> String {
    let lo = counts.iter().copied().min().unwrap_or(0);
    let hi = counts.iter().copied().max().unwrap_or(0);
    match (lo, hi) {
        (0, 0) => "no arguments".to_string(),
        (1, 1) => "1 argument".to_string(),
        (a, b) if a == b => format!("{a} arguments"),
        (a, b) => format!("between {a} and {b} arguments"),
    }
}

/// The number of arguments built-in `fname` passes to a lambda of `arity`:
/// the first of its [`block_counts`] the lambda accepts.
pub fn chosen_block_count(
    version: PuppetVersion,
    fname: &str,
    arity: LambdaArity,
) -> Option<usize> {
    first_accepted(&block_counts(version, fname), arity)
}

fn first_accepted(counts: &[usize], arity: LambdaArity) -> Option<usize> {
    counts.iter().copied().find(|&n| arity.accepts(n))
}

impl Evaluator {
    /// The number of arguments built-in `fname` passes to its lambda `l`
    /// (0 when its block takes any parameters), or Puppet's error when none
    /// of its signatures accepts the lambda.
    pub fn block_arg_count(&self, fname: &str, l: LambdaId, at: ExprId) -> Result<usize, Flow> {
        let counts = block_counts(self.target.version, fname);
        if counts.is_empty() {
            return Ok(0);
        }
        let arity = LambdaArity::of(&self.body, l);
        if let Some(n) = first_accepted(&counts, arity) {
            return Ok(n);
        }
        let detail = format!(
            "block expects {}, got {}",
            expected_counts(&counts),
            arity.describe()
        );
        Err(self.error(
            at,
            if has_blockless_signature(self.target.version, fname) {
                format!(
                    "The function '{fname}' was called with arguments it does not accept: its {detail}"
                )
            } else {
                format!("'{fname}' {detail}")
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts Puppet 7's dispatches give (`each` tries two parameters
    /// before one, `partition` one before two), read from the table.
    #[test]
    fn block_counts_come_from_the_dispatches() {
        let expected: &[(&str, &[usize])] = &[
            ("each", &[2, 1]),
            ("map", &[2, 1]),
            ("filter", &[2, 1]),
            ("any", &[2, 1]),
            ("all", &[2, 1]),
            ("index", &[2, 1]),
            ("tree_each", &[2, 1]),
            ("partition", &[1, 2]),
            ("group_by", &[1, 2]),
            ("reverse_each", &[1]),
            ("step", &[1]),
            ("then", &[1]),
            ("unique", &[1]),
            ("get", &[1]),
            ("convert_to", &[1]),
            ("reduce", &[2]),
            ("sort", &[2]),
            ("max", &[2]),
            ("min", &[2]),
            ("assert_type", &[2]),
            ("lest", &[0]),
            ("with", &[]),
            ("slice", &[]),
            ("unwrap", &[]),
            ("notice", &[]),
            ("no_such_function", &[]),
        ];
        for (name, counts) in expected {
            assert_eq!(block_counts(PuppetVersion::V7, name), *counts, "{name}");
        }
        for version in PuppetVersion::ALL {
            assert!(has_blockless_signature(version, "index"));
            assert!(has_blockless_signature(version, "min"));
            assert!(!has_blockless_signature(version, "each"));
        }
    }
}
