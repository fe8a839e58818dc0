//! Numeric functions: `abs`, `round`, `floor`, `ceiling`, `compare`.

use super::*;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new("abs", abs),
    Builtin::new("round", rounding),
    Builtin::new("floor", rounding),
    Builtin::new("ceiling", rounding),
    Builtin::new("compare", compare),
];

/// `abs`.
fn abs(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    match call.arg(0) {
        Value::Integer(i) => i
            .checked_abs()
            .map(Value::Integer)
            .ok_or_else(|| ev.error(call.at, "integer overflow")),
        Value::Float(f) => Ok(Value::Float(f.abs())),
        // deprecated string conversion: `-?\d+\.\d+` is a Float,
        // `-?\d+` an Integer
        Value::String(s) => {
            let body = s.strip_prefix('-').unwrap_or(&s);
            let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
            match body.split_once('.') {
                Some((i, f)) if all_digits(i) && all_digits(f) => Ok(Value::Float(to_f(body))),
                None if all_digits(body) => body
                    .parse::<i64>()
                    .map(Value::Integer)
                    .map_err(|_| ev.error(call.at, "abs(): integer out of range")),
                _ => Err(ev.error(
                    call.at,
                    "abs(): Requires float or integer to work with - was given non decimal string",
                )),
            }
        }
        other => Err(ev.error(
            call.at,
            format!(
                "'abs' expects a Numeric value, got {}",
                infer_generalized(&other)
            ),
        )),
    }
}

/// `round`, `floor`, `ceiling`.
fn rounding(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    match call.arg(0) {
        Value::Integer(i) => Ok(Value::Integer(i)),
        // floor and ceiling convert strings with Ruby's `Float()`
        Value::String(s) if call.name != "round" => {
            match crate::values::convert::ruby_kernel_float(&s) {
                Some(f) => {
                    let r = if call.name == "floor" {
                        f.floor()
                    } else {
                        f.ceil()
                    };
                    if r.is_finite() && r.abs() < 9.2e18 {
                        Ok(Value::Integer(r as i64))
                    } else {
                        Err(ev.error(call.at, "value out of range"))
                    }
                }
                None => Err(ev.error(
                    call.at,
                    format!(
                        "{}(): cannot convert given value to a floating point value.",
                        call.name
                    ),
                )),
            }
        }
        Value::Float(f) => {
            let r = match call.name {
                "round" => f.round(),
                "floor" => f.floor(),
                _ => f.ceil(),
            };
            if r.is_finite() && r.abs() < 9.2e18 {
                Ok(Value::Integer(r as i64))
            } else {
                Err(ev.error(call.at, "value out of range"))
            }
        }
        other => Err(ev.error(
            call.at,
            format!(
                "'{}' expects a Numeric value, got {}",
                call.name,
                infer_generalized(&other)
            ),
        )),
    }
}

/// `compare`.
fn compare(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let (a, b) = (call.arg(0), call.arg(1));
    let ignore_case = !matches!(call.arg(2), Value::Boolean(false));
    let o = match (&a, &b) {
        (Value::String(x), Value::String(y)) if ignore_case => Some(casecmp(x, y)),
        _ => ruby_cmp(&a, &b),
    };
    match o {
        Some(o) => Ok(Value::Integer(o as i64)),
        None => Err(ev.error(
            call.at,
            format!(
                "compare(): Can only compare values of the same type, got {} and {}",
                a.label(),
                b.label()
            ),
        )),
    }
}
