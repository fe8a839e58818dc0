//! Pattern matching (`=~`, `!~`) and the `in` operator.

use super::compare::equals;
use super::OpError;
use crate::model::{Type, Value};
use crate::regexp::{RegexError, Regexp};
use crate::semver::{Version, VersionRange};
use crate::types::TypeSystem;

/// What a match does to the numeric match variables `$0..$n`.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchData {
    /// The variables are untouched (type or version-range matches).
    Unchanged,
    /// A regexp was applied and did not match: the variables are cleared.
    Cleared,
    /// A regexp matched: `$0..$n` (unmatched groups are `None`, i.e. undef).
    Set(Vec<Option<String>>),
}

/// The outcome of `=~` or `in`.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchOutcome {
    /// Whether it matched (`None` when unknown statically).
    pub matched: Option<bool>,
    /// Effect on the match variables.
    pub data: MatchData,
}

impl MatchOutcome {
    fn known(matched: bool) -> Self {
        MatchOutcome {
            matched: Some(matched),
            data: MatchData::Unchanged,
        }
    }
}

fn regex_err(e: RegexError) -> OpError {
    match e {
        RegexError::Invalid(m) => OpError::Error(m),
        RegexError::Unsupported(m) => OpError::Unsupported(m),
    }
}

fn run_regexp(re: &Regexp, s: &str) -> Result<MatchOutcome, OpError> {
    match re.captures(s).map_err(regex_err)? {
        Some(groups) => Ok(MatchOutcome {
            matched: Some(true),
            data: MatchData::Set(groups),
        }),
        None => Ok(MatchOutcome {
            matched: Some(false),
            data: MatchData::Cleared,
        }),
    }
}

/// `include?` of a version range for a SemVer or a version string.
pub fn range_includes(range: &VersionRange, v: &Value) -> bool {
    match v {
        Value::SemVer(ver) => range.includes(ver),
        Value::String(s) => Version::parse(s).is_ok_and(|ver| range.includes(&ver)),
        _ => false,
    }
}

/// `left =~ right` (negate `matched` for `!~`).
pub fn match_op(left: &Value, right: &Value, ts: &TypeSystem<'_>) -> Result<MatchOutcome, OpError> {
    if let Value::Type(t) = right {
        return Ok(MatchOutcome {
            matched: ts.instance_of(t, left),
            data: MatchData::Unchanged,
        });
    }
    if let Value::SemVerRange(r) = right {
        if left.is_unknown() {
            return Ok(MatchOutcome {
                matched: None,
                data: MatchData::Unchanged,
            });
        }
        return Ok(MatchOutcome::known(range_includes(r, left)));
    }
    let re = match right {
        Value::Regexp(r) => r.clone(),
        Value::String(s) => Regexp::try_new(s).map_err(|e| match e {
            RegexError::Invalid(m) => {
                OpError::Error(format!("Can not convert right match operand to a regular expression. Caused by '{}'.", m))
            }
            RegexError::Unsupported(m) => OpError::Unsupported(m),
        })?,
        Value::Unknown(_) => return Ok(MatchOutcome { matched: None, data: MatchData::Cleared }),
        other => {
            return Err(OpError::Error(format!(
                "Can not convert right match operand to a regular expression. Caused by 'no implicit conversion of {} into String'.",
                other.label()
            )))
        }
    };
    match left {
        Value::String(s) => run_regexp(&re, s),
        Value::Unknown(_) => Ok(MatchOutcome {
            matched: None,
            data: MatchData::Cleared,
        }),
        other => Err(OpError::Error(format!(
            "Left match operand must result in a String value. Got {}.",
            other.a_label()
        ))),
    }
}

/// `CompareOperator#match`: `pattern` is an element of the searched array.
fn element_match(left: &Value, pattern: &Value, ts: &TypeSystem<'_>) -> Result<bool, OpError> {
    Ok(match pattern {
        Value::Regexp(re) => match left {
            Value::String(s) => re.is_match(s).map_err(regex_err)?,
            _ => false,
        },
        Value::Type(t) => ts.instance(t, left),
        Value::Array(ps) => match left {
            Value::Array(ls) => {
                if ls.len() != ps.len() {
                    false
                } else {
                    let mut all = true;
                    for (l, p) in ls.iter().zip(ps) {
                        if !element_match(l, p, ts)? {
                            all = false;
                            break;
                        }
                    }
                    all
                }
            }
            _ => false,
        },
        Value::Hash(ph) => match left {
            Value::Hash(lh) => {
                let mut all = true;
                for (k, p) in ph.iter() {
                    if !element_match(lh.get(k).unwrap_or(&Value::Undef), p, ts)? {
                        all = false;
                        break;
                    }
                }
                all
            }
            _ => false,
        },
        Value::SemVer(v) => match left {
            Value::SemVer(l) => l == v,
            Value::String(s) => Version::parse(s).is_ok_and(|l| l == *v),
            _ => false,
        },
        Value::SemVerRange(r) => range_includes(r, left),
        Value::Default => true,
        other => equals(left, other),
    })
}

/// `left in right`.
pub fn in_op(left: &Value, right: &Value, ts: &TypeSystem<'_>) -> Result<MatchOutcome, OpError> {
    if left.is_unknown() || right.is_unknown() {
        return Ok(MatchOutcome {
            matched: None,
            data: MatchData::Unchanged,
        });
    }
    match right {
        Value::String(hay) => match left {
            Value::String(needle) => Ok(MatchOutcome::known(
                hay.to_lowercase().contains(&needle.to_lowercase()),
            )),
            Value::Regexp(re) => run_regexp(re, hay),
            Value::Integer(_) | Value::Float(_) => Ok(MatchOutcome::known(equals(right, left))),
            _ => Ok(MatchOutcome::known(false)),
        },
        Value::Array(items) => match left {
            Value::Regexp(re) => {
                for e in items {
                    if let Value::String(s) = e {
                        if let Some(groups) = re.captures(s).map_err(regex_err)? {
                            return Ok(MatchOutcome {
                                matched: Some(true),
                                data: MatchData::Set(groups),
                            });
                        }
                    }
                }
                Ok(MatchOutcome {
                    matched: Some(false),
                    data: MatchData::Cleared,
                })
            }
            Value::String(_) | Value::SemVer(_) => {
                for e in items {
                    if element_match(left, e, ts)? {
                        return Ok(MatchOutcome::known(true));
                    }
                }
                Ok(MatchOutcome::known(false))
            }
            Value::Type(t) => Ok(MatchOutcome::known(items.iter().any(|e| ts.instance(t, e)))),
            _ => Ok(MatchOutcome::known(items.iter().any(|e| equals(e, left)))),
        },
        Value::Hash(h) => in_op(left, &Value::Array(h.keys().cloned().collect()), ts),
        Value::SemVerRange(r) => Ok(MatchOutcome::known(range_includes(r, left))),
        Value::Binary(b) => Ok(MatchOutcome::known(match left {
            Value::Binary(n) => n.is_empty() || b.windows(n.len()).any(|w| w == n.as_slice()),
            Value::String(s) => s.is_empty() || b.windows(s.len()).any(|w| w == s.as_bytes()),
            Value::Integer(i) => b.iter().any(|x| *x as i64 == *i),
            _ => false,
        })),
        _ => {
            let _ = Type::Any;
            Ok(MatchOutcome::known(false))
        }
    }
}
