//! Equality and ordering: `== != < <= > >=`.

use std::cmp::Ordering;

use super::OpError;
use crate::model::{Type, Value};
use crate::types::TypeSystem;
pub use crate::values::equality::{casecmp, equals, int_float_cmp};

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CompareOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            CompareOp::Eq => "==",
            CompareOp::Ne => "!=",
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
        }
    }
}

fn cmp_values(a: &Value, b: &Value) -> Result<Ordering, String> {
    let nan = || "comparison with NaN".to_string();
    match a {
        Value::String(x) => match b {
            Value::String(y) => Ok(casecmp(x, y)),
            _ => Err("A String is not comparable to a non String".into()),
        },
        Value::Integer(_) | Value::Float(_) => match b {
            Value::Integer(_) | Value::Float(_) => match (a, b) {
                (Value::Integer(i), Value::Integer(j)) => Ok(i.cmp(j)),
                (Value::Integer(i), Value::Float(f)) => int_float_cmp(*i, *f).ok_or_else(nan),
                (Value::Float(f), Value::Integer(i)) => {
                    int_float_cmp(*i, *f).map(Ordering::reverse).ok_or_else(nan)
                }
                _ => as_f64(a).partial_cmp(&as_f64(b)).ok_or_else(nan),
            },
            Value::Timespan(_) | Value::Timestamp(_) => cmp_values(b, a).map(Ordering::reverse),
            _ => Err("A Numeric is not comparable to non Numeric".into()),
        },
        Value::Timespan(t) => match b {
            Value::Timespan(u) => Ok(t.cmp(u)),
            Value::Integer(i) => Ok(t.nanos.div_euclid(1_000_000_000).cmp(&(*i as i128))),
            Value::Float(f) => t.to_f64().partial_cmp(f).ok_or_else(nan),
            _ => Err("Timespans are only comparable to Timespans, Integers, and Floats".into()),
        },
        Value::Timestamp(t) => match b {
            Value::Timestamp(u) => Ok(t.cmp(u)),
            Value::Integer(i) => Ok(t.nanos.div_euclid(1_000_000_000).cmp(&(*i as i128))),
            Value::Float(f) => t.to_f64().partial_cmp(f).ok_or_else(nan),
            _ => Err("Timestamps are only comparable to Timestamps, Integers, and Floats".into()),
        },
        Value::SemVer(v) => match b {
            Value::SemVer(w) => Ok(v.compare(w)),
            _ => Err("Versions not comparable to non Versions".into()),
        },
        Value::Default => match b {
            Value::Default => Ok(Ordering::Equal),
            _ => Err("Symbol not comparable to non Symbol".into()),
        },
        _ => {
            Err("Only Strings, Numbers, Timespans, Timestamps, and Versions are comparable".into())
        }
    }
}

fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Integer(i) => *i as f64,
        Value::Float(f) => *f,
        _ => f64::NAN,
    }
}

fn cmp_label(v: &Value) -> String {
    match v {
        Value::Type(t) => format!("{}-Type", t),
        other => other.label(),
    }
}

/// Puppet answers whether a string type with a value (`String['x']`, only
/// reachable as `Optional['x']` or `NotUndef['x']`) is assignable from a
/// single-valued, case-sensitive `Enum` with that enum's value rather than
/// `true`; `Optional` and `NotUndef` pass the answer through. Returns the
/// value in that case.
fn leaked_enum_value(l: &Type, r: &Type) -> Option<String> {
    use crate::model::StringParam;
    match (l, r) {
        (Type::Optional(Some(inner)), Type::Optional(Some(ri))) => leaked_enum_value(inner, ri),
        (Type::Optional(Some(inner)) | Type::NotUndef(Some(inner)), r) => {
            leaked_enum_value(inner, r)
        }
        (Type::String(StringParam::Value(_)), Type::Enum(e))
            if e.values.len() == 1 && !e.case_insensitive =>
        {
            e.values.first().cloned()
        }
        _ => None,
    }
}

/// Evaluates a comparison operator. With a type on the left, `<`/`>` mean
/// proper sub/super type and `==` means the same type (mutual assignability).
/// Unknown operands give `Value::Unknown(Boolean)`.
pub fn compare_op(
    op: CompareOp,
    left: &Value,
    right: &Value,
    ts: &TypeSystem<'_>,
) -> Result<Value, OpError> {
    if left.is_unknown() || right.is_unknown() {
        return Ok(Value::Unknown(Type::boolean()));
    }
    if let Value::Type(l) = left {
        let r = match right {
            Value::Type(r) => Some(r),
            _ => None,
        };
        let eq = r.is_some_and(|r| ts.equal(l, r));
        let r_ge_l = r.is_some_and(|r| ts.assignable(r, l));
        let l_ge_r = r.is_some_and(|r| ts.assignable(l, r));
        // `<=` and `>=` answer with Ruby's raw assignability, which is a
        // string in one case (see `leaked_enum_value`)
        match (op, r) {
            (CompareOp::Ge, Some(r)) if l_ge_r => {
                if let Some(v) = leaked_enum_value(l, r) {
                    return Ok(Value::String(v));
                }
            }
            (CompareOp::Le, Some(r)) if r_ge_l => {
                if let Some(v) = leaked_enum_value(r, l) {
                    return Ok(Value::String(v));
                }
            }
            _ => {}
        }
        let b = match op {
            CompareOp::Eq => eq,
            CompareOp::Ne => !eq,
            CompareOp::Lt => r_ge_l && !eq,
            CompareOp::Le => r_ge_l,
            CompareOp::Gt => l_ge_r && !eq,
            CompareOp::Ge => l_ge_r,
        };
        return Ok(Value::Boolean(b));
    }
    let b = match op {
        CompareOp::Eq => equals(left, right),
        CompareOp::Ne => !equals(left, right),
        _ => {
            let ord = cmp_values(left, right).map_err(|detail| {
                OpError::Error(format!(
                    "Comparison of: {} {} {}, is not possible. Caused by '{}'.",
                    cmp_label(left),
                    op.symbol(),
                    cmp_label(right),
                    detail
                ))
            })?;
            match op {
                CompareOp::Lt => ord == Ordering::Less,
                CompareOp::Le => ord != Ordering::Greater,
                CompareOp::Gt => ord == Ordering::Greater,
                _ => ord != Ordering::Less,
            }
        }
    };
    Ok(Value::Boolean(b))
}
