//! Calls to types (`Integer('0xFF')`, `String(v, '%x')`, `Timespan(...)`):
//! Puppet's `new` function, converting its arguments to an instance of the
//! type; the result must then be an instance of the (parameterized) type.

use crate::hir::body::{ExprId, LambdaId};

use super::string_format;
use super::{Evaluator, Flow};
use crate::model::{OrderedHash, Type, Value};
use crate::regexp::Regexp;
use crate::semver::{Version, VersionRange};
use crate::time::{Timespan, Timestamp};
use crate::types::alias::resolve_top;
use crate::types::infer_generalized;
use crate::types::normalize::normalize;
use crate::values::convert::{ruby_kernel_integer, ruby_kernel_integer_wide};

/// Splits Puppet's `[+-]?\s*` number prefix: the sign and the rest after
/// blanks. `None` when blanks come before the sign.
fn split_sign(s: &str) -> Option<(&str, &str)> {
    let (sign, rest) = match s.as_bytes().first() {
        Some(b'+' | b'-') => s.split_at(1),
        _ => ("", s),
    };
    Some((
        sign,
        rest.trim_start_matches(|c: char| c.is_ascii_whitespace()),
    ))
}

/// A string under Puppet's float pattern (`[+-]?\s*` then a decimal float,
/// hex, octal or binary integer), converted as `Float.new` (`numeric` false:
/// always a decimal Float, `0x`/`0b` read as integers) or `Numeric.new`
/// (an Integer unless there is a fraction or exponent; a leading 0 is octal).
fn float_pattern_value(s: &str, numeric: bool) -> Option<Value> {
    let (sign, body) = split_sign(s)?;
    let b = body.as_bytes();
    let all = |from: usize, f: fn(&u8) -> bool| b.len() > from && b[from..].iter().all(f);
    let prefixed = b.len() > 2 && b[0] == b'0';
    let hex = prefixed && matches!(b[1], b'x' | b'X') && all(2, u8::is_ascii_hexdigit);
    let bin = prefixed && matches!(b[1], b'b' | b'B') && all(2, |c| *c == b'0' || *c == b'1');
    let oct = b.len() > 1 && b[0] == b'0' && all(1, |c| (b'0'..=b'7').contains(c));
    let dec = {
        // (0|[1-9]\d*)(\.\d+)?([eE]-?\d+)?
        let int_len = if b.first() == Some(&b'0') {
            1
        } else {
            b.iter().take_while(|c| c.is_ascii_digit()).count()
        };
        let mut i = int_len;
        if i > 0 && b.get(i) == Some(&b'.') {
            let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            i = if n > 0 { i + 1 + n } else { usize::MAX };
        }
        if i != usize::MAX && i > 0 && matches!(b.get(i), Some(b'e' | b'E')) {
            let j = i + 1 + usize::from(b.get(i + 1) == Some(&b'-'));
            let n = b
                .get(j..)
                .map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count());
            i = if n > 0 { j + n } else { usize::MAX };
        }
        i == b.len() && int_len > 0
    };
    let signed = format!("{}{}", sign, body);
    if hex || bin {
        let n = ruby_kernel_integer(&signed, None)?;
        return Some(if numeric {
            Value::Integer(n)
        } else {
            Value::Float(n as f64)
        });
    }
    if numeric && !body.contains(['.', 'e', 'E']) && (dec || oct) {
        return ruby_kernel_integer(&signed, None).map(Value::Integer);
    }
    if dec || (!numeric && oct) {
        // `Float.new` overflows to Infinity, `Numeric.new` fails
        return signed
            .parse::<f64>()
            .ok()
            .filter(|f| !numeric || f.is_finite())
            .map(Value::Float);
    }
    None
}

/// Ruby's `Hash[*items]`: one array argument is a list of `[key, value]`
/// (or `[key]`) pairs, one hash is copied, else keys and values alternate.
fn ruby_hash_splat(items: Vec<Value>) -> Result<OrderedHash, String> {
    match items.as_slice() {
        [Value::Hash(h)] => Ok(h.clone()),
        [Value::Array(pairs)] => pairs
            .iter()
            .enumerate()
            .map(|(i, p)| match p {
                Value::Array(kv) if kv.len() == 2 => Ok((kv[0].clone(), kv[1].clone())),
                Value::Array(kv) if kv.len() == 1 => Ok((kv[0].clone(), Value::Undef)),
                Value::Array(kv) => Err(format!(
                    "invalid number of elements ({} for 1..2)",
                    kv.len()
                )),
                other => Err(format!(
                    "wrong element type {} at {i} (expected array)",
                    infer_generalized(other)
                )),
            })
            .collect(),
        _ if items.len().is_multiple_of(2) => Ok(items
            .chunks(2)
            .map(|c| (c[0].clone(), c[1].clone()))
            .collect()),
        _ => Err("odd number of arguments for Hash".into()),
    }
}

/// Puppet's error for a call `T.new(args)` none of whose signatures takes
/// that many arguments (or, for `Regexp`, a non-Boolean `escape`).
fn new_arity_error(t: &Type, args: &[Value]) -> Option<String> {
    let (min, max, name) = match t {
        Type::Boolean(_) => (1, 1, "new_boolean"),
        Type::Sensitive(_) => (1, 1, "new_Sensitive"),
        Type::Type(_) => (1, 1, "new_type"),
        Type::Hash(..) | Type::Struct(_) => (1, 1, "new_hash"),
        Type::Integer(_) => (1, 3, "new"),
        Type::Float(_) | Type::Numeric => (1, 2, "new_float"),
        Type::Regexp(_) => {
            return match args.get(1) {
                Some(v) if !matches!(v, Value::Boolean(_)) => Some(format!(
                    "'new_regexp' parameter 'escape' expects a Boolean value, got {}",
                    infer_generalized(v)
                )),
                Some(_) if !matches!(args.first(), Some(Value::String(_))) => Some(format!(
                    "'new_regexp' parameter 'pattern' expects a String value, got {}",
                    args.first()
                        .map_or_else(|| "Undef".into(), |v| infer_generalized(v).to_string())
                )),
                _ if args.len() > 2 => Some(format!(
                    "'new_regexp' expects between 1 and 2 arguments, got {}",
                    args.len()
                )),
                _ => None,
            }
        }
        _ => return None,
    };
    let n = args.len();
    if (min..=max).contains(&n) {
        return None;
    }
    Some(match (min, max) {
        (1, 1) => format!("'{name}' expects 1 argument, got {n}"),
        _ => format!("'{name}' expects between {min} and {max} arguments, got {n}"),
    })
}

/// Ruby's `Regexp.escape`: the text as a pattern matching it literally.
fn ruby_regexp_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '.' | '*' | '?' | '+' | '^' | '$' | '|' | '(' | ')' | '[' | ']' | '{' | '}' | '\\'
            | '-' | '#' => {
                out.push('\\');
                out.push(c);
            }
            ' ' => out.push_str("\\ "),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\x0c' => out.push_str("\\f"),
            '\x0b' => out.push_str("\\v"),
            c => out.push(c),
        }
    }
    out
}

/// Puppet converts to Ruby's big integers, which this evaluator's 64-bit
/// integers cannot hold.
fn big_integer() -> Flow {
    Flow::Unsupported("an Integer beyond 64 bits".into())
}

/// `SemVerRange.new(min, max, exclude_max)` or the same as a hash
/// (`{min => ..., max => ..., exclude_max => ...}`, `max` optional), bounds
/// being versions or `default` (unbounded); `None` when the arguments fit
/// neither form.
fn semver_range_from_bounds(args: &[Value]) -> Option<VersionRange> {
    let bound = |v: &Value, unbounded: fn() -> Version| match v {
        Value::SemVer(v) => Some(v.clone()),
        Value::Default => Some(unbounded()),
        _ => None,
    };
    let exclude = |v: Option<&Value>| match v {
        None => Some(false),
        Some(Value::Boolean(b)) => Some(*b),
        Some(_) => None,
    };
    let (min, max, excl) = match args {
        [Value::Hash(h)] => {
            let known = ["min", "max", "exclude_max"];
            if h.keys()
                .any(|k| !matches!(k, Value::String(s) if known.contains(&s.as_str())))
            {
                return None;
            }
            let get = |k: &str| h.get(&Value::string(k));
            (
                bound(get("min")?, Version::min)?,
                bound(get("max").unwrap_or(&Value::Default), Version::max)?,
                exclude(get("exclude_max"))?,
            )
        }
        [min, max, rest @ ..] if rest.len() <= 1 => (
            bound(min, Version::min)?,
            bound(max, Version::max)?,
            exclude(rest.first())?,
        ),
        _ => return None,
    };
    Some(VersionRange::between(min, max, excl))
}

/// A `Deferred` function name: `$`-prefixed or not, lower-case segments
/// joined by `::` (`\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\z`).
fn is_deferred_function_name(name: &str) -> bool {
    let n = name.strip_prefix('$').unwrap_or(name);
    !n.is_empty()
        && n.split("::").all(|seg| {
            let b = seg.as_bytes();
            !b.is_empty()
                && b[0].is_ascii_lowercase()
                && b[1..]
                    .iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
        })
}

/// The bytes of an `Array[Integer[0, 255]]`.
fn byte_array(a: &[Value]) -> Result<Vec<u8>, String> {
    a.iter()
        .map(|v| match v {
            Value::Integer(i) => u8::try_from(*i).map_err(|_| ()),
            _ => Err(()),
        })
        .collect::<Result<Vec<u8>, ()>>()
        .map_err(|_| "Binary.new() expects an Array of Integers between 0 and 255".to_string())
}

/// `true`/`false`/`yes`/`no`/`y`/`n`, case-insensitively.
fn string_to_bool(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "true" | "yes" | "y" => Some(true),
        "false" | "no" | "n" => Some(false),
        _ => None,
    }
}

impl Evaluator {
    /// `T(args)`: creates an instance of `t`.
    pub fn new_instance(
        &mut self,
        t: &Type,
        args: Vec<Value>,
        lambda: Option<LambdaId>,
        at: ExprId,
    ) -> Result<Value, Flow> {
        if args.iter().any(Value::is_unknown) {
            return Ok(Value::Unknown(t.clone()));
        }
        let resolved = normalize(&resolve_top(t, &self.aliases));
        if let Some(m) = new_arity_error(&resolved, &args) {
            return Err(self.error(at, m));
        }
        // a single argument that already is an instance is returned as is
        // (except for `Init`, which always converts)
        let v =
            if args.len() == 1 && !matches!(t, Type::Init(..)) && self.ts().instance(t, &args[0]) {
                args.into_iter().next().unwrap_or(Value::Undef)
            } else {
                self.convert(t, &args, at)?
            };
        let ts = self.ts();
        let ok = ts.instance(t, &v);
        drop(ts);
        if !ok {
            return Err(self.error(
                at,
                format!(
                    "Converted value from {}.new() has wrong type, expects a {} value, got {}",
                    t,
                    t,
                    infer_generalized(&v)
                ),
            ));
        }
        match lambda {
            Some(l) => self.call_lambda(l, vec![v], at),
            None => Ok(v),
        }
    }

    fn convert(&mut self, t: &Type, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        if args.is_empty() {
            return fail(self, format!("{}.new() expects at least one argument", t));
        }
        match t {
            Type::Alias(name) => {
                let resolved = self.aliases_resolve(name);
                match resolved {
                    Some(r) => self.convert(&r, args, at),
                    None => fail(self, format!("Type alias '{}' cannot be resolved", name)),
                }
            }
            Type::Optional(Some(inner)) | Type::NotUndef(Some(inner)) => {
                if let (Type::Optional(_), Value::Undef) = (t, arg(0)) {
                    return Ok(Value::Undef);
                }
                self.convert(inner, args, at)
            }
            Type::Init(Some(inner), extra) => {
                let mut a = args.to_vec();
                a.extend(extra.iter().cloned());
                self.convert(inner, &a, at)
            }
            Type::Integer(_) => self.new_integer(args, at),
            Type::Float(_) | Type::Numeric => self.new_float(t, args, at),
            Type::Boolean(_) => self.new_boolean(args, at),
            Type::String(_) | Type::Enum(_) | Type::Pattern(_)
                if !matches!(t, Type::Enum(_) | Type::Pattern(_)) =>
            {
                let v = arg(0);
                let s = match args.get(1) {
                    None => string_format::default_string(&v),
                    Some(f) => string_format::format_value(&v, f).map_err(|e| self.error(at, e))?,
                };
                Ok(Value::String(s))
            }
            Type::Array(..) | Type::Tuple(..) => self.new_array(args, at),
            Type::Hash(..) | Type::Struct(_) => self.new_hash(args, at),
            Type::Sensitive(_) => Ok(Value::Sensitive(Box::new(arg(0)))),
            Type::Regexp(_) => self.new_regexp(args, at),
            Type::SemVer(_) => self.new_semver(args, at),
            Type::SemVerRange => self.new_semver_range(args, at),
            Type::Timespan(_) => self.new_timespan(args, at),
            Type::Timestamp(_) => self.new_timestamp(args, at),
            Type::Type(_) => self.new_type(args, at),
            // a one-member Variant normalizes to its member; others have no
            // `new` function
            Type::Variant(ts) if ts.len() == 1 => self.convert(&ts[0], args, at),
            Type::Binary => self.new_binary(args, at),
            Type::Uri(_) => self.new_uri(args, at),
            Type::Object(o) if o.name.as_deref() == Some("Deferred") => {
                let (name, arguments) = match args {
                    [Value::String(n)] => (n.clone(), None),
                    [Value::String(n), Value::Array(a)] => (n.clone(), Some(a.clone())),
                    [Value::String(n), Value::Undef] => (n.clone(), None),
                    [Value::Hash(h)] => match (
                        h.get(&Value::string("name")),
                        h.get(&Value::string("arguments")),
                    ) {
                        (Some(Value::String(n)), None | Some(Value::Undef)) => (n.clone(), None),
                        (Some(Value::String(n)), Some(Value::Array(a))) => {
                            (n.clone(), Some(a.clone()))
                        }
                        _ => return fail(
                            self,
                            "Deferred.new() expects a 'name' String and optional 'arguments' Array"
                                .into(),
                        ),
                    },
                    _ => return fail(
                        self,
                        "The function 'new_Deferred' was called with arguments it does not accept"
                            .into(),
                    ),
                };
                if !is_deferred_function_name(&name) {
                    return fail(
                        self,
                        format!("Deferred.new() expects a function name, got '{}'", name),
                    );
                }
                let mut attributes = OrderedHash::new();
                attributes.insert(Value::string("name"), Value::String(name));
                if let Some(a) = arguments {
                    attributes.insert(Value::string("arguments"), Value::Array(a));
                }
                Ok(Value::Object(Box::new(crate::model::ObjectValue {
                    type_name: "Deferred".into(),
                    attributes,
                })))
            }
            Type::Object(_) => Err(Flow::Unsupported(format!("{}.new() is not evaluated", t))),
            _ => fail(
                self,
                format!("Creation of new instance of type '{}' is not supported", t),
            ),
        }
    }

    /// `Integer.new(...)`.
    fn new_integer(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        let (from, radix, abs) = match arg(0) {
            Value::Hash(h) => (
                h.get(&Value::string("from"))
                    .cloned()
                    .unwrap_or(Value::Undef),
                h.get(&Value::string("radix"))
                    .cloned()
                    .unwrap_or(Value::Default),
                h.get(&Value::string("abs"))
                    .cloned()
                    .unwrap_or(Value::Boolean(false)),
            ),
            v => (v, args.get(1).cloned().unwrap_or(Value::Default), arg(2)),
        };
        let radix = match radix {
            Value::Default | Value::Undef => None,
            Value::Integer(r @ (2 | 8 | 10 | 16)) => Some(r as u32),
            Value::Boolean(_) if args.len() == 2 => None,
            other => {
                return fail(
                    self,
                    format!("Illegal radix: {}", string_format::default_string(&other)),
                )
            }
        };
        let abs = matches!(abs, Value::Boolean(true)) || matches!(arg(1), Value::Boolean(true));
        let n = match &from {
            Value::Integer(i) => *i,
            Value::Float(f) => {
                if f.is_finite() && f.abs() < 9.2e18 {
                    f.trunc() as i64
                } else if f.is_finite() {
                    return Err(big_integer());
                } else {
                    return fail(self, "Float value out of Integer range".into());
                }
            }
            Value::Boolean(b) => *b as i64,
            Value::Timespan(ts) => (ts.nanos / 1_000_000_000) as i64,
            Value::Timestamp(ts) => ts.nanos.div_euclid(1_000_000_000) as i64,
            Value::String(s) => {
                // Puppet's lenient integer pattern: an optional sign,
                // blanks, then decimal (or octal) digits, hex or binary
                let parsed = split_sign(s).and_then(|(sign, body)| {
                    let b = body.as_bytes();
                    let ok = (!b.is_empty() && b.iter().all(u8::is_ascii_digit))
                        || (b.len() > 2
                            && b[0] == b'0'
                            && matches!(b[1], b'x' | b'X')
                            && b[2..].iter().all(u8::is_ascii_hexdigit))
                        || (b.len() > 2
                            && b[0] == b'0'
                            && matches!(b[1], b'b' | b'B')
                            && b[2..].iter().all(|c| *c == b'0' || *c == b'1'));
                    if ok {
                        ruby_kernel_integer_wide(&format!("{}{}", sign, body), radix)
                    } else {
                        None
                    }
                });
                match parsed.map(i64::try_from) {
                    Some(Ok(n)) => n,
                    Some(Err(_)) => return Err(big_integer()),
                    None => {
                        return fail(
                            self,
                            format!("The string '{}' cannot be converted to Integer", s),
                        )
                    }
                }
            }
            other => {
                return fail(
                    self,
                    format!(
                        "Value of type {} cannot be converted to Integer",
                        infer_generalized(other)
                    ),
                )
            }
        };
        Ok(Value::Integer(if abs {
            n.checked_abs().unwrap_or(i64::MAX)
        } else {
            n
        }))
    }

    /// `Float.new(...)`.
    fn new_float(&mut self, t: &Type, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        // only `(from, abs)` or a hash: no radix
        if args.len() > 2 || args.get(1).is_some_and(|a| !matches!(a, Value::Boolean(_))) {
            return fail(
                self,
                format!(
                    "The function 'new_{}' was called with arguments it does not accept",
                    if matches!(t, Type::Numeric) {
                        "numeric"
                    } else {
                        "float"
                    }
                ),
            );
        }
        let (from, abs) = match arg(0) {
            Value::Hash(h)
                if h.keys()
                    .any(|k| !matches!(k, Value::String(s) if s == "from" || s == "abs")) =>
            {
                return fail(
                    self,
                    format!(
                        "Value of type {} cannot be converted to {}",
                        infer_generalized(&Value::Hash(h)),
                        t
                    ),
                )
            }
            Value::Hash(h) => (
                h.get(&Value::string("from"))
                    .cloned()
                    .unwrap_or(Value::Undef),
                matches!(h.get(&Value::string("abs")), Some(Value::Boolean(true))),
            ),
            v => (v, matches!(arg(1), Value::Boolean(true))),
        };
        let numeric = matches!(t, Type::Numeric);
        let v = match &from {
            Value::Integer(i) => {
                if numeric {
                    Value::Integer(*i)
                } else {
                    Value::Float(*i as f64)
                }
            }
            Value::Float(f) => Value::Float(*f),
            Value::Boolean(b) => {
                if numeric {
                    Value::Integer(*b as i64)
                } else {
                    Value::Float(*b as i64 as f64)
                }
            }
            Value::Timespan(ts) => Value::Float(ts.to_f64()),
            Value::Timestamp(ts) => Value::Float(ts.to_f64()),
            Value::String(s) => match float_pattern_value(s, numeric) {
                Some(v) => v,
                None => {
                    return fail(
                        self,
                        format!(
                            "The string '{}' cannot be converted to {}",
                            s,
                            if numeric { "Numeric" } else { "Float" }
                        ),
                    )
                }
            },
            other => {
                return fail(
                    self,
                    format!(
                        "Value of type {} cannot be converted to {}",
                        infer_generalized(other),
                        t
                    ),
                )
            }
        };
        Ok(if abs {
            match v {
                Value::Integer(i) => Value::Integer(i.checked_abs().unwrap_or(i64::MAX)),
                Value::Float(f) => Value::Float(f.abs()),
                o => o,
            }
        } else {
            v
        })
    }

    /// `Boolean.new(...)`.
    fn new_boolean(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        match arg(0) {
            Value::Boolean(b) => Ok(Value::Boolean(b)),
            Value::Integer(i) => Ok(Value::Boolean(i != 0)),
            Value::Float(f) => Ok(Value::Boolean(f != 0.0)),
            Value::String(s) => match string_to_bool(&s) {
                Some(b) => Ok(Value::Boolean(b)),
                None => fail(
                    self,
                    format!("The string '{}' cannot be converted to Boolean", s),
                ),
            },
            other => fail(
                self,
                format!(
                    "Value of type {} cannot be converted to Boolean",
                    infer_generalized(&other)
                ),
            ),
        }
    }

    /// `Array.new(...)`.
    fn new_array(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        let wrap = match args.get(1) {
            None => false,
            Some(Value::Boolean(b)) => *b,
            Some(other) => {
                return fail(
                    self,
                    format!(
                        "'new_array' parameter 'wrap' expects a Boolean value, got {}",
                        infer_generalized(other)
                    ),
                )
            }
        };
        let v = arg(0);
        Ok(Value::Array(match v {
            Value::Array(a) => a,
            other if wrap => vec![other],
            Value::Hash(h) => h
                .iter()
                .map(|(k, v)| Value::Array(vec![k.clone(), v.clone()]))
                .collect(),
            Value::String(s) => s.chars().map(|c| Value::String(c.to_string())).collect(),
            Value::Integer(n) => {
                self.check_size(n.max(0) as u128)?;
                (0..n).map(Value::Integer).collect()
            }
            Value::Iterator(it) => it.elements,
            Value::Type(Type::Integer(r)) if r.from.is_some() && r.to.is_some() => {
                self.check_size((r.hi() - r.lo() + 1).max(0) as u128)?;
                (r.lo()..=r.hi())
                    .map(|i| Value::Integer(i as i64))
                    .collect()
            }
            Value::Type(Type::Enum(e)) => {
                e.values.iter().map(|s| Value::string(s.clone())).collect()
            }
            other => {
                return fail(
                    self,
                    format!(
                        "Value of type {} cannot be converted to Array",
                        infer_generalized(&other)
                    ),
                )
            }
        }))
    }

    /// `Hash.new(...)`.
    fn new_hash(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        let v = arg(0);
        let pairs_from = |items: Vec<Value>| -> Option<OrderedHash> {
            if items
                .iter()
                .all(|e| matches!(e, Value::Array(p) if p.len() == 2))
            {
                Some(
                    items
                        .into_iter()
                        .filter_map(|e| match e {
                            Value::Array(mut p) => {
                                let b = p.pop()?;
                                let a = p.pop()?;
                                Some((a, b))
                            }
                            _ => None,
                        })
                        .collect(),
                )
            } else if items.len().is_multiple_of(2) {
                Some(
                    items
                        .chunks(2)
                        .map(|c| (c[0].clone(), c[1].clone()))
                        .collect(),
                )
            } else {
                None
            }
        };
        // other iterables are splatted into Ruby's `Hash[...]`
        let splatted = match v {
            Value::Hash(h) => return Ok(Value::Hash(h)),
            Value::Array(a) => {
                return match pairs_from(a) {
                    Some(h) => Ok(Value::Hash(h)),
                    None => fail(self, "odd number of arguments for Hash".into()),
                }
            }
            Value::Iterator(it) => it.elements,
            Value::Integer(n) if n >= 0 => {
                self.check_size(n as u128)?;
                (0..n).map(Value::Integer).collect()
            }
            Value::String(s) => s.chars().map(|c| Value::String(c.to_string())).collect(),
            Value::Type(Type::Enum(e)) => e.values.iter().map(Value::string).collect(),
            Value::Type(Type::Integer(r)) if r.from.is_some() && r.to.is_some() => {
                self.check_size((r.hi() - r.lo() + 1).max(0) as u128)?;
                (r.lo()..=r.hi())
                    .map(|i| Value::Integer(i as i64))
                    .collect()
            }
            other => {
                return fail(
                    self,
                    format!(
                        "Value of type {} cannot be converted to Hash",
                        infer_generalized(&other)
                    ),
                )
            }
        };
        ruby_hash_splat(splatted)
            .map(Value::Hash)
            .or_else(|m| fail(self, m))
    }

    /// `Regexp.new(...)`.
    fn new_regexp(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        match arg(0) {
            Value::String(s) if matches!(arg(1), Value::Boolean(true)) => {
                Ok(Value::Regexp(Regexp::new(&ruby_regexp_escape(&s))))
            }
            Value::String(s) => match Regexp::try_new(&s) {
                Ok(r) => Ok(Value::Regexp(r)),
                Err(crate::regexp::RegexError::Unsupported(_)) => {
                    Ok(Value::Regexp(Regexp::new(&s)))
                }
                Err(crate::regexp::RegexError::Invalid(m)) => fail(self, m),
            },
            Value::Regexp(r) => Ok(Value::Regexp(r)),
            other => fail(
                self,
                format!(
                    "Value of type {} cannot be converted to Regexp",
                    infer_generalized(&other)
                ),
            ),
        }
    }

    /// `SemVer.new(...)`.
    fn new_semver(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        match args {
            [Value::String(s)] => Version::parse(s)
                .map(Value::SemVer)
                .map_err(|e| self.error(at, e)),
            [Value::SemVer(v)] => Ok(Value::SemVer(v.clone())),
            [Value::Hash(h)] => {
                let g = |k: &str| h.get(&Value::string(k)).cloned().unwrap_or(Value::Undef);
                let a = [
                    g("major"),
                    g("minor"),
                    g("patch"),
                    g("prerelease"),
                    g("build"),
                ];
                self.semver_from_parts(&a, at)
            }
            // positional prerelease and build must be strings when given
            parts
                if (3..=5).contains(&parts.len())
                    && parts[3..].iter().all(|p| matches!(p, Value::String(_))) =>
            {
                self.semver_from_parts(parts, at)
            }
            _ => fail(
                self,
                "SemVer.new() expects a String or major, minor, patch".into(),
            ),
        }
    }

    /// `SemVerRange.new(...)`.
    fn new_semver_range(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        match args {
            [Value::String(s)] if s.is_empty() => fail(
                self,
                "The function 'new_VersionRange' was called with arguments it does not accept: an empty String".into(),
            ),
            [Value::String(s)] => VersionRange::parse(s)
                .map(Value::SemVerRange)
                .map_err(|e| self.error(at, e)),
            [Value::SemVerRange(r)] => Ok(Value::SemVerRange(r.clone())),
            _ => match semver_range_from_bounds(args) {
                Some(r) => Ok(Value::SemVerRange(r)),
                None => fail(
                    self,
                    "The function 'new_VersionRange' was called with arguments it does not accept. It expects a String, min and max versions (SemVer or default) and an optional Boolean, or a Hash of them".into(),
                ),
            },
        }
    }

    /// `Timestamp.new(...)`.
    fn new_timestamp(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        match args {
            [Value::Integer(i)] => Ok(Value::Timestamp(Timestamp {
                nanos: *i as i128 * 1_000_000_000,
            })),
            [Value::Float(f)] => match crate::time::float_secs_to_nanos(*f) {
                Some(n) => Ok(Value::Timestamp(Timestamp { nanos: n })),
                None => fail(self, "Timestamp out of range".into()),
            },
            [Value::String(s)] => Timestamp::parse(s)
                .map(Value::Timestamp)
                .map_err(|e| self.error(at, e)),
            [Value::Timestamp(t)] => Ok(Value::Timestamp(*t)),
            [Value::String(s), format] => self.timestamp_from_string(s, format, None, at),
            [Value::String(s), format, tz] => self.timestamp_from_string(s, format, Some(tz), at),
            [Value::Hash(h)] => {
                let get = |k: &str| h.get(&Value::string(k)).cloned();
                match get("string") {
                    Some(Value::String(s)) => self.timestamp_from_string(
                        &s,
                        &get("format").unwrap_or(Value::Default),
                        get("timezone").as_ref(),
                        at,
                    ),
                    _ => fail(
                        self,
                        "Timestamp.new() expects a hash with a 'string'".into(),
                    ),
                }
            }
            _ => fail(
                self,
                "Timestamp.new() was called with arguments it does not accept".into(),
            ),
        }
    }

    /// `Type.new(...)`.
    fn new_type(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        match arg(0) {
            Value::Type(t) => Ok(Value::Type(t)),
            Value::String(_) => Err(Flow::Unsupported("type strings are not parsed".into())),
            other => fail(
                self,
                format!(
                    "Value of type {} cannot be converted to Type",
                    infer_generalized(&other)
                ),
            ),
        }
    }

    /// `Binary.new(...)`.
    fn new_binary(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let bytes = match args {
            [Value::String(s)] => crate::values::binary::from_string(s, "%B"),
            [Value::String(s), Value::String(f)] => crate::values::binary::from_string(s, f),
            [Value::Array(a)] => byte_array(a),
            [Value::Hash(h)] => match (
                h.get(&Value::string("value")),
                h.get(&Value::string("format")),
            ) {
                (Some(Value::String(s)), None | Some(Value::Undef)) => {
                    crate::values::binary::from_string(s, "%B")
                }
                (Some(Value::String(s)), Some(Value::String(f))) => {
                    crate::values::binary::from_string(s, f)
                }
                (Some(Value::Array(a)), None) => byte_array(a),
                _ => Err("Binary.new() expects a hash with a String or byte Array 'value'".into()),
            },
            _ => Err("Binary.new() was called with arguments it does not accept".into()),
        };
        bytes.map(Value::Binary).map_err(|e| self.error(at, e))
    }

    /// `Uri.new(...)`.
    fn new_uri(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let fail = |this: &Self, m: String| Err(this.error(at, m));
        match args {
            [Value::String(s)] if !s.is_empty() => {
                // characters RFC 3986 never allows unescaped
                if s.chars()
                    .any(|c| c.is_whitespace() || c.is_control() || "<>\"{}|\\^`".contains(c))
                {
                    fail(self, format!("bad URI(is not URI?): {:?}", s))
                } else {
                    Ok(Value::Uri(s.clone()))
                }
            }
            [Value::Hash(h)] => {
                let part = |k: &str| match h.get(&Value::string(k)) {
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(Value::Integer(i)) => Some(i.to_string()),
                    _ => None,
                };
                let mut u = String::new();
                if let Some(sc) = part("scheme") {
                    u.push_str(&sc);
                    u.push(':');
                }
                if let Some(o) = part("opaque") {
                    u.push_str(&o);
                } else {
                    if let Some(host) = part("host") {
                        u.push_str("//");
                        if let Some(ui) = part("userinfo") {
                            u.push_str(&ui);
                            u.push('@');
                        }
                        u.push_str(&host);
                        if let Some(port) = part("port") {
                            u.push(':');
                            u.push_str(&port);
                        }
                    }
                    if let Some(path) = part("path") {
                        u.push_str(&path);
                    }
                    if let Some(q) = part("query") {
                        u.push('?');
                        u.push_str(&q);
                    }
                }
                if let Some(f) = part("fragment") {
                    u.push('#');
                    u.push_str(&f);
                }
                Ok(Value::Uri(u))
            }
            _ => fail(
                self,
                "URI.new() expects a non-empty String or a Hash".into(),
            ),
        }
    }

    /// `Timestamp(string, format(s), timezone)`.
    fn timestamp_from_string(
        &mut self,
        s: &str,
        format: &Value,
        tz: Option<&Value>,
        at: ExprId,
    ) -> Result<Value, Flow> {
        let tz = match tz {
            None | Some(Value::Undef) | Some(Value::Default) => None,
            Some(Value::String(t)) if t.eq_ignore_ascii_case("current") => {
                return Err(Flow::Unsupported(
                    "the host's current time zone is not known statically".into(),
                ))
            }
            Some(Value::String(t)) => Some(t.as_str()),
            Some(other) => {
                return Err(self.error(
                    at,
                    format!(
                        "Timestamp.new() expects a String time zone, got {}",
                        other.a_label()
                    ),
                ))
            }
        };
        let formats: Vec<&str> = match format {
            Value::Undef | Value::Default if tz.is_some() => {
                crate::time::TIMESTAMP_DEFAULT_FORMATS[5..].to_vec()
            }
            Value::Undef | Value::Default => crate::time::TIMESTAMP_DEFAULT_FORMATS.to_vec(),
            Value::String(f) => vec![f.as_str()],
            Value::Array(fs) if !fs.is_empty() => {
                let mut v = Vec::new();
                for f in fs {
                    match f {
                        Value::String(f) => v.push(f.as_str()),
                        _ => return Err(self.error(at, "Timestamp formats must be Strings")),
                    }
                }
                v
            }
            other => {
                return Err(self.error(
                    at,
                    format!(
                        "Timestamp.new() expects a format String or Array, got {}",
                        other.a_label()
                    ),
                ))
            }
        };
        crate::time::strptime::parse_timestamp(s, &formats, tz)
            .map(Value::Timestamp)
            .map_err(|e| self.error(at, e))
    }

    fn semver_from_parts(&mut self, parts: &[Value], at: ExprId) -> Result<Value, Flow> {
        let num = |v: &Value| match v {
            Value::Integer(i) if *i >= 0 => Some(*i as u64),
            _ => None,
        };
        let (Some(ma), Some(mi), Some(pa)) = (num(&parts[0]), num(&parts[1]), num(&parts[2]))
        else {
            return Err(self.error(at, "SemVer.new() expects non-negative Integers"));
        };
        let mut s = format!("{}.{}.{}", ma, mi, pa);
        match parts.get(3) {
            Some(Value::String(p)) => {
                s.push('-');
                s.push_str(p);
            }
            Some(Value::Undef) | None => {}
            Some(_) => return Err(self.error(at, "SemVer prerelease must be a String")),
        }
        match parts.get(4) {
            Some(Value::String(b)) => {
                s.push('+');
                s.push_str(b);
            }
            Some(Value::Undef) | None => {}
            Some(_) => return Err(self.error(at, "SemVer build must be a String")),
        }
        Version::parse(&s)
            .map(Value::SemVer)
            .map_err(|e| self.error(at, e))
    }

    fn new_timespan(&mut self, args: &[Value], at: ExprId) -> Result<Value, Flow> {
        let err = |this: &Self, m: String| Err(this.error(at, m));
        match args {
            [Value::Integer(i)] => Ok(Value::Timespan(Timespan {
                nanos: *i as i128 * 1_000_000_000,
            })),
            [Value::Float(f)] => match crate::time::float_secs_to_nanos(*f) {
                Some(n) => Ok(Value::Timespan(Timespan { nanos: n })),
                None => err(self, "Timespan out of range".into()),
            },
            [Value::Timespan(t)] => Ok(Value::Timespan(*t)),
            [Value::String(s)] => Timespan::parse(s)
                .map(Value::Timespan)
                .map_err(|e| self.error(at, e)),
            [Value::String(s), Value::String(f)] => Timespan::parse_with(s, f)
                .map(Value::Timespan)
                .map_err(|e| self.error(at, e)),
            [Value::String(s), Value::Array(fs)] => {
                let fs: Vec<&str> = fs
                    .iter()
                    .filter_map(|f| match f {
                        Value::String(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .collect();
                Timespan::parse_any(s, &fs)
                    .map(Value::Timespan)
                    .map_err(|e| self.error(at, e))
            }
            [Value::Hash(h)] => {
                if let Some(Value::String(s)) = h.get(&Value::string("string")) {
                    let mut a = vec![Value::String(s.clone())];
                    if let Some(f) = h.get(&Value::string("format")) {
                        a.push(f.clone());
                    }
                    return self.new_timespan(&a, at);
                }
                let known = [
                    "days",
                    "hours",
                    "minutes",
                    "seconds",
                    "milliseconds",
                    "microseconds",
                    "nanoseconds",
                    "negative",
                ];
                for k in h.keys() {
                    if !matches!(k, Value::String(s) if known.contains(&s.as_str())) {
                        return err(
                            self,
                            format!(
                                "Timespan.new() does not accept the key {}",
                                string_format::default_string(k)
                            ),
                        );
                    }
                }
                let g = |k: &str| match h.get(&Value::string(k)) {
                    Some(Value::Integer(i)) => Ok(*i),
                    None | Some(Value::Undef) => Ok(0),
                    Some(_) => Err(()),
                };
                let fields: Result<Vec<i64>, ()> = known[..7].iter().map(|k| g(k)).collect();
                let Ok(f) = fields else {
                    return err(self, "Timespan.new() hash values must be Integers".into());
                };
                let neg = match h.get(&Value::string("negative")) {
                    None | Some(Value::Undef) => false,
                    Some(Value::Boolean(b)) => *b,
                    Some(_) => {
                        return err(self, "Timespan.new() expects a Boolean 'negative'".into())
                    }
                };
                Ok(Value::Timespan(Timespan::from_fields(
                    neg, f[0], f[1], f[2], f[3], f[4], f[5], f[6],
                )))
            }
            [d, h, m, s, rest @ ..] if rest.len() <= 3 => {
                let mut nums = Vec::new();
                for v in [d, h, m, s].into_iter().chain(rest.iter()) {
                    match v {
                        Value::Integer(i) => nums.push(*i),
                        _ => return err(self, "Timespan.new() expects Integer components".into()),
                    }
                }
                nums.resize(7, 0);
                Ok(Value::Timespan(Timespan::from_fields(
                    false, nums[0], nums[1], nums[2], nums[3], nums[4], nums[5], nums[6],
                )))
            }
            _ => err(
                self,
                "Timespan.new() was called with illegal arguments".into(),
            ),
        }
    }

    fn aliases_resolve(&self, name: &str) -> Option<Type> {
        use crate::types::AliasResolver;
        self.aliases.resolve(name)
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::record::eval_case;

    /// The `%p` form of the value, or "error".
    fn value(src: &str) -> String {
        let r = eval_case(src);
        match (r.error, r.value) {
            (Some(_), _) => "error".into(),
            (None, Some(v)) => v,
            (None, None) => format!("unsupported: {:?}", r.unsupported),
        }
    }

    #[test]
    fn integer_strings_allow_blanks_after_the_sign_only() {
        assert_eq!(value("Integer(' 12')"), "12");
        assert_eq!(value("Integer('- 12')"), "-12");
        assert_eq!(value("Integer(' 0x1F')"), "31");
        assert_eq!(value("Integer(' -12')"), "error");
        assert_eq!(value("Integer('12 ')"), "error");
        assert_eq!(value("Integer('1_000')"), "error");
    }

    #[test]
    fn float_and_numeric_strings() {
        assert_eq!(value("Float('010')"), "10.0");
        assert_eq!(value("Float(' 010')"), "10.0");
        assert_eq!(value("Float('0x10')"), "16.0");
        assert_eq!(value("Float('0b11')"), "3.0");
        assert_eq!(value("Float('0o17')"), "error");
        assert_eq!(value("Float('1.5 ')"), "error");
        assert_eq!(value("Numeric('010')"), "8");
        assert_eq!(value("Numeric(' 12')"), "12");
        assert_eq!(value("Numeric('- 1.5e3')"), "-1500.0");
        assert_eq!(value("Numeric('010.5')"), "error");
        // no radix for Float and Numeric
        assert_eq!(value("Numeric('010', 10)"), "error");
        assert_eq!(value("Float('10', 10)"), "error");
        assert_eq!(value("Numeric('10', true)"), "10");
    }

    #[test]
    fn instances_are_returned_as_is_and_variants_do_not_convert() {
        assert_eq!(value("Variant[Integer, String]('5')"), "'5'");
        assert_eq!(value("Variant[Integer, String](5)"), "5");
        assert_eq!(value("Variant[Integer]('5')"), "5");
        assert_eq!(value("Variant[Integer, Float]('5')"), "error");
        assert_eq!(value("Undef(1)"), "error");
        assert_eq!(value("Undef(undef)"), "undef");
    }

    #[test]
    fn semver_positional_qualifiers_must_be_strings() {
        assert_eq!(value("SemVer(1,2,3,'a','b7')"), "1.2.3-a+b7");
        assert_eq!(value("SemVer(1,2,3,undef,'b7')"), "error");
        assert_eq!(value("SemVer(1,2,3,undef)"), "error");
    }

    #[test]
    fn binaries_from_strings_arrays_and_hashes() {
        assert_eq!(value("Binary('aGVsbG8=')"), "Binary(\"aGVsbG8=\")");
        assert_eq!(value("Binary([104,105])"), "Binary(\"aGk=\")");
        assert_eq!(value("Binary('hi', '%s')"), "Binary(\"aGk=\")");
        assert_eq!(value("Binary('aGk', '%b')"), "Binary(\"aGk=\")");
        assert_eq!(
            value("Binary({value => 'aGk=', format => '%B'})"),
            "Binary(\"aGk=\")"
        );
        assert_eq!(value("Binary('aGk')"), "error");
        assert_eq!(value("Binary([256])"), "error");
        assert_eq!(value("Binary('aGk=') == Binary('aGk=')"), "true");
        assert_eq!(value("Binary('YWJj').size"), "3");
        assert_eq!(value("empty(Binary(''))"), "true");
        assert_eq!(value("String(Binary('aGVsbG8='), '%s')"), "'hello'");
        assert_eq!(
            value("String(Binary('aGVsbG8='), '%10p')"),
            "'Binary(\"  aGVsbG8=\")'"
        );
        assert_eq!(value("String(Binary('aGVsbG8='), '%#B')"), "'\"aGVsbG8=\"'");
    }

    #[test]
    fn uris_and_their_type_parameters() {
        assert_eq!(value("URI('http://a.com')"), "URI('http://a.com')");
        assert_eq!(
            value("type(URI('http://a.com:8080'))"),
            "URI[{'scheme' => 'http', 'host' => 'a.com', 'port' => '8080'}]"
        );
        assert_eq!(
            value("type(URI('https://a.com:443/'))"),
            "URI[{'scheme' => 'https', 'host' => 'a.com', 'path' => '/'}]"
        );
        assert_eq!(
            value("URI('http://a.com') =~ URI[{scheme => 'HTTP'}]"),
            "true"
        );
        assert_eq!(
            value("URI('http://a.com') =~ URI[{scheme => /^ht/}]"),
            "true"
        );
        assert_eq!(value("URI('http://a.com') =~ URI[{port => 80}]"), "true");
        assert_eq!(
            value("URI('http://a.com') =~ URI[{host => String}]"),
            "true"
        );
        assert_eq!(value("URI('http://a.com') =~ URI['http://b.com']"), "false");
        assert_eq!(
            value("URI({scheme => 'https', host => 'x.org', port => 8443, path => '/p'})"),
            "URI('https://x.org:8443/p')"
        );
        assert_eq!(value("URI('a b')"), "error");
    }

    #[test]
    fn deferred_values() {
        assert_eq!(
            value("Deferred('join', [[1,2], '-'])"),
            "Deferred({'name' => 'join', 'arguments' => [[1, 2], '-']})"
        );
        assert_eq!(
            value("Deferred({name => 'join'})"),
            "Deferred({'name' => 'join'})"
        );
        assert_eq!(value("type(Deferred('join', [1])) == Deferred"), "true");
        assert_eq!(value("Deferred('join', [1]) =~ Object"), "true");
        assert_eq!(
            value("Deferred('join', [1]) == Deferred('join', [1])"),
            "true"
        );
        assert_eq!(value("Deferred('join', 1)"), "error");
        assert_eq!(value("Deferred('Join')"), "error");
        assert_eq!(
            value("String(Deferred('join'), '%p')"),
            "'Deferred({\\'name\\' => \\'join\\'})'"
        );
        assert!(crate::eval::record::eval_case("Deferred('join')")
            .type_
            .is_some_and(|t| t.starts_with("Object[{name => 'Deferred'")));
    }

    #[test]
    fn timestamps_from_formats_and_zones() {
        assert_eq!(
            value("Timestamp('24.08.2016', ['%F', '%d.%m.%Y'])"),
            "Timestamp('2016-08-24T00:00:00.000000000 UTC')"
        );
        assert_eq!(
            value("Timestamp('2016-08-24 12:00', '%F %R', '+02:00')"),
            "Timestamp('2016-08-24T10:00:00.000000000 UTC')"
        );
        assert_eq!(
            value("Timestamp({string => '2015', format => '%Y'})"),
            "Timestamp('2015-01-01T00:00:00.000000000 UTC')"
        );
        assert_eq!(value("Timestamp('2016-08-24', '%Y')"), "error");
        assert_eq!(value("Timestamp('1473150899', '%s')"), "error");
    }
}
