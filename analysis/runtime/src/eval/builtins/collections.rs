//! Functions over arrays and hashes: `size`, `empty`, `keys`, `values`, `flatten`, `unique`, `sort`, `join`, `dig`, `get`, `min`, `max`.

use super::*;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new("size", size),
    Builtin::new("length", size),
    Builtin::new("empty", empty),
    Builtin::new("keys", keys_or_values),
    Builtin::new("values", keys_or_values),
    Builtin::new("flatten", flatten),
    Builtin::new("unique", unique),
    Builtin::new("sort", sort),
    Builtin::new("join", join),
    Builtin::new("min", min_or_max),
    Builtin::new("max", min_or_max),
    Builtin::new("dig", dig),
    Builtin::new("get", get),
];

/// `size`, `length`.
fn size(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    match call.arg(0) {
        Value::Array(a) => Ok(Value::Integer(a.len() as i64)),
        Value::Hash(h) => Ok(Value::Integer(h.len() as i64)),
        Value::String(s) => Ok(Value::Integer(s.chars().count() as i64)),
        Value::Binary(b) => Ok(Value::Integer(b.len() as i64)),
        Value::Iterator(it) => Ok(Value::Integer(it.elements.len() as i64)),
        other => Err(ev.error(
            call.at,
            format!(
                "'{}' expects a Collection, String or Binary value, got {}",
                call.name,
                infer_generalized(&other)
            ),
        )),
    }
}

/// `empty`.
fn empty(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    match call.arg(0) {
        Value::Array(a) => Ok(Value::Boolean(a.is_empty())),
        Value::Hash(h) => Ok(Value::Boolean(h.is_empty())),
        Value::String(s) => Ok(Value::Boolean(s.is_empty())),
        Value::Binary(b) => Ok(Value::Boolean(b.is_empty())),
        Value::Undef => Ok(Value::Boolean(true)),
        Value::Integer(_) | Value::Float(_) => Ok(Value::Boolean(false)),
        other => Err(ev.error(
            call.at,
            format!("'empty' does not accept {}", other.a_label()),
        )),
    }
}

/// `keys`, `values`.
fn keys_or_values(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    match call.arg(0) {
        Value::Hash(h) => Ok(Value::Array(if call.name == "keys" {
            h.keys().cloned().collect()
        } else {
            h.values().cloned().collect()
        })),
        other => Err(ev.error(
            call.at,
            format!(
                "'{}' expects a Hash value, got {}",
                call.name,
                infer_generalized(&other)
            ),
        )),
    }
}

/// `flatten`.
fn flatten(_ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    fn flat(v: &Value, out: &mut Vec<Value>) {
        match v {
            Value::Array(a) => a.iter().for_each(|e| flat(e, out)),
            o => out.push(o.clone()),
        }
    }
    let mut out = Vec::new();
    for a in &call.args {
        flat(a, &mut out);
    }
    Ok(Value::Array(out))
}

/// `unique`.
fn unique(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    ev.unique(call.arg(0), call.lambda, call.at)
}

/// `sort`.
fn sort(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let recv = call.arg(0);
    let (mut items, is_string) = match &recv {
        Value::Array(a) => (a.clone(), false),
        Value::String(s) => (
            s.chars().map(|c| Value::String(c.to_string())).collect(),
            true,
        ),
        other => {
            return Err(ev.error(
                call.at,
                format!("'sort' expects an Array or String, got {}", other.a_label()),
            ))
        }
    };
    let mut failure: Option<Flow> = None;
    if let Some(l) = call.lambda {
        items = ev.merge_sort(items, l, call.at)?;
    } else {
        items.sort_by(|a, b| match ruby_cmp(a, b) {
            Some(o) => o,
            None => {
                if failure.is_none() {
                    failure = Some(Flow::Error(crate::eval::EvalError {
                        message: format!("comparison of {} with {} failed", a.label(), b.label()),
                        at: Some(call.at),
                    }));
                }
                Ordering::Equal
            }
        });
    }
    if let Some(f) = failure {
        return Err(f);
    }
    if is_string {
        Ok(Value::String(items.iter().map(to_interpolated).collect()))
    } else {
        Ok(Value::Array(items))
    }
}

/// `join`.
fn join(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let sep = match call.arg(1) {
        Value::String(s) => s,
        Value::Undef => String::new(),
        _ => return Err(ev.error(call.at, "join expects a String separator")),
    };
    match call.arg(0) {
        Value::Array(a) => {
            fn flat(v: &[Value], out: &mut Vec<String>) {
                for e in v {
                    match e {
                        Value::Array(a) => flat(a, out),
                        o => out.push(to_interpolated(o)),
                    }
                }
            }
            let mut parts = Vec::new();
            flat(&a, &mut parts);
            Ok(Value::String(parts.join(&sep)))
        }
        other => Err(ev.error(
            call.at,
            format!(
                "'join' expects an Array value, got {}",
                infer_generalized(&other)
            ),
        )),
    }
}

/// `min`, `max`.
fn min_or_max(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let mut vals = call.args;
    if vals.len() == 1 {
        if let Value::Array(a) = &vals[0] {
            vals = a.clone();
        }
    }
    if vals.is_empty() {
        return Err(ev.error(
            call.at,
            format!("{}() expects at least one argument", call.name),
        ));
    }
    let want = if call.name == "min" {
        Ordering::Less
    } else {
        Ordering::Greater
    };
    // Puppet 8 added signatures for SemVer, Timespan and Timestamp values
    // (all of one kind), compared as what they are; Puppet 7 compares them
    // as strings (`'9.1.0' > '10.0.0'`), with a deprecation warning.
    let by_value = ev.target.version >= PuppetVersion::V8 && same_time_or_version_kind(&vals);
    let mut best = vals[0].clone();
    for v in vals.into_iter().skip(1) {
        let o = if let Some(l) = call.lambda {
            match ev.call_lambda(l, vec![v.clone(), best.clone()], call.at)? {
                Value::Integer(c) => c.cmp(&0),
                _ => Ordering::Equal,
            }
        } else if by_value {
            time_or_version_cmp(&v, &best)
        } else {
            minmax_cmp(&v, &best)
        };
        if o == want {
            best = v;
        }
    }
    Ok(best)
}

/// Whether every value is a SemVer, or every one a Timespan, or every one
/// a Timestamp (Puppet 8's `min`/`max` signatures for them).
fn same_time_or_version_kind(values: &[Value]) -> bool {
    let kind = |v: &Value| match v {
        Value::SemVer(_) => Some(0),
        Value::Timespan(_) => Some(1),
        Value::Timestamp(_) => Some(2),
        _ => None,
    };
    match values.split_first() {
        Some((first, rest)) => kind(first).is_some() && rest.iter().all(|v| kind(v) == kind(first)),
        None => false,
    }
}

/// SemVers by precedence, Timespans and Timestamps by time.
fn time_or_version_cmp(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::SemVer(x), Value::SemVer(y)) => x.compare(y),
        (Value::Timespan(x), Value::Timespan(y)) => x.nanos.cmp(&y.nanos),
        (Value::Timestamp(x), Value::Timestamp(y)) => x.nanos.cmp(&y.nanos),
        _ => Ordering::Equal,
    }
}

/// `dig`.
fn dig(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let mut cur = call.arg(0);
    for k in call.args.iter().skip(1) {
        cur = match (&cur, k) {
            (Value::Undef, _) => return Ok(Value::Undef),
            (Value::Array(a), Value::Integer(i)) => {
                let idx = if *i < 0 { a.len() as i64 + i } else { *i };
                if idx < 0 {
                    Value::Undef
                } else {
                    a.get(idx as usize).cloned().unwrap_or(Value::Undef)
                }
            }
            (Value::Array(_), _) => {
                return Err(ev.error(
                    call.at,
                    "dig: an Array can only be digged into with an Integer",
                ))
            }
            (Value::Hash(h), k) => h.get(k).cloned().unwrap_or(Value::Undef),
            _ => {
                return Err(ev.error(
                    call.at,
                    format!(
                        "The given data does not contain a Collection at {}",
                        to_interpolated(k)
                    ),
                ))
            }
        };
    }
    Ok(cur)
}

/// `get`.
fn get(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    ev.get_fn(call.args, call.lambda, call.at)
}
