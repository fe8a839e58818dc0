//! String functions: `split`, the case and whitespace family (`upcase`, `strip`...), `sprintf`, `strftime`, `match`, `regsubst`.

use super::*;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new("split", split),
    Builtin::new("upcase", string_transform),
    Builtin::new("downcase", string_transform),
    Builtin::new("capitalize", string_transform),
    Builtin::new("camelcase", string_transform),
    Builtin::new("strip", string_transform),
    Builtin::new("lstrip", string_transform),
    Builtin::new("rstrip", string_transform),
    Builtin::new("chomp", string_transform),
    Builtin::new("chop", string_transform),
    Builtin::new("sprintf", sprintf),
    Builtin::new("strftime", strftime),
    Builtin::new("match", match_regex),
    Builtin::new("regsubst", regsubst),
];

/// `split`.
fn split(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let Call { args, at, .. } = call;
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
    let Value::String(s) = arg(0) else {
        return Err(ev.error(at, "'split' expects a String value"));
    };
    let re = match arg(1) {
        Value::String(p) => Regexp::new(&p),
        Value::Regexp(r) => r,
        Value::Type(Type::Regexp(Some(p))) => Regexp::new(&p),
        _ => return Err(ev.error(at, "'split' expects a String or Regexp pattern")),
    };
    match ruby_split(&s, &re) {
        Ok(parts) => Ok(Value::Array(parts.into_iter().map(Value::String).collect())),
        Err(RegexError::Unsupported(m)) => Err(Flow::Unsupported(m)),
        Err(RegexError::Invalid(m)) => Err(ev.error(at, m)),
    }
}

/// `upcase`, `downcase`, `capitalize`, `camelcase`, `strip`, `lstrip`, `rstrip`, `chomp`, `chop`.
fn string_transform(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let Call { name, args, at, .. } = call;
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
    let n = args.len();
    if n != 1 {
        return Err(ev.arity_error(name, at));
    }
    let f: &dyn Fn(&str) -> String = match name {
        "upcase" => &|s: &str| s.to_uppercase(),
        "downcase" => &|s: &str| s.to_lowercase(),
        "capitalize" => &ruby_capitalize,
        "camelcase" => &|s: &str| s.split('_').map(ruby_capitalize).collect(),
        "strip" => &|s: &str| s.trim_matches(ruby_space).to_string(),
        "lstrip" => &|s: &str| s.trim_start_matches(ruby_space).to_string(),
        "rstrip" => &|s: &str| s.trim_end_matches(ruby_space).to_string(),
        "chomp" => &ruby_chomp,
        _ => &ruby_chop,
    };
    let v = arg(0);
    match map_strings(&v, f, matches!(name, "upcase" | "downcase")) {
        Some(r) => Ok(r),
        None => Err(ev.error(
            at,
            format!(
                "'{}' expects a String value, got {}",
                name,
                infer_generalized(&v)
            ),
        )),
    }
}

/// `sprintf`.
fn sprintf(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let Call { args, at, .. } = call;
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
    let Value::String(fmt) = arg(0) else {
        return Err(ev.error(at, "sprintf expects a format String"));
    };
    string_format::sprintf(&fmt, &args[1..])
        .map(Value::String)
        .map_err(|e| ev.error(at, e))
}

/// `strftime`.
fn strftime(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let Call { args, at, .. } = call;
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
    let Value::String(fmt) = arg(1) else {
        return match arg(0) {
            Value::String(_) => Ok(Value::Unknown(Type::string())),
            _ => Err(ev.error(at, "strftime expects a format String")),
        };
    };
    match arg(0) {
        Value::Timespan(t) => t
            .format(&fmt)
            .map(Value::String)
            .map_err(|e| ev.error(at, e)),
        Value::Timestamp(t) => {
            let tz = match arg(2) {
                Value::Undef => String::new(),
                Value::String(tz) if tz.eq_ignore_ascii_case("current") => {
                    return Err(Flow::Unsupported(
                        "the host's current time zone is not known statically".into(),
                    ))
                }
                Value::String(tz) => tz,
                other => {
                    return Err(ev.error(
                        at,
                        format!(
                            "strftime expects a String time zone, got {}",
                            other.a_label()
                        ),
                    ))
                }
            };
            t.format_in_zone(&fmt, &tz)
                .map(Value::String)
                .map_err(|e| ev.error(at, e))
        }
        other => Err(ev.error(
            at,
            format!(
                "strftime expects a Timespan or Timestamp, got {}",
                other.a_label()
            ),
        )),
    }
}

/// `match`.
fn match_regex(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let Call { args, at, .. } = call;
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
    let re = match arg(1) {
        Value::String(p) => Regexp::new(&p),
        Value::Regexp(r) => r,
        Value::Type(Type::Regexp(Some(p))) => Regexp::new(&p),
        Value::Type(Type::Pattern(ps)) if ps.len() == 1 => Regexp::new(&ps[0]),
        _ => return Err(ev.error(at, "'match' expects a String, Regexp or Pattern")),
    };
    fn one(re: &Regexp, v: &Value) -> Result<Value, RegexError> {
        match v {
            Value::String(s) => Ok(match re.captures(s)? {
                Some(g) => Value::Array(
                    g.into_iter()
                        .map(|x| x.map_or(Value::Undef, Value::String))
                        .collect(),
                ),
                None => Value::Undef,
            }),
            Value::Array(a) => Ok(Value::Array(
                a.iter().map(|e| one(re, e)).collect::<Result<_, _>>()?,
            )),
            _ => Ok(Value::Undef),
        }
    }
    one(&re, &arg(0)).map_err(|e| match e {
        RegexError::Unsupported(m) => Flow::Unsupported(m),
        RegexError::Invalid(m) => ev.error(at, m),
    })
}

/// `regsubst`.
fn regsubst(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let Call { args, at, .. } = call;
    ev.regsubst(args, at)
}
