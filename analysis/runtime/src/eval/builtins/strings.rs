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
    let Value::String(s) = call.arg(0) else {
        return Err(ev.error(call.at, "'split' expects a String value"));
    };
    let re = match call.arg(1) {
        Value::String(p) => Regexp::new(&p),
        Value::Regexp(r) => r,
        Value::Type(Type::Regexp(Some(p))) => Regexp::new(&p),
        _ => return Err(ev.error(call.at, "'split' expects a String or Regexp pattern")),
    };
    match ruby_split(&s, &re) {
        Ok(parts) => Ok(Value::Array(parts.into_iter().map(Value::String).collect())),
        Err(RegexError::Unsupported(m)) => Err(Flow::Unsupported(m)),
        Err(RegexError::Invalid(m)) => Err(ev.error(call.at, m)),
    }
}

/// `upcase`, `downcase`, `capitalize`, `camelcase`, `strip`, `lstrip`, `rstrip`, `chomp`, `chop`.
fn string_transform(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let n = call.args.len();
    if n != 1 {
        return Err(ev.arity_error(call.name, call.at));
    }
    let f: &dyn Fn(&str) -> String = match call.name {
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
    let v = call.arg(0);
    match map_strings(&v, f, matches!(call.name, "upcase" | "downcase")) {
        Some(r) => Ok(r),
        None => Err(ev.error(
            call.at,
            format!(
                "'{}' expects a String value, got {}",
                call.name,
                infer_generalized(&v)
            ),
        )),
    }
}

/// `sprintf`.
fn sprintf(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let Value::String(fmt) = call.arg(0) else {
        return Err(ev.error(call.at, "sprintf expects a format String"));
    };
    string_format::sprintf(&fmt, &call.args[1..])
        .map(Value::String)
        .map_err(|e| ev.error(call.at, e))
}

/// `strftime`.
fn strftime(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let Value::String(fmt) = call.arg(1) else {
        return match call.arg(0) {
            Value::String(_) => Ok(Value::Unknown(Type::string())),
            _ => Err(ev.error(call.at, "strftime expects a format String")),
        };
    };
    match call.arg(0) {
        Value::Timespan(t) => t
            .format(&fmt)
            .map(Value::String)
            .map_err(|e| ev.error(call.at, e)),
        Value::Timestamp(t) => {
            let tz = match call.arg(2) {
                Value::Undef => String::new(),
                Value::String(tz) if tz.eq_ignore_ascii_case("current") => {
                    return Err(Flow::Unsupported(
                        "the host's current time zone is not known statically".into(),
                    ))
                }
                Value::String(tz) => tz,
                other => {
                    return Err(ev.error(
                        call.at,
                        format!(
                            "strftime expects a String time zone, got {}",
                            other.a_label()
                        ),
                    ))
                }
            };
            t.format_in_zone(&fmt, &tz)
                .map(Value::String)
                .map_err(|e| ev.error(call.at, e))
        }
        other => Err(ev.error(
            call.at,
            format!(
                "strftime expects a Timespan or Timestamp, got {}",
                other.a_label()
            ),
        )),
    }
}

/// `match`.
fn match_regex(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let re = match call.arg(1) {
        Value::String(p) => Regexp::new(&p),
        Value::Regexp(r) => r,
        Value::Type(Type::Regexp(Some(p))) => Regexp::new(&p),
        Value::Type(Type::Pattern(ps)) if ps.len() == 1 => Regexp::new(&ps[0]),
        _ => return Err(ev.error(call.at, "'match' expects a String, Regexp or Pattern")),
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
    one(&re, &call.arg(0)).map_err(|e| match e {
        RegexError::Unsupported(m) => Flow::Unsupported(m),
        RegexError::Invalid(m) => ev.error(call.at, m),
    })
}

/// `regsubst`.
fn regsubst(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    ev.regsubst(call.args, call.at)
}
