//! Calls to types (`Integer('0xFF')`, `String(v, '%x')`, `Timespan(...)`):
//! Puppet's `new` function, converting its arguments to an instance of the
//! type; the result must then be an instance of the (parameterized) type.

use puppet_syntax::ast;
use puppet_syntax::SyntaxNode;

use super::{Evaluator, Flow};
use crate::types::{infer_generalized, Type};
use crate::values::semver::{Version, VersionRange};
use crate::values::string_format;
use crate::values::{OrderedHash, Regexp, Timespan, Timestamp, Value};

/// Ruby's `Integer(str, radix)`: optional sign (blanks allowed after it),
/// prefixes `0x`, `0b`, `0o`/`0` (default radix), underscores between digits.
fn ruby_integer(s: &str, radix: Option<u32>) -> Option<i64> {
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace());
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = t.to_ascii_lowercase();
    let (radix, digits) = match radix {
        None => {
            if let Some(d) = lower.strip_prefix("0x") {
                (16, d.to_string())
            } else if let Some(d) = lower.strip_prefix("0b") {
                (2, d.to_string())
            } else if let Some(d) = lower.strip_prefix("0o") {
                (8, d.to_string())
            } else if lower.len() > 1 && lower.starts_with('0') {
                (8, lower[1..].to_string())
            } else {
                (10, lower.clone())
            }
        }
        Some(r) => {
            let d = match r {
                16 => lower.strip_prefix("0x").unwrap_or(&lower),
                2 => lower.strip_prefix("0b").unwrap_or(&lower),
                8 => lower
                    .strip_prefix("0o")
                    .or_else(|| lower.strip_prefix('0').filter(|x| !x.is_empty()))
                    .unwrap_or(&lower),
                _ => &lower,
            };
            (r, d.to_string())
        }
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let clean: String = digits.chars().filter(|c| *c != '_').collect();
    let v = i64::from_str_radix(&clean, radix).ok()?;
    Some(if neg { -v } else { v })
}

/// Ruby's `Float(str)`.
fn ruby_float(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace());
    if let Some(i) = ruby_integer(t, None) {
        if t.to_ascii_lowercase().contains("0x") || !t.contains(['.', 'e', 'E']) {
            return Some(i as f64);
        }
    }
    let valid = !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+' | b'_'))
        && !t.ends_with('.')
        && !t.starts_with('.');
    if !valid {
        return None;
    }
    t.replace('_', "")
        .parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
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
    pub(crate) fn new_instance(
        &mut self,
        t: &Type,
        args: Vec<Value>,
        lambda: Option<&ast::Lambda>,
        node: &SyntaxNode,
    ) -> Result<Value, Flow> {
        if args.iter().any(Value::is_unknown) {
            return Ok(Value::Unknown(t.clone()));
        }
        let v = self.convert(t, &args, node)?;
        let ts = self.ts();
        let ok = ts.instance(t, &v);
        drop(ts);
        if !ok {
            return Err(self.error(
                node,
                format!(
                    "Converted value from {}.new() has wrong type, expects a {} value, got {}",
                    t,
                    t,
                    infer_generalized(&v)
                ),
            ));
        }
        match lambda {
            Some(l) => self.call_lambda(l, vec![v], node),
            None => Ok(v),
        }
    }

    fn convert(&mut self, t: &Type, args: &[Value], node: &SyntaxNode) -> Result<Value, Flow> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        let fail = |this: &Self, m: String| Err(this.error(node, m));
        if args.is_empty() {
            return fail(self, format!("{}.new() expects at least one argument", t));
        }
        match t {
            Type::Alias(name) => {
                let resolved = self.aliases_resolve(name);
                match resolved {
                    Some(r) => self.convert(&r, args, node),
                    None => fail(self, format!("Type alias '{}' cannot be resolved", name)),
                }
            }
            Type::Optional(Some(inner)) | Type::NotUndef(Some(inner)) => {
                if let (Type::Optional(_), Value::Undef) = (t, arg(0)) {
                    return Ok(Value::Undef);
                }
                self.convert(inner, args, node)
            }
            Type::Init(Some(inner), extra) => {
                let mut a = args.to_vec();
                a.extend(extra.iter().cloned());
                self.convert(inner, &a, node)
            }
            Type::Integer(_) => {
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
                let abs =
                    matches!(abs, Value::Boolean(true)) || matches!(arg(1), Value::Boolean(true));
                let n = match &from {
                    Value::Integer(i) => *i,
                    Value::Float(f) => {
                        if f.is_finite() && f.abs() < 9.2e18 {
                            f.trunc() as i64
                        } else {
                            return fail(self, "Float value out of Integer range".into());
                        }
                    }
                    Value::Boolean(b) => *b as i64,
                    Value::Timespan(ts) => (ts.nanos / 1_000_000_000) as i64,
                    Value::Timestamp(ts) => ts.nanos.div_euclid(1_000_000_000) as i64,
                    Value::String(s) => {
                        let lenient = {
                            let x = s.trim_start_matches(['+', '-']).trim_start();
                            !x.is_empty()
                                && (x.bytes().all(|b| b.is_ascii_digit())
                                    || (x.len() > 2
                                        && x.starts_with('0')
                                        && matches!(x.as_bytes()[1], b'x' | b'X')
                                        && x[2..].bytes().all(|b| b.is_ascii_hexdigit()))
                                    || (x.len() > 2
                                        && x.starts_with('0')
                                        && matches!(x.as_bytes()[1], b'b' | b'B')
                                        && x[2..].bytes().all(|b| b == b'0' || b == b'1')))
                        };
                        let sign_ws_ok = !s.starts_with(char::is_whitespace)
                            && !s.ends_with(char::is_whitespace);
                        let parsed = if lenient && sign_ws_ok {
                            let compact: String = {
                                let sign: String =
                                    s.chars().take_while(|c| *c == '+' || *c == '-').collect();
                                sign + s.trim_start_matches(['+', '-']).trim_start()
                            };
                            ruby_integer(&compact, radix)
                        } else {
                            None
                        };
                        match parsed {
                            Some(n) => n,
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
            Type::Float(_) | Type::Numeric => {
                let (from, abs) = match arg(0) {
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
                    Value::String(s) => {
                        let r = if numeric {
                            match ruby_integer(s, None) {
                                Some(_)
                                    if !s.trim().is_empty() && !s.contains(['.', 'e', 'E'])
                                        || s.to_ascii_lowercase().contains("0x") =>
                                {
                                    ruby_integer(s, None).map(Value::Integer)
                                }
                                _ => {
                                    let _ = i64::MAX;
                                    ruby_float(s).map(Value::Float)
                                }
                            }
                        } else {
                            ruby_float(s).map(Value::Float)
                        };
                        let bad = s.starts_with(char::is_whitespace)
                            || s.ends_with(char::is_whitespace)
                            || s.contains('_');
                        match r {
                            Some(v) if !bad => v,
                            _ => {
                                return fail(
                                    self,
                                    format!(
                                        "The string '{}' cannot be converted to {}",
                                        s,
                                        if numeric { "Numeric" } else { "Float" }
                                    ),
                                )
                            }
                        }
                    }
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
            Type::Boolean(_) => match arg(0) {
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
            },
            Type::String(_) | Type::Enum(_) | Type::Pattern(_)
                if !matches!(t, Type::Enum(_) | Type::Pattern(_)) =>
            {
                let v = arg(0);
                let s = match args.get(1) {
                    None => string_format::default_string(&v),
                    Some(f) => {
                        string_format::format_value(&v, f).map_err(|e| self.error(node, e))?
                    }
                };
                Ok(Value::String(s))
            }
            Type::Array(..) | Type::Tuple(..) => {
                let wrap = matches!(arg(1), Value::Boolean(true));
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
            Type::Hash(..) | Type::Struct(_) => {
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
                let items = match v {
                    Value::Hash(h) => return Ok(Value::Hash(h)),
                    Value::Array(a) => a,
                    Value::Iterator(it) => it.elements,
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
                match pairs_from(items) {
                    Some(h) => Ok(Value::Hash(h)),
                    None => fail(self, "odd number of arguments for Hash".into()),
                }
            }
            Type::Sensitive(_) => Ok(Value::Sensitive(Box::new(arg(0)))),
            Type::Regexp(_) => match arg(0) {
                Value::String(s) => match Regexp::try_new(&s) {
                    Ok(r) => Ok(Value::Regexp(r)),
                    Err(crate::values::RegexError::Unsupported(_)) => {
                        Ok(Value::Regexp(Regexp::new(&s)))
                    }
                    Err(crate::values::RegexError::Invalid(m)) => fail(self, m),
                },
                Value::Regexp(r) => Ok(Value::Regexp(r)),
                other => fail(
                    self,
                    format!(
                        "Value of type {} cannot be converted to Regexp",
                        infer_generalized(&other)
                    ),
                ),
            },
            Type::SemVer(_) => match args {
                [Value::String(s)] => Version::parse(s)
                    .map(Value::SemVer)
                    .map_err(|e| self.error(node, e)),
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
                    self.semver_from_parts(&a, node)
                }
                parts if parts.len() >= 3 => self.semver_from_parts(parts, node),
                _ => fail(
                    self,
                    "SemVer.new() expects a String or major, minor, patch".into(),
                ),
            },
            Type::SemVerRange => match args {
                [Value::String(s)] => VersionRange::parse(s)
                    .map(Value::SemVerRange)
                    .map_err(|e| self.error(node, e)),
                [Value::SemVerRange(r)] => Ok(Value::SemVerRange(r.clone())),
                [a, b, rest @ ..] => {
                    let ver = |v: &Value| match v {
                        Value::SemVer(v) => Ok(v.clone()),
                        Value::String(s) => Version::parse(s),
                        _ => Err("expects a SemVer".to_string()),
                    };
                    let (min, max) = (
                        ver(a).map_err(|e| self.error(node, e))?,
                        ver(b).map_err(|e| self.error(node, e))?,
                    );
                    let excl = matches!(rest.first(), Some(Value::Boolean(true)));
                    Ok(Value::SemVerRange(VersionRange::between(min, max, excl)))
                }
                _ => fail(
                    self,
                    "SemVerRange.new() expects a String or min and max versions".into(),
                ),
            },
            Type::Timespan(_) => self.new_timespan(args, node),
            Type::Timestamp(_) => match args {
                [Value::Integer(i)] => Ok(Value::Timestamp(Timestamp {
                    nanos: *i as i128 * 1_000_000_000,
                })),
                [Value::Float(f)] => match crate::values::time::float_secs_to_nanos(*f) {
                    Some(n) => Ok(Value::Timestamp(Timestamp { nanos: n })),
                    None => fail(self, "Timestamp out of range".into()),
                },
                [Value::String(s)] => Timestamp::parse(s)
                    .map(Value::Timestamp)
                    .map_err(|e| self.error(node, e)),
                [Value::Timestamp(t)] => Ok(Value::Timestamp(*t)),
                _ => Err(Flow::Unsupported(
                    "Timestamp with formats or time zones is not evaluated".into(),
                )),
            },
            Type::Undef => Ok(Value::Undef),
            Type::Type(_) => match arg(0) {
                Value::Type(t) => Ok(Value::Type(t)),
                Value::String(_) => Err(Flow::Unsupported("type strings are not parsed".into())),
                other => fail(
                    self,
                    format!(
                        "Value of type {} cannot be converted to Type",
                        infer_generalized(&other)
                    ),
                ),
            },
            Type::Variant(ts) => {
                for vt in ts {
                    if let Ok(v) = self.convert(vt, args, node) {
                        let sys = self.ts();
                        if sys.instance(vt, &v) {
                            return Ok(v);
                        }
                    }
                }
                fail(self, format!("Value cannot be converted to {}", t))
            }
            Type::Binary | Type::Uri(_) | Type::Object(_) => {
                Err(Flow::Unsupported(format!("{}.new() is not evaluated", t)))
            }
            _ => fail(
                self,
                format!("Creation of new instance of type '{}' is not supported", t),
            ),
        }
    }

    fn semver_from_parts(&mut self, parts: &[Value], node: &SyntaxNode) -> Result<Value, Flow> {
        let num = |v: &Value| match v {
            Value::Integer(i) if *i >= 0 => Some(*i as u64),
            _ => None,
        };
        let (Some(ma), Some(mi), Some(pa)) = (num(&parts[0]), num(&parts[1]), num(&parts[2]))
        else {
            return Err(self.error(node, "SemVer.new() expects non-negative Integers"));
        };
        let mut s = format!("{}.{}.{}", ma, mi, pa);
        match parts.get(3) {
            Some(Value::String(p)) => {
                s.push('-');
                s.push_str(p);
            }
            Some(Value::Undef) | None => {}
            Some(_) => return Err(self.error(node, "SemVer prerelease must be a String")),
        }
        match parts.get(4) {
            Some(Value::String(b)) => {
                s.push('+');
                s.push_str(b);
            }
            Some(Value::Undef) | None => {}
            Some(_) => return Err(self.error(node, "SemVer build must be a String")),
        }
        Version::parse(&s)
            .map(Value::SemVer)
            .map_err(|e| self.error(node, e))
    }

    fn new_timespan(&mut self, args: &[Value], node: &SyntaxNode) -> Result<Value, Flow> {
        let err = |this: &Self, m: String| Err(this.error(node, m));
        match args {
            [Value::Integer(i)] => Ok(Value::Timespan(Timespan {
                nanos: *i as i128 * 1_000_000_000,
            })),
            [Value::Float(f)] => match crate::values::time::float_secs_to_nanos(*f) {
                Some(n) => Ok(Value::Timespan(Timespan { nanos: n })),
                None => err(self, "Timespan out of range".into()),
            },
            [Value::Timespan(t)] => Ok(Value::Timespan(*t)),
            [Value::String(s)] => Timespan::parse(s)
                .map(Value::Timespan)
                .map_err(|e| self.error(node, e)),
            [Value::String(s), Value::String(f)] => Timespan::parse_with(s, f)
                .map(Value::Timespan)
                .map_err(|e| self.error(node, e)),
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
                    .map_err(|e| self.error(node, e))
            }
            [Value::Hash(h)] => {
                if let Some(Value::String(s)) = h.get(&Value::string("string")) {
                    let mut a = vec![Value::String(s.clone())];
                    if let Some(f) = h.get(&Value::string("format")) {
                        a.push(f.clone());
                    }
                    return self.new_timespan(&a, node);
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
                let neg = matches!(
                    h.get(&Value::string("negative")),
                    Some(Value::Boolean(true))
                );
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
