//! One evaluation case as `puppet-ls eval --jsonl` and the conformance test
//! see it: source in, printed value, printed type and error out. Keeping it
//! here gives the CLI and the test a single code path.

use super::{Evaluator, Limits, Outcome};
use crate::model::Value;
use crate::target::Target;
use crate::types::infer_set;
use crate::values::format::to_programmatic;

/// The result of evaluating one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseRecord {
    /// The value in `%p` form; `None` when unknown, unsupported or on error.
    pub value: Option<String>,
    /// The value's `type()`; `None` when unknown, unsupported or on error.
    pub type_: Option<String>,
    /// The error message, when Puppet would raise one.
    pub error: Option<String>,
    /// Set when the result cannot be computed statically.
    pub unsupported: Option<String>,
    /// The warnings Puppet would log (string-to-number coercions).
    pub warnings: Vec<String>,
}

/// Stack size for the evaluation thread: deep user nesting must hit the
/// evaluator's depth limit, never the thread's stack.
const STACK_SIZE: usize = 256 * 1024 * 1024;

/// Evaluates `source` with default limits as a whole program (no modules:
/// unknown functions are errors), in a thread with a large stack, as the
/// default target Puppet.
pub fn eval_case(source: &str) -> CaseRecord {
    eval_case_as(source, Target::default())
}

/// [`eval_case`] as the given Puppet (its version and `strict`).
pub fn eval_case_as(source: &str, target: Target) -> CaseRecord {
    let src = source.to_string();
    let handle = std::thread::Builder::new()
        .stack_size(STACK_SIZE)
        .spawn(move || {
            let mut ev = Evaluator::new(Limits::default());
            ev.target = target;
            // a case is a whole `puppet apply -e` program, without modules
            ev.set_closed_world(true);
            record(ev.eval_source(&src))
        });
    match handle.map(|h| h.join()) {
        Ok(Ok(r)) => r,
        _ => CaseRecord {
            value: None,
            type_: None,
            error: None,
            unsupported: Some("internal error while evaluating".into()),
            warnings: Vec::new(),
        },
    }
}

/// Converts an outcome to its record.
pub fn record(outcome: Outcome) -> CaseRecord {
    let warnings = outcome.warnings;
    if let Some(e) = outcome.error {
        return CaseRecord {
            value: None,
            type_: None,
            error: Some(e.message),
            unsupported: None,
            warnings,
        };
    }
    match outcome.value {
        Some(v) if !v.is_unknown() => CaseRecord {
            value: Some(to_programmatic(&v)),
            // printed as `String(type($v))`: a type at top level
            type_: Some(to_programmatic(&Value::Type(infer_set(&v)))),
            error: None,
            unsupported: None,
            warnings,
        },
        _ => CaseRecord {
            value: None,
            type_: None,
            error: None,
            unsupported: outcome
                .unsupported
                .or_else(|| Some("the value is not known statically".into())),
            warnings,
        },
    }
}
