//! Arithmetic and collection operators: `+ - * / % << >>` and unary minus.

use super::{numeric_coercion, Evaluated, OpError};
use crate::model::{OrderedHash, Type, Value};
use crate::target::Strict;
use crate::time::{float_secs_to_nanos, Timespan, Timestamp, NS_PER_SEC};
use crate::types::infer;
use crate::values::a_an;
use crate::values::convert::{string_to_number, Number};
use crate::values::format::ruby_to_s;

/// A binary arithmetic operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Mod,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
}

impl ArithOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
            ArithOp::Mod => "%",
            ArithOp::Shl => "<<",
            ArithOp::Shr => ">>",
        }
    }
}

/// A numeric operand after coercion.
#[derive(Clone, Copy, Debug)]
enum Num {
    Int(i128),
    Float(f64),
    Span(Timespan),
    Stamp(Timestamp),
}

fn err<T>(m: impl Into<String>) -> Result<T, OpError> {
    Err(OpError::Error(m.into()))
}

fn num_label(n: &Num) -> &'static str {
    match n {
        Num::Int(_) => "Integer",
        Num::Float(_) => "Float",
        Num::Span(_) => "Timespan",
        Num::Stamp(_) => "Timestamp",
    }
}

/// An operand as a number: a string that reads as one is coerced, as
/// `strict` lets it be.
fn coerce(v: &Value, strict: Strict, warnings: &mut Vec<String>) -> Result<Num, OpError> {
    match v {
        Value::Integer(i) => Ok(Num::Int(*i as i128)),
        Value::Float(f) => Ok(Num::Float(*f)),
        Value::Timespan(t) => Ok(Num::Span(*t)),
        Value::Timestamp(t) => Ok(Num::Stamp(*t)),
        Value::String(s) => match string_to_number(s) {
            Some(n) => {
                let (num, shown) = match n {
                    Number::Int(i) => (Num::Int(i), i.to_string()),
                    Number::Float(f) => (Num::Float(f), crate::values::float::ruby_float_to_s(f)),
                };
                numeric_coercion(strict, s, &shown, warnings)?;
                Ok(num)
            }
            None => err(format!("The value '{}' cannot be converted to Numeric.", s)),
        },
        other => err(format!(
            "The value '{}' cannot be converted to Numeric.",
            ruby_to_s(other)
        )),
    }
}

fn hex_signed(v: i128) -> String {
    if v < 0 {
        format!("-{:#x}", v.unsigned_abs())
    } else {
        format!("+{:#x}", v)
    }
}

fn check_int(op: ArithOp, v: i128) -> Result<Value, OpError> {
    match i64::try_from(v) {
        Ok(i) => Ok(Value::Integer(i)),
        Err(_) => err(format!(
            "A '{}' expression resulted in a value outside of Puppet Integer {} range, got '{}'",
            op.symbol(),
            if v > 0 { "max" } else { "min" },
            hex_signed(v)
        )),
    }
}

fn check_float(op: ArithOp, f: f64) -> Result<Value, OpError> {
    if f.is_infinite() {
        return err(format!(
            "The result of the {} expression is Infinity",
            op.symbol()
        ));
    }
    Ok(Value::Float(f))
}

fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn floor_mod(a: i128, b: i128) -> i128 {
    let r = a % b;
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

fn overflow(op: ArithOp) -> OpError {
    OpError::Error(format!(
        "A '{}' expression resulted in a value outside of Puppet Integer max range",
        op.symbol()
    ))
}

fn int_op(op: ArithOp, a: i128, b: i128) -> Result<Value, OpError> {
    let r = match op {
        ArithOp::Add => a.checked_add(b),
        ArithOp::Sub => a.checked_sub(b),
        ArithOp::Mul => a.checked_mul(b),
        ArithOp::Div => {
            if b == 0 {
                return err("Division by 0");
            }
            Some(floor_div(a, b))
        }
        ArithOp::Mod => {
            if b == 0 {
                return err("Division by 0");
            }
            Some(floor_mod(a, b))
        }
        ArithOp::Shl | ArithOp::Shr => {
            let left = if op == ArithOp::Shl { b } else { -b };
            if left >= 0 {
                if a == 0 {
                    Some(0)
                } else if left >= 126 {
                    return Err(overflow(op));
                } else {
                    a.checked_mul(1i128 << left)
                }
            } else {
                let n = (-left).min(127) as u32;
                Some(a >> n)
            }
        }
    };
    match r {
        Some(v) => check_int(op, v),
        None => Err(overflow(op)),
    }
}

fn float_op(op: ArithOp, a: f64, b: f64) -> Result<Value, OpError> {
    let r = match op {
        ArithOp::Add => a + b,
        ArithOp::Sub => a - b,
        ArithOp::Mul => a * b,
        ArithOp::Div => a / b,
        _ => {
            return err(format!(
                "Operator '{}' is not applicable to a Float.",
                op.symbol()
            ))
        }
    };
    check_float(op, r)
}

fn to_f(n: &Num) -> f64 {
    match n {
        Num::Int(i) => *i as f64,
        Num::Float(f) => *f,
        Num::Span(t) => t.to_f64(),
        Num::Stamp(t) => t.to_f64(),
    }
}

fn secs_to_nanos(n: &Num) -> Result<i128, OpError> {
    match n {
        Num::Int(i) => i
            .checked_mul(NS_PER_SEC)
            .ok_or_else(|| OpError::Error("Timespan overflow".into())),
        Num::Float(f) => {
            float_secs_to_nanos(*f).ok_or_else(|| OpError::Error("Timespan overflow".into()))
        }
        _ => Err(OpError::Error("not a number".into())),
    }
}

fn time_op(op: ArithOp, l: Num, r: Num) -> Result<Value, OpError> {
    let not_applicable = |n: &Num| {
        err(format!(
            "Operator '{}' is not applicable to {}.",
            op.symbol(),
            a_an(num_label(n))
        ))
    };
    match (l, op) {
        (Num::Span(a), ArithOp::Add) => match r {
            Num::Stamp(b) => Ok(Value::Timestamp(Timestamp {
                nanos: a.nanos + b.nanos,
            })),
            Num::Span(b) => Ok(Value::Timespan(Timespan {
                nanos: a.nanos + b.nanos,
            })),
            n => Ok(Value::Timespan(Timespan {
                nanos: a.nanos + secs_to_nanos(&n)?,
            })),
        },
        (Num::Span(a), ArithOp::Sub) => match r {
            Num::Span(b) => Ok(Value::Timespan(Timespan {
                nanos: a.nanos - b.nanos,
            })),
            Num::Stamp(_) => err("A Timestamp cannot be subtracted from a Timespan"),
            n => Ok(Value::Timespan(Timespan {
                nanos: a.nanos - secs_to_nanos(&n)?,
            })),
        },
        (Num::Span(a), ArithOp::Mul) => match r {
            Num::Int(i) => Ok(Value::Timespan(Timespan {
                nanos: a.nanos.checked_mul(i).ok_or_else(|| overflow(op))?,
            })),
            Num::Float(f) => {
                let n = a.nanos as f64 * f;
                if !n.is_finite() {
                    return err(format!(
                        "The result of the {} expression is Infinity",
                        op.symbol()
                    ));
                }
                Ok(Value::Timespan(Timespan {
                    nanos: n.trunc() as i128,
                }))
            }
            other => err(format!(
                "A Timestamp cannot be multiplied by {}",
                a_an(num_label(&other))
            )),
        },
        (Num::Span(a), ArithOp::Div) => match r {
            Num::Span(b) => {
                if b.nanos == 0 {
                    return check_float(op, a.nanos as f64 / 0.0);
                }
                check_float(op, a.nanos as f64 / b.nanos as f64)
            }
            Num::Int(i) => {
                if i == 0 {
                    return err("Division by 0");
                }
                Ok(Value::Timespan(Timespan {
                    nanos: floor_div(a.nanos, i),
                }))
            }
            Num::Float(f) => {
                if f == 0.0 {
                    return err("Division by 0");
                }
                Ok(Value::Timespan(Timespan {
                    nanos: (a.nanos as f64 / f).floor() as i128,
                }))
            }
            other => err(format!(
                "A Timespan cannot be divided by {}",
                a_an(num_label(&other))
            )),
        },
        (Num::Span(a), ArithOp::Mod) => match r {
            Num::Int(i) => {
                if i == 0 {
                    return err("Division by 0");
                }
                check_int(op, floor_mod(floor_div(a.nanos, NS_PER_SEC), i))
            }
            Num::Float(f) => {
                let x = a.to_f64();
                check_float(op, x - f * (x / f).floor())
            }
            other => err(format!(
                "Can not do modulus on a Timespan using {}",
                a_an(num_label(&other))
            )),
        },
        (Num::Stamp(a), ArithOp::Add) => match r {
            Num::Span(b) => Ok(Value::Timestamp(Timestamp {
                nanos: a.nanos + b.nanos,
            })),
            Num::Stamp(_) => err("A Timestamp cannot be added to a Timestamp"),
            n => Ok(Value::Timestamp(Timestamp {
                nanos: a.nanos + secs_to_nanos(&n)?,
            })),
        },
        (Num::Stamp(a), ArithOp::Sub) => match r {
            Num::Stamp(b) => Ok(Value::Timespan(Timespan {
                nanos: a.nanos - b.nanos,
            })),
            Num::Span(b) => Ok(Value::Timestamp(Timestamp {
                nanos: a.nanos - b.nanos,
            })),
            n => Ok(Value::Timestamp(Timestamp {
                nanos: a.nanos - secs_to_nanos(&n)?,
            })),
        },
        (l, _) => not_applicable(&l),
    }
}

fn numeric(op: ArithOp, l: Num, r: Num) -> Result<Value, OpError> {
    if op == ArithOp::Mod {
        if let Num::Float(_) = l {
            return err("Operator '%' is not applicable to a Float.");
        }
        if let Num::Float(_) = r {
            return err(format!(
                "Operator '%' is not applicable to {} when right side is a Float.",
                a_an(num_label(&l))
            ));
        }
    }
    let (mut l, mut r) = (l, r);
    let r_time = matches!(r, Num::Span(_) | Num::Stamp(_));
    let l_time = matches!(l, Num::Span(_) | Num::Stamp(_));
    if r_time && !l_time {
        if op == ArithOp::Add || (op == ArithOp::Mul && matches!(r, Num::Span(_))) {
            std::mem::swap(&mut l, &mut r);
        } else if op == ArithOp::Sub && matches!(r, Num::Span(_)) {
            l = Num::Span(Timespan {
                nanos: secs_to_nanos(&l)?,
            });
        } else {
            return err(format!(
                "Operator '{}' is not applicable to {} when right side is {}.",
                op.symbol(),
                a_an(num_label(&l)),
                a_an(num_label(&r))
            ));
        }
    }
    match (l, r) {
        (Num::Span(_) | Num::Stamp(_), _) => time_op(op, l, r),
        (Num::Int(a), Num::Int(b)) => int_op(op, a, b),
        (Num::Int(a), Num::Float(b)) => match op {
            ArithOp::Shl | ArithOp::Shr => int_op(op, a, b.trunc() as i128),
            _ => float_op(op, a as f64, b),
        },
        (Num::Float(_), _) if matches!(op, ArithOp::Shl | ArithOp::Shr) => err(format!(
            "Operator '{}' is not applicable to a Float.",
            op.symbol()
        )),
        (Num::Float(a), b) => float_op(op, a, to_f(&b)),
        _ => err(format!("Operator '{}' is not applicable.", op.symbol())),
    }
}

/// What an operand not fully known can be, as far as arithmetic cares.
#[derive(Clone, Copy, PartialEq)]
enum Operand {
    Array,
    Hash,
    /// A number, or a string Puppet converts to one.
    Number,
    Span,
    Stamp,
    /// Anything: the type says too little.
    Unknown,
}

fn operand_kind(v: &Value) -> Operand {
    // An undef operand fails: a computed result never came from one.
    let t = match v {
        Value::Unknown(t) => t.without_undef(),
        other => infer(other),
    };
    match t {
        Type::Array(..) | Type::Tuple(..) => Operand::Array,
        Type::Hash(..) | Type::Struct(_) => Operand::Hash,
        Type::Integer(_) | Type::Float(_) | Type::Numeric | Type::String(_) | Type::Enum(_) => {
            Operand::Number
        }
        Type::Timespan(_) => Operand::Span,
        Type::Timestamp(_) => Operand::Stamp,
        _ => Operand::Unknown,
    }
}

/// The type of `l op r` when an operand is not known: every result Puppet
/// can compute for such operands (numbers combine with time values, arrays
/// and hashes concatenate), `Any` when the operands say too little.
fn unknown_result(op: ArithOp, l: &Value, r: &Value) -> Value {
    use ArithOp as A;
    use Operand as O;
    let span = || Type::Timespan(Default::default());
    let stamp = || Type::Timestamp(Default::default());
    let either = |a: Type, b: Type| crate::types::normalize::variant_maybe(vec![a, b]);
    let t = match (operand_kind(l), op, operand_kind(r)) {
        (O::Array, A::Add | A::Sub | A::Shl, _) => Type::array(),
        (O::Hash, A::Add | A::Sub, _) => Type::hash(),
        (O::Number, _, O::Number) => Type::Numeric,
        (O::Number, A::Add, O::Stamp) | (O::Stamp, A::Add | A::Sub, O::Number | O::Span) => stamp(),
        (O::Number, A::Add | A::Mul, O::Span)
        | (O::Span, A::Add | A::Sub | A::Mul, O::Number | O::Span)
        | (O::Span, A::Div, O::Number)
        | (O::Stamp, A::Sub, O::Stamp) => span(),
        (O::Span, A::Div, O::Span) => Type::float(),
        (O::Stamp, A::Add, _) => stamp(),
        (O::Stamp, A::Sub, _) | (O::Span, A::Add, _) => either(stamp(), span()),
        (O::Span, A::Sub | A::Mul, _) => span(),
        (O::Span, A::Div, _) => either(span(), Type::float()),
        _ => Type::Any,
    };
    Value::Unknown(t)
}

fn concatenate(l: &[Value], r: &Value) -> Vec<Value> {
    let mut out = l.to_vec();
    match r {
        Value::Array(a) => out.extend(a.iter().cloned()),
        Value::Hash(h) => out.extend(
            h.iter()
                .map(|(k, v)| Value::Array(vec![k.clone(), v.clone()])),
        ),
        other => out.push(other.clone()),
    }
    out
}

fn merge(l: &OrderedHash, r: &Value) -> Result<OrderedHash, OpError> {
    let mut out = l.clone();
    match r {
        Value::Hash(h) => {
            for (k, v) in h.iter() {
                out.insert(k.clone(), v.clone());
            }
        }
        Value::Array(a) => {
            let all_arrays = !a.is_empty() && a.iter().all(|e| matches!(e, Value::Array(_)));
            if all_arrays {
                for e in a {
                    if let Value::Array(pair) = e {
                        match pair.len() {
                            1 => out.insert(pair[0].clone(), Value::Undef),
                            2 => out.insert(pair[0].clone(), pair[1].clone()),
                            n => {
                                return err(format!("invalid number of elements ({} for 1..2)", n));
                            }
                        }
                    }
                }
            } else if a.len() == 1 {
                match &a[0] {
                    Value::Hash(h) => {
                        for (k, v) in h.iter() {
                            out.insert(k.clone(), v.clone());
                        }
                    }
                    _ => return err("odd number of arguments for Hash"),
                }
            } else {
                if a.len() % 2 != 0 {
                    return err("odd number of arguments for Hash");
                }
                for pair in a.chunks(2) {
                    out.insert(pair[0].clone(), pair[1].clone());
                }
            }
        }
        _ => return err("Can only append Array or Hash to a Hash"),
    }
    Ok(out)
}

/// Ruby `==` as used by `Array#delete`: numeric promotion, otherwise strict.
fn ruby_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Integer(x), Value::Float(y)) | (Value::Float(y), Value::Integer(x)) => {
            (*x as f64) == *y
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| ruby_eq(p, q))
        }
        _ => a.strict_eq(b),
    }
}

fn delete(l: &Value, r: &Value) -> Result<Value, OpError> {
    match l {
        Value::Array(a) => {
            let rm: Vec<Value> = match r {
                Value::Array(x) => x.clone(),
                Value::Hash(h) => h
                    .iter()
                    .map(|(k, v)| Value::Array(vec![k.clone(), v.clone()]))
                    .collect(),
                other => vec![other.clone()],
            };
            Ok(Value::Array(
                a.iter()
                    .filter(|e| !rm.iter().any(|x| ruby_eq(e, x)))
                    .cloned()
                    .collect(),
            ))
        }
        Value::Hash(h) => {
            let rm: Vec<Value> = match r {
                Value::Array(x) => x.clone(),
                Value::Hash(x) => x.keys().cloned().collect(),
                other => vec![other.clone()],
            };
            let mut out = h.clone();
            for k in &rm {
                out.remove(k);
            }
            Ok(Value::Hash(out))
        }
        _ => err("Can only delete from an Array or Hash."),
    }
}

/// Evaluates `left op right`.
///
/// A string operand that reads as a number is coerced: with a warning
/// under `strict = warning`, an error under `strict = error`.
pub fn binary(
    op: ArithOp,
    left: &Value,
    right: &Value,
    strict: Strict,
) -> Result<Evaluated, OpError> {
    if left.is_unknown() || right.is_unknown() {
        return Ok(Evaluated::plain(unknown_result(op, left, right)));
    }
    match (left, op) {
        (Value::Binary(a), ArithOp::Add) => {
            return match right {
                Value::Binary(b) => {
                    let mut v = a.clone();
                    v.extend_from_slice(b);
                    Ok(Evaluated::plain(Value::Binary(v)))
                }
                _ => err("Can only append Binary to a Binary"),
            }
        }
        (Value::Uri(_), ArithOp::Add) => {
            return Err(OpError::Unsupported(
                "URI merging is not evaluated statically".into(),
            ));
        }
        (Value::Array(a), ArithOp::Add) => {
            return Ok(Evaluated::plain(Value::Array(concatenate(a, right))))
        }
        (Value::Hash(h), ArithOp::Add) => {
            return Ok(Evaluated::plain(Value::Hash(merge(h, right)?)))
        }
        (Value::Array(_) | Value::Hash(_), ArithOp::Sub) => {
            return Ok(Evaluated::plain(delete(left, right)?))
        }
        (Value::Array(a), ArithOp::Shl) => {
            let mut v = a.clone();
            v.push(right.clone());
            return Ok(Evaluated::plain(Value::Array(v)));
        }
        (Value::Hash(_), ArithOp::Shl) => return err("Operator '<<' is not applicable to a Hash."),
        (Value::SemVer(_), _) => {
            return err(format!(
                "Operator '{}' is not applicable to a Semver.",
                op.symbol()
            ));
        }
        _ => {}
    }
    let mut warnings = Vec::new();
    let l = coerce(left, strict, &mut warnings)?;
    if let Value::SemVer(_) = right {
        return err(format!(
            "Error while evaluating a '{}' expression, can't convert SemanticPuppet::Version into Float",
            op.symbol()
        ));
    }
    let r = coerce(right, strict, &mut warnings)?;
    let value = numeric(op, l, r)?;
    Ok(Evaluated { value, warnings })
}

/// Evaluates `-operand`.
pub fn unary_minus(v: &Value, strict: Strict) -> Result<Evaluated, OpError> {
    if v.is_unknown() {
        return Ok(Evaluated::plain(Value::Unknown(Type::Numeric)));
    }
    let mut warnings = Vec::new();
    let value = match coerce(v, strict, &mut warnings)? {
        Num::Int(i) => check_int(ArithOp::Sub, -i)?,
        Num::Float(f) => Value::Float(-f),
        Num::Span(t) => Value::Timespan(Timespan { nanos: -t.nanos }),
        Num::Stamp(_) => return err("Operator '-' is not applicable to a Timestamp."),
    };
    Ok(Evaluated { value, warnings })
}
