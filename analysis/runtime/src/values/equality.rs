//! Puppet's `==` on values (case-insensitive strings, numeric promotion,
//! deep collections), and the comparisons it rests on. A value-only
//! question: the type system asks it too (an `Enum` or a literal in a type
//! is matched by equality), so it lives with the values, below both.

use std::cmp::Ordering;

use crate::model::Value;

/// ASCII-only case folding comparison (Ruby's `casecmp`).
pub fn casecmp(a: &str, b: &str) -> Ordering {
    let fa = a.bytes().map(|c| c.to_ascii_lowercase());
    let fb = b.bytes().map(|c| c.to_ascii_lowercase());
    fa.cmp(fb)
}

fn is_numeric(v: &Value) -> bool {
    matches!(
        v,
        Value::Integer(_) | Value::Float(_) | Value::Timespan(_) | Value::Timestamp(_)
    )
}

/// Exact comparison of an integer with a float, as Ruby does (no rounding of
/// the integer to the nearest double).
pub fn int_float_cmp(i: i64, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f >= 9.3e18 {
        return Some(Ordering::Less);
    }
    if f <= -9.3e18 {
        return Some(Ordering::Greater);
    }
    let t = f.trunc();
    match (i as i128).cmp(&(t as i128)) {
        Ordering::Equal => 0.0f64.partial_cmp(&(f - t)),
        o => Some(o),
    }
}

fn num_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x == y,
        (Value::Integer(x), Value::Float(y)) | (Value::Float(y), Value::Integer(x)) => {
            int_float_cmp(*x, *y) == Some(Ordering::Equal)
        }
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Timespan(x), Value::Timespan(y)) => x == y,
        (Value::Timestamp(x), Value::Timestamp(y)) => x == y,
        (Value::Timespan(t), Value::Integer(i)) | (Value::Integer(i), Value::Timespan(t)) => {
            t.nanos.div_euclid(1_000_000_000) == *i as i128
        }
        (Value::Timestamp(t), Value::Integer(i)) | (Value::Integer(i), Value::Timestamp(t)) => {
            t.nanos.div_euclid(1_000_000_000) == *i as i128
        }
        (Value::Timespan(t), Value::Float(f)) | (Value::Float(f), Value::Timespan(t)) => {
            t.to_f64() == *f
        }
        (Value::Timestamp(t), Value::Float(f)) | (Value::Float(f), Value::Timestamp(t)) => {
            t.to_f64() == *f
        }
        _ => false,
    }
}

/// Puppet's `==` on values: case-insensitive (ASCII) strings, numeric
/// promotion, deep comparison of collections; types compare structurally here
/// (the `==` operator with a type on the left uses [`compare_op`]).
pub fn equals(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => casecmp(x, y) == Ordering::Equal,
        (Value::String(_), _) => false,
        (x, y) if is_numeric(x) => is_numeric(y) && num_eq(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equals(p, q))
        }
        (Value::Hash(x), Value::Hash(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| equals(y.get(k).unwrap_or(&Value::Undef), v))
        }
        (Value::Undef, Value::Undef) => true,
        _ => a.strict_eq(b),
    }
}
