//! The access operator `[]` on strings, arrays, hashes and types.

use super::{numeric_coercion, Evaluated, OpError};
use crate::model::{Type, Value};
use crate::target::Strict;
use crate::types::{generalize, infer, parameterize_access};
use crate::values::a_an;
use crate::values::convert::{string_to_number, Number};

fn err<T>(m: impl Into<String>) -> Result<T, OpError> {
    Err(OpError::Error(m.into()))
}

fn key_type_name(v: &Value) -> String {
    match v {
        Value::Undef => "Undef".into(),
        Value::Default => "Default".into(),
        other => generalize(&infer(other)).to_string(),
    }
}

fn flatten(keys: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for k in keys {
        match k {
            Value::Array(a) => out.extend(flatten(a)),
            o => out.push(o.clone()),
        }
    }
    out
}

/// `Utils.to_n` for string indexes (no warning).
fn string_index(v: &Value) -> Result<i64, OpError> {
    let n = match v {
        Value::Integer(i) => return Ok(*i),
        Value::String(s) => string_to_number(s),
        _ => None,
    };
    match n {
        Some(Number::Int(i)) => i64::try_from(i).map_err(|_| OpError::Error("index out of range".into())),
        Some(Number::Float(_)) => {
            err("A substring operation does not accept a Float as a character index. Expected an Integer")
        }
        None => {
            let t = key_type_name(v);
            err(format!(
                "A substring operation does not accept {} as a character index. Expected an Integer",
                a_an(&t)
            ))
        }
    }
}

/// Ruby's `array[start, len]` on a char/element sequence, with Puppet's
/// handling of negative start and count.
fn slice_range(len: i64, k1: i64, k2: i64) -> Option<(usize, usize)> {
    let mut start = if k1 < 0 { len + k1 } else { k1 };
    let mut count = if k2 < 0 { len - start + k2 + 1 } else { k2 };
    if start < 0 {
        count += start;
        start = 0;
    }
    if start > len || count < 0 {
        return None;
    }
    let end = (start + count).min(len);
    Some((start as usize, end as usize))
}

/// An array index: a string that reads as a number is coerced first, as
/// `strict` lets it be (Puppet's `coerce_numeric`), then must be an Integer.
fn array_index(v: &Value, strict: Strict, warnings: &mut Vec<String>) -> Result<i64, OpError> {
    match v {
        Value::Integer(i) => Ok(*i),
        Value::String(s) => match string_to_number(s) {
            Some(Number::Int(i)) => {
                numeric_coercion(strict, s, &i.to_string(), warnings)?;
                i64::try_from(i).map_err(|_| OpError::Error("index out of range".into()))
            }
            Some(Number::Float(f)) => {
                numeric_coercion(
                    strict,
                    s,
                    &crate::values::float::ruby_float_to_s(f),
                    warnings,
                )?;
                err("An Array[] cannot use Float where Integer is expected")
            }
            None => err(format!("The value '{}' cannot be converted to Numeric.", s)),
        },
        Value::Float(_) => err("An Array[] cannot use Float where Integer is expected"),
        other => err(format!(
            "The value '{}' cannot be converted to Numeric.",
            crate::values::format::ruby_to_s(other)
        )),
    }
}

/// Evaluates `target[keys...]`; an array index given as a numeric string
/// is coerced as `strict` lets it be.
pub fn access(target: &Value, keys: &[Value], strict: Strict) -> Result<Evaluated, OpError> {
    if target.is_unknown() || keys.iter().any(Value::is_unknown) {
        // One key may name a missing element or key (`undef`); more keys
        // give a slice or the values found.
        let t = match (target, keys.len()) {
            (Value::Unknown(Type::Array(e, _)), 1) => Type::optional((**e).clone()),
            (Value::Unknown(Type::Hash(_, v, _)), 1) => Type::optional((**v).clone()),
            (Value::Unknown(Type::Array(e, _)), _) => Type::array_of((**e).clone()),
            (Value::Unknown(Type::String(_)) | Value::String(_), _) => Type::string(),
            _ => Type::Any,
        };
        return Ok(Evaluated::plain(Value::Unknown(t)));
    }
    match target {
        Value::String(s) => {
            let keys = flatten(keys);
            let chars: Vec<char> = s.chars().collect();
            let len = chars.len() as i64;
            let out = match keys.len() {
                1 => {
                    let k1 = string_index(&keys[0])?;
                    let start = if k1 < 0 { len + k1 } else { k1 };
                    if start < 0 || start >= len {
                        String::new()
                    } else {
                        chars[start as usize].to_string()
                    }
                }
                2 => {
                    let k1 = string_index(&keys[0])?;
                    let k2 = string_index(&keys[1])?;
                    match slice_range(len, k1, k2) {
                        Some((a, b)) if a < b => chars[a..b].iter().collect(),
                        _ => String::new(),
                    }
                }
                n => {
                    return err(format!(
                        "String supports [] with one or two arguments. Got {}",
                        n
                    ))
                }
            };
            Ok(Evaluated::plain(Value::String(out)))
        }
        Value::Array(a) => {
            let keys = flatten(keys);
            let mut warnings = Vec::new();
            let len = a.len() as i64;
            let value = match keys.len() {
                1 => {
                    let k = array_index(&keys[0], strict, &mut warnings)?;
                    let i = if k < 0 { len + k } else { k };
                    if i < 0 || i >= len {
                        Value::Undef
                    } else {
                        a[i as usize].clone()
                    }
                }
                2 => {
                    let k1 = array_index(&keys[0], strict, &mut warnings)?;
                    let k2 = array_index(&keys[1], strict, &mut warnings)?;
                    match slice_range(len, k1, k2) {
                        Some((x, y)) if x < y => Value::Array(a[x..y].to_vec()),
                        _ => Value::Array(Vec::new()),
                    }
                }
                n => {
                    return err(format!(
                        "Array supports [] with one or two arguments. Got {}",
                        n
                    ))
                }
            };
            Ok(Evaluated { value, warnings })
        }
        Value::Hash(h) => {
            if keys.is_empty() {
                return err("Hash supports [] with one or more arguments. Got 0");
            }
            let found: Vec<Value> = keys
                .iter()
                .map(|k| h.get(k).cloned().unwrap_or(Value::Undef))
                .collect();
            if found.len() == 1 {
                Ok(Evaluated::plain(
                    found.into_iter().next().unwrap_or(Value::Undef),
                ))
            } else {
                Ok(Evaluated::plain(Value::Array(
                    found
                        .into_iter()
                        .filter(|v| !matches!(v, Value::Undef))
                        .collect(),
                )))
            }
        }
        Value::Type(t) => Ok(Evaluated::plain(parameterize_access(t, keys)?)),
        Value::Binary(_) => Err(OpError::Unsupported(
            "Binary slicing is not evaluated statically".into(),
        )),
        other => err(format!(
            "Operator '[]' is not applicable to {}.",
            other.a_label()
        )),
    }
}
