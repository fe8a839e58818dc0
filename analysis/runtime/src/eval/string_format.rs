//! `String(value, format)` and `sprintf`: Puppet's string converter (format
//! table per value type, container formats with delimiters, separators and
//! nested `string_formats`) on top of a Ruby-compatible `Kernel#format` for a
//! single directive.

use crate::model::{OrderedHash, Type, Value};
use crate::types::alias::type_value_string;
use crate::types::{infer_set, is_assignable};
use crate::values::convert::{ruby_kernel_float, ruby_kernel_integer};
use crate::values::float::ruby_float_to_s;
use crate::values::format::{
    puppet_double_quote, puppet_quote, regexp_with_delimiters, to_interpolated, to_programmatic,
};

/// A parsed `%<flags><width>.<prec><conv>` directive.
#[derive(Clone, Debug, Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alt: bool,
    delim: Option<char>,
    width: Option<usize>,
    prec: Option<usize>,
    conv: char,
}

impl Spec {
    fn parse(fmt: &str) -> Result<Spec, String> {
        let bad = || {
            format!(
                "The format '{}' is not a valid format on the form '%<flags><width>.<prec><format>'",
                fmt
            )
        };
        let rest = fmt.strip_prefix('%').ok_or_else(bad)?;
        let mut s = Spec::default();
        let mut chars = rest.chars().peekable();
        let mut seen = String::new();
        while let Some(&c) = chars.peek() {
            if !" [+#0{<(|-".contains(c) {
                break;
            }
            if seen.contains(c) {
                return Err(format!(
                    "The same flag can only be used once, got '{}'",
                    fmt
                ));
            }
            seen.push(c);
            match c {
                '-' => s.left = true,
                '+' => s.plus = true,
                ' ' => s.space = true,
                '0' => s.zero = true,
                '#' => s.alt = true,
                d => {
                    if s.delim.is_some() {
                        return Err(bad());
                    }
                    s.delim = Some(d)
                }
            }
            chars.next();
        }
        let num = take_digits(&mut chars);
        if !num.is_empty() {
            s.width = Some(num.parse().map_err(|_| bad())?);
        }
        if chars.peek() == Some(&'.') {
            chars.next();
            s.prec = Some(take_digits(&mut chars).parse().unwrap_or(0));
        }
        let conv = chars.next().ok_or_else(bad)?;
        if !conv.is_ascii_alphabetic() || chars.next().is_some() {
            return Err(bad());
        }
        if s.width.is_some_and(|w| w > 10_000) || s.prec.is_some_and(|p| p > 10_000) {
            return Err(bad());
        }
        s.conv = conv;
        Ok(s)
    }

    fn with_conv(&self, c: char) -> Spec {
        Spec {
            conv: c,
            ..self.clone()
        }
    }
}

fn pad(s: &Spec, body: String, numeric_zero: bool) -> String {
    let len = body.chars().count();
    let Some(w) = s.width else { return body };
    if len >= w {
        return body;
    }
    let fill = w - len;
    if s.left {
        format!("{}{}", body, " ".repeat(fill))
    } else if s.zero && numeric_zero {
        // zeros go after the sign/prefix
        let (prefix, digits) = split_sign_prefix(&body);
        format!("{}{}{}", prefix, "0".repeat(fill), digits)
    } else {
        format!("{}{}", " ".repeat(fill), body)
    }
}

fn split_sign_prefix(body: &str) -> (&str, &str) {
    let mut i = 0;
    let b = body.as_bytes();
    if i < b.len() && (b[i] == b'-' || b[i] == b'+' || b[i] == b' ') {
        i += 1;
    }
    if i + 1 < b.len() && b[i] == b'0' && matches!(b[i + 1], b'x' | b'X' | b'b' | b'B') {
        i += 2;
    }
    body.split_at(i)
}

fn sign(s: &Spec, neg: bool) -> &'static str {
    if neg {
        "-"
    } else if s.plus {
        "+"
    } else if s.space {
        " "
    } else {
        ""
    }
}

/// Digits of a negative number in Ruby's two's complement form (`..f01`).
fn twos_complement(n: i64, radix: u32) -> String {
    let max_digit = std::char::from_digit(radix - 1, radix).unwrap_or('f');
    let bits_per = match radix {
        16 => 4,
        8 => 3,
        _ => 1,
    };
    let total_bits = 66 - (66 % bits_per);
    let mask: u128 = (1u128 << total_bits) - 1;
    let v = (n as i128 as u128) & mask;
    let mut digits = String::new();
    let mut x = v;
    for _ in 0..(total_bits / bits_per) {
        let d = (x % radix as u128) as u32;
        digits.insert(0, std::char::from_digit(d, radix).unwrap_or('0'));
        x /= radix as u128;
    }
    let trimmed = digits.trim_start_matches(max_digit);
    format!("..{}{}", max_digit, trimmed)
}

fn fmt_int(s: &Spec, n: i64) -> Result<String, String> {
    let (radix, upper, prefix) = match s.conv {
        'd' | 'i' | 'u' => (10, false, ""),
        'x' => (16, false, "0x"),
        'X' => (16, true, "0X"),
        'o' => (8, false, "0"),
        'b' => (2, false, "0b"),
        'B' => (2, false, "0B"),
        _ => return Err(format!("bad integer format {}", s.conv)),
    };
    let neg = n < 0;
    let explicit_sign = s.plus || s.space;
    let mut digits = if neg && radix != 10 && !explicit_sign {
        twos_complement(n, radix)
    } else {
        let mag = (n as i128).unsigned_abs();
        let mut d = String::new();
        let mut x = mag;
        if x == 0 {
            d.push('0');
        }
        while x > 0 {
            d.insert(
                0,
                std::char::from_digit((x % radix as u128) as u32, radix).unwrap_or('0'),
            );
            x /= radix as u128;
        }
        d
    };
    if upper {
        digits = digits.to_uppercase();
    }
    // Two's complement digits ("..f01") are widened with their sign digit
    // after the "..", both for a precision and for zero padding.
    let fill_char = if digits.starts_with("..") {
        digits.chars().nth(2)
    } else {
        None
    };
    if let Some(p) = s.prec {
        while digits.len() < p {
            match fill_char {
                Some(c) => digits.insert(2, c),
                None => digits.insert(0, '0'),
            }
        }
    }
    let pre = if s.alt && n != 0 {
        if s.conv == 'o' && (digits.starts_with('0') || digits.starts_with("..")) {
            ""
        } else {
            prefix
        }
    } else {
        ""
    };
    let sg = if neg && (radix == 10 || explicit_sign) {
        "-"
    } else {
        sign(s, false)
    };
    if let (Some(c), Some(w), true, false, None) = (fill_char, s.width, s.zero, s.left, s.prec) {
        while sg.len() + pre.len() + digits.len() < w {
            digits.insert(2, c);
        }
    }
    let body = format!("{}{}{}", sg, pre, digits);
    Ok(pad(s, body, s.prec.is_none()))
}

fn c_exp(f: f64, prec: usize, upper: bool) -> String {
    let s = format!("{:.*e}", prec, f);
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let r = format!("{}e{}{:02}", m, if e < 0 { '-' } else { '+' }, e.abs());
    if upper {
        r.to_uppercase()
    } else {
        r
    }
}

fn c_general(f: f64, prec: usize, alt: bool, upper: bool) -> String {
    let p = if prec == 0 { 1 } else { prec };
    if f == 0.0 {
        return if alt {
            format!("{:.*}", p - 1, 0.0)
        } else {
            "0".into()
        };
    }
    let exp = f.abs().log10().floor() as i32;
    // C uses the exponent after rounding
    let rounded = c_exp(f, p - 1, false);
    let exp = rounded
        .split_once('e')
        .and_then(|(_, e)| e.parse::<i32>().ok())
        .unwrap_or(exp);
    let mut out = if exp < -4 || exp >= p as i32 {
        let s = c_exp(f, p - 1, upper);
        if alt {
            s
        } else {
            let (m, e) = s
                .split_once(if upper { 'E' } else { 'e' })
                .unwrap_or((&s, ""));
            let m = if m.contains('.') {
                m.trim_end_matches('0').trim_end_matches('.')
            } else {
                m
            };
            format!("{}{}{}", m, if upper { 'E' } else { 'e' }, e)
        }
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        let s = format!("{:.*}", decimals, f);
        if alt || !s.contains('.') {
            s
        } else {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    };
    if out == "-0" {
        out = "-0".into();
    }
    out
}

/// C's `%a` of a non-negative finite double: `0x1.<hex fraction>p<exp>`,
/// normalized (subnormals too), trailing zeros dropped unless a precision is
/// given, rounding half to even.
fn hex_float(a: f64, prec: Option<usize>, alt: bool) -> String {
    const FRAC_BITS: u32 = 52;
    let bits = a.to_bits();
    let raw_exp = ((bits >> FRAC_BITS) & 0x7ff) as i64;
    let mut frac = bits & ((1u64 << FRAC_BITS) - 1);
    let (mut lead, mut exp) = if a == 0.0 {
        (0u64, 0i64)
    } else if raw_exp == 0 {
        // subnormal: shift the top set bit into the leading position
        let shift = frac.leading_zeros() - (64 - FRAC_BITS - 1);
        frac = (frac << shift) & ((1u64 << FRAC_BITS) - 1);
        (1, -1022 - shift as i64)
    } else {
        (1, raw_exp - 1023)
    };
    let mut digits = format!("{:013x}", frac);
    if let Some(p) = prec {
        if p < 13 {
            let drop_bits = 4 * (13 - p) as u32;
            let full = (lead << FRAC_BITS) | frac;
            let mut kept = full >> drop_bits;
            let rest = full & ((1u64 << drop_bits) - 1);
            let half = 1u64 << (drop_bits - 1);
            if rest > half || (rest == half && kept & 1 == 1) {
                kept += 1;
            }
            lead = kept >> (4 * p as u32);
            kept &= (1u64 << (4 * p as u32)) - 1;
            if lead == 2 {
                // carried into the leading digit: renormalize
                lead = 1;
                exp += 1;
            }
            digits = if p == 0 {
                String::new()
            } else {
                format!("{:0w$x}", kept, w = p)
            };
        } else {
            while digits.len() < p {
                digits.push('0');
            }
        }
    } else {
        digits = digits.trim_end_matches('0').to_string();
    }
    let dot = if !digits.is_empty() || alt { "." } else { "" };
    format!(
        "0x{}{}{}p{}{}",
        lead,
        dot,
        digits,
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

fn fmt_float(s: &Spec, f: f64) -> Result<String, String> {
    if f.is_nan() || f.is_infinite() {
        let body = if f.is_nan() {
            "NaN".to_string()
        } else {
            format!("{}Inf", if f < 0.0 { "-" } else { sign(s, false) })
        };
        return Ok(pad(s, body, false));
    }
    let neg = f.is_sign_negative() && f != 0.0 || (f == 0.0 && f.is_sign_negative());
    let a = f.abs();
    let prec = s.prec.unwrap_or(6);
    let digits = match s.conv {
        'f' => format!("{:.*}", prec, a),
        'e' => c_exp(a, prec, false),
        'E' => c_exp(a, prec, true),
        'g' => c_general(a, prec, s.alt, false),
        'G' => c_general(a, prec, s.alt, true),
        'a' => hex_float(a, s.prec, s.alt),
        'A' => hex_float(a, s.prec, s.alt).to_uppercase(),
        _ => return Err(format!("bad float format {}", s.conv)),
    };
    let digits = if s.alt && s.conv == 'f' && prec == 0 {
        format!("{}.", digits)
    } else {
        digits
    };
    let body = format!("{}{}", sign(s, neg), digits);
    Ok(pad(s, body, true))
}

fn fmt_str(s: &Spec, text: &str) -> String {
    let t: String = match s.prec {
        Some(p) => text.chars().take(p).collect(),
        None => text.to_string(),
    };
    pad(s, t, false)
}

/// Ruby `inspect` of a value, as `%p` of `Kernel#format` prints it.
fn ruby_inspect(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\t' => out.push_str("\\t"),
                    '\r' => out.push_str("\\r"),
                    '\x1b' => out.push_str("\\e"),
                    '#' => out.push('#'),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02X}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        }
        Value::Undef => "nil".into(),
        Value::Default => ":default".into(),
        Value::Float(f) => ruby_float_to_s(*f),
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(ruby_inspect).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Hash(h) => {
            let items: Vec<String> = h
                .iter()
                .map(|(k, v)| format!("{}=>{}", ruby_inspect(k), ruby_inspect(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        other => to_interpolated(other),
    }
}

/// What Ruby's `Kernel#format` sees for a time value under a numeric
/// directive: times are `Numeric`s whose `to_int` is whole seconds (floored)
/// and whose `to_f` is fractional seconds. Other values are returned as is.
fn numeric_view(v: &Value, conv: char) -> Value {
    let (secs, f) = match v {
        Value::Timespan(t) => (t.to_secs(), t.to_f64()),
        Value::Timestamp(t) => (t.to_secs(), t.to_f64()),
        _ => return v.clone(),
    };
    match conv {
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => Value::Float(f),
        _ => i64::try_from(secs).map_or(Value::Float(f), Value::Integer),
    }
}

/// Ruby `Kernel#format(fmt, value)` for one directive.
fn kernel_format(s: &Spec, v: &Value) -> Result<String, String> {
    match s.conv {
        'd' | 'i' | 'u' | 'x' | 'X' | 'o' | 'b' | 'B' => match v {
            Value::Integer(n) => fmt_int(s, *n),
            Value::Float(f) => {
                // Ruby converts with a C cast: toward zero
                let n = f.trunc();
                if n.abs() < 9.2e18 {
                    fmt_int(s, n as i64)
                } else {
                    Err("float out of range".into())
                }
            }
            Value::String(t) => match ruby_kernel_integer(t, None) {
                Some(n) => fmt_int(s, n),
                None => Err(format!("invalid value for Integer(): \"{}\"", t)),
            },
            Value::Boolean(_) | Value::Undef => Err(format!(
                "can't convert {} into Integer",
                if matches!(v, Value::Undef) {
                    "nil"
                } else {
                    "Boolean"
                }
            )),
            _ => Err(format!("can't convert {} into Integer", v.label())),
        },
        'f' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => match v {
            Value::Integer(n) => fmt_float(s, *n as f64),
            Value::Float(f) => fmt_float(s, *f),
            Value::String(t) => match ruby_kernel_float(t) {
                Some(f) => fmt_float(s, f),
                None => Err(format!("invalid value for Float(): \"{}\"", t)),
            },
            _ => Err(format!("can't convert {} into Float", v.label())),
        },
        's' => Ok(fmt_str(
            s,
            &match v {
                Value::Float(f) => ruby_float_to_s(*f),
                Value::Array(_) | Value::Hash(_) => ruby_inspect(v),
                other => to_interpolated(other),
            },
        )),
        'p' => Ok(fmt_str(s, &ruby_inspect(v))),
        'c' => match v {
            Value::Integer(n) => {
                let c = u32::try_from(*n)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or("invalid character")?;
                Ok(pad(s, c.to_string(), false))
            }
            Value::String(t) if t.chars().count() == 1 => Ok(pad(s, t.clone(), false)),
            _ => Err("%c requires a character".into()),
        },
        c => Err(format!("malformed format string - %{}", c)),
    }
}

/// A format with its container options.
#[derive(Clone, Debug)]
struct Format {
    spec: Spec,
    separator: Option<String>,
    separator2: Option<String>,
    string_formats: Option<Vec<(Type, Format)>>,
}

impl Format {
    fn new(fmt: &str) -> Result<Format, String> {
        Ok(Format {
            spec: Spec::parse(fmt)?,
            separator: None,
            separator2: None,
            string_formats: None,
        })
    }
}

fn default_formats() -> Vec<(Type, Format)> {
    let f = |s: &str| Format::new(s).unwrap_or_else(|_| unreachable_format());
    // containers format their elements with `%p` unless told otherwise
    let container = |s: &str| Format {
        string_formats: Some(container_defaults()),
        ..f(s)
    };
    vec![
        (Type::float(), f("%f")),
        (Type::Numeric, f("%d")),
        (Type::array(), container("%a")),
        (Type::hash(), container("%h")),
        (Type::Binary, f("%B")),
        (Type::Any, f("%s")),
    ]
}

fn container_defaults() -> Vec<(Type, Format)> {
    vec![(
        Type::Any,
        Format::new("%p").unwrap_or_else(|_| unreachable_format()),
    )]
}

/// The plain `%s` format: what a built-in format string stands for should
/// it ever fail to parse.
fn unreachable_format() -> Format {
    Format {
        spec: Spec {
            conv: 's',
            ..Spec::default()
        },
        separator: None,
        separator2: None,
        string_formats: None,
    }
}

fn parse_format_map(v: &Value) -> Result<Vec<(Type, Format)>, String> {
    let Value::Hash(h) = v else {
        return Err("expected a hash with type to format mappings".into());
    };
    let mut out = Vec::new();
    for (k, f) in h.iter() {
        let Value::Type(t) = k else {
            return Err("top level keys in the format hash must be data types".into());
        };
        let fmt = match f {
            Value::String(s) => Format::new(s)?,
            Value::Hash(c) => {
                for key in c.keys() {
                    if !matches!(key, Value::String(s) if ["separator", "separator2", "format", "string_formats"].contains(&s.as_str()))
                    {
                        return Err("only 'separator', 'separator2', 'format', 'string_formats' are allowed in a container format".into());
                    }
                }
                let get = |k: &str| c.get(&Value::string(k));
                // A container format without a `format` key is parsed from
                // an empty string, which Puppet rejects.
                let mut fm = match get("format") {
                    Some(Value::String(s)) => Format::new(s)?,
                    _ => Format::new("")?,
                };
                if let Some(Value::String(s)) = get("separator") {
                    fm.separator = Some(s.clone());
                }
                if let Some(Value::String(s)) = get("separator2") {
                    fm.separator2 = Some(s.clone());
                }
                if let Some(sf) = get("string_formats") {
                    fm.string_formats = Some(parse_format_map(sf)?);
                }
                fm
            }
            _ => return Err("format must be a String or a Hash".into()),
        };
        out.push((t.clone(), fmt));
    }
    Ok(out)
}

/// Merges `higher` over `lower`: entries of `lower` whose type is covered by a
/// different `higher` type are dropped; more specific types come first.
fn merge(lower: Vec<(Type, Format)>, higher: Vec<(Type, Format)>) -> Vec<(Type, Format)> {
    let mut out: Vec<(Type, Format)> = lower
        .into_iter()
        .filter(|(lk, _)| {
            !higher
                .iter()
                .any(|(hk, _)| hk != lk && is_assignable(hk, lk))
        })
        .collect();
    for (k, f) in higher {
        if let Some(e) = out.iter_mut().find(|(ek, _)| *ek == k) {
            let mut nf = f.clone();
            nf.separator = f.separator.or_else(|| e.1.separator.clone());
            nf.separator2 = f.separator2.or_else(|| e.1.separator2.clone());
            nf.string_formats = match (e.1.string_formats.take(), f.string_formats) {
                (Some(a), Some(b)) => Some(merge(a, b)),
                (a, b) => b.or(a),
            };
            e.1 = nf;
        } else {
            out.push((k, f));
        }
    }
    // most specific first
    let mut sorted: Vec<(Type, Format)> = Vec::new();
    for item in out {
        let pos = sorted
            .iter()
            .position(|(k, _)| is_assignable(k, &item.0) && *k != item.0)
            .unwrap_or(sorted.len());
        sorted.insert(pos, item);
    }
    sorted
}

fn get_format(t: &Type, map: &[(Type, Format)]) -> Format {
    map.iter()
        .find(|(k, _)| is_assignable(k, t))
        .map(|(_, f)| f.clone())
        .unwrap_or_else(|| Format::new("%s").unwrap_or_else(|_| unreachable_format()))
}

fn is_container(v: &Value) -> bool {
    matches!(
        v,
        Value::Array(_) | Value::Hash(_) | Value::Object(_) | Value::Iterator(_)
    )
}

fn apply_string_flags(s: &Spec, text: &str) -> String {
    fmt_str(s, text)
}

fn format_error(kind: &str, conv: char, allowed: &str) -> String {
    format!(
        "Illegal format '{}' used for value of {} type - expected one of the characters '{}'",
        conv, kind, allowed
    )
}

/// Pretty-printing state for `#` container formats: nesting level, whether
/// the next element is the first of its container, and whether indentation
/// is active. `depth` bounds recursion.
#[derive(Clone, Copy, Debug, Default)]
struct Indent {
    level: usize,
    not_first: bool,
    indenting: bool,
    depth: usize,
}

impl Indent {
    fn subsequent(self) -> Indent {
        Indent {
            not_first: true,
            ..self
        }
    }

    fn indenting(self, indenting: bool) -> Indent {
        Indent { indenting, ..self }
    }

    fn increase(self, indenting: bool) -> Indent {
        Indent {
            level: self.level + 1,
            not_first: false,
            indenting,
            depth: self.depth + 1,
        }
    }

    fn deeper(self) -> Indent {
        Indent {
            depth: self.depth + 1,
            ..self
        }
    }

    /// A nested container starts on a new line.
    fn breaks(self) -> bool {
        self.indenting && self.level > 0 && self.not_first
    }

    fn padding(self) -> String {
        "  ".repeat(self.level)
    }
}

fn is_array_or_hash(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Hash(_))
}

/// The run of ASCII digits at the front of `chars`, taken off it.
fn take_digits(chars: &mut std::iter::Peekable<impl Iterator<Item = char>>) -> String {
    let mut digits = String::new();
    while let Some(c) = chars.next_if(char::is_ascii_digit) {
        digits.push(c);
    }
    digits
}

fn rstrip(buf: &mut String) {
    let n = buf.trim_end().len();
    buf.truncate(n);
}

fn convert(v: &Value, map: &[(Type, Format)], ind: Indent) -> Result<String, String> {
    if ind.depth > 100 {
        return Err("value nested too deeply".into());
    }
    let t = infer_set(v);
    let f = get_format(&t, map);
    let s = &f.spec;
    match v {
        Value::Undef => format_undef(s),
        Value::Default => format_default(s),
        Value::Boolean(b) => format_boolean(*b, s),
        Value::Integer(n) => format_integer(*n, s),
        Value::Float(x) => match s.conv {
            'd' | 'x' | 'X' | 'o' | 'b' | 'B' => {
                if x.is_finite() && x.abs() < 9.2e18 {
                    fmt_int(s, x.trunc() as i64)
                } else {
                    Err("float out of range".into())
                }
            }
            'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => fmt_float(s, *x),
            'p' => Ok(fmt_str(s, &ruby_float_to_s(*x))),
            's' => {
                let text = ruby_float_to_s(*x);
                let text = if s.alt { format!("\"{}\"", text) } else { text };
                Ok(fmt_str(s, &text))
            }
            c => Err(format_error("Float", c, "dxXobBeEfgGaAsp")),
        },
        Value::String(text) => format_string(text, s),
        Value::Regexp(r) => match s.conv {
            'p' => Ok(fmt_str(s, &regexp_with_delimiters(r.source()))),
            's' => {
                let t = if s.alt {
                    puppet_quote(r.source())
                } else {
                    r.source().to_string()
                };
                Ok(fmt_str(s, &t))
            }
            c => Err(format_error("Regexp", c, "sp")),
        },
        Value::Type(ty) => match s.conv {
            's' => Ok(fmt_str(
                s,
                &if s.alt {
                    format!("\"{}\"", type_value_string(ty))
                } else {
                    type_value_string(ty)
                },
            )),
            'p' => Ok(fmt_str(s, &type_value_string(ty))),
            c => Err(format_error("Type", c, "sp")),
        },
        Value::Iterator(it) => convert(&Value::Array(it.elements.clone()), map, ind.deeper()),
        Value::Array(items) => format_array(items, s, &f, map, ind),
        Value::Hash(h) => format_hash(h, s, &f, map, ind),
        Value::Sensitive(_)
        | Value::Timespan(_)
        | Value::Timestamp(_)
        | Value::SemVer(_)
        | Value::SemVerRange(_)
        | Value::Uri(_) => match s.conv {
            's' => Ok(fmt_str(s, &to_interpolated(v))),
            'p' => Ok(fmt_str(s, &to_programmatic(v))),
            _ => kernel_format(s, &numeric_view(v, s.conv)),
        },
        Value::Binary(bytes) => format_binary(bytes, s),
        Value::Object(_) => match s.conv {
            's' | 'p' => Ok(fmt_str(s, &to_programmatic(v))),
            c => Err(format_error("Object", c, "sp")),
        },
        Value::Unknown(_) => Err("this value cannot be formatted statically".into()),
    }
}

/// The word, or its alternative form under the `#` flag.
fn alt_or<'w>(s: &Spec, plain: &'w str, alternative: &'w str) -> &'w str {
    if s.alt {
        alternative
    } else {
        plain
    }
}

/// Formats an Undef value.
fn format_undef(s: &Spec) -> Result<String, String> {
    Ok(apply_string_flags(
        s,
        match s.conv {
            'n' => alt_or(s, "nil", "null"),
            'u' => alt_or(s, "undef", "undefined"),
            'd' | 'x' | 'X' | 'o' | 'b' | 'B' | 'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => "NaN",
            'v' => "n/a",
            'V' => "N/A",
            's' => alt_or(s, "", "\"\""),
            'p' => alt_or(s, "undef", "\"undef\""),
            c => return Err(format_error("Undef", c, "nudxXobBeEfgGaAvVsp")),
        },
    ))
}

/// Formats a Default value.
fn format_default(s: &Spec) -> Result<String, String> {
    Ok(apply_string_flags(
        s,
        match s.conv {
            'd' | 's' | 'p' => alt_or(s, "default", "\"default\""),
            'D' => alt_or(s, "Default", "\"Default\""),
            c => return Err(format_error("Default", c, "dDsp")),
        },
    ))
}

/// Formats a Boolean value.
fn format_boolean(b: bool, s: &Spec) -> Result<String, String> {
    let word = |w: &str| {
        if s.alt {
            w.chars().take(1).collect::<String>()
        } else {
            w.to_string()
        }
    };
    match s.conv {
        't' => Ok(apply_string_flags(
            s,
            &word(if b { "true" } else { "false" }),
        )),
        'T' => Ok(apply_string_flags(
            s,
            &word(if b { "True" } else { "False" }),
        )),
        'y' => Ok(apply_string_flags(s, &word(if b { "yes" } else { "no" }))),
        'Y' => Ok(apply_string_flags(s, &word(if b { "Yes" } else { "No" }))),
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' => fmt_int(s, b as i64),
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => fmt_float(s, if b { 1.0 } else { 0.0 }),
        's' => Ok(apply_string_flags(s, if b { "true" } else { "false" })),
        'p' => Ok(apply_string_flags(s, if b { "true" } else { "false" })),
        c => Err(format_error("Boolean", c, "tTyYdxXobBeEfgGaAsp")),
    }
}

/// Formats an Integer value.
fn format_integer(n: i64, s: &Spec) -> Result<String, String> {
    match s.conv {
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' => fmt_int(s, n),
        'p' => fmt_int(&s.with_conv('d'), n),
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => fmt_float(s, n as f64),
        'c' => {
            let c = u32::try_from(n)
                .ok()
                .and_then(char::from_u32)
                .ok_or("invalid character")?;
            let text = if s.alt {
                format!("\"{}\"", c)
            } else {
                c.to_string()
            };
            Ok(fmt_str(s, &text))
        }
        's' => {
            let text = n.to_string();
            let text = if s.alt {
                ruby_inspect(&Value::String(text))
            } else {
                text
            };
            Ok(fmt_str(s, &text))
        }
        c => Err(format_error("Integer", c, "dxXobBeEfgGaAspc")),
    }
}

/// Formats a String value.
fn format_string(text: &str, s: &Spec) -> Result<String, String> {
    let quoted = |t: &str| apply_string_flags(s, &puppet_quote(t));
    match s.conv {
        's' => Ok(fmt_str(s, text)),
        'p' => Ok(apply_string_flags(
            s,
            &if s.alt {
                puppet_double_quote(text)
            } else {
                puppet_quote(text)
            },
        )),
        'c' | 'C' | 'u' | 'd' | 't' => {
            let c = match s.conv {
                'c' => capitalize(text),
                'C' => text
                    .split("::")
                    .map(capitalize)
                    .collect::<Vec<_>>()
                    .join("::"),
                'u' => text.to_uppercase(),
                'd' => text.to_lowercase(),
                _ => text
                    .trim_matches(|c: char| c.is_ascii_whitespace() || c == '\0')
                    .to_string(),
            };
            Ok(if s.alt { quoted(&c) } else { fmt_str(s, &c) })
        }
        c => Err(format_error("String", c, "cCudspt")),
    }
}

/// Formats an Array value.
fn format_array(
    items: &[Value],
    s: &Spec,
    f: &Format,
    map: &[(Type, Format)],
    ind: Indent,
) -> Result<String, String> {
    if !matches!(s.conv, 'a' | 's' | 'p') {
        return Err(format_error("Array", s.conv, "asp"));
    }
    let sep = f.separator.clone().unwrap_or_else(|| ", ".into());
    let inner = f.string_formats.clone().unwrap_or_else(container_defaults);
    let (open, close) = delimiters(s, ('[', ']'));
    let ind = ind.indenting(s.alt || ind.indenting);
    let mut buf = String::new();
    if ind.breaks() {
        buf.push('\n');
        buf.push_str(&ind.padding());
    }
    buf.push_str(&open);
    let children = ind.increase(s.alt).subsequent();
    let mut mapped = Vec::with_capacity(items.len());
    for e in items {
        let m = if is_container(e) { map } else { &inner };
        mapped.push(convert(e, m, children)?);
    }
    // with `#` and a width, break before every scalar when a run of
    // scalars is wider than the width
    let size_break = s.alt
        && s.width.is_some_and(|w| {
            let mut runs = vec![0usize];
            for (e, text) in items.iter().zip(&mapped) {
                if is_array_or_hash(e) {
                    runs.push(0);
                } else if let Some(last) = runs.last_mut() {
                    *last += text.chars().count();
                }
            }
            runs.into_iter().max().unwrap_or(0) > w
        });
    for (i, (e, text)) in items.iter().zip(&mapped).enumerate() {
        if i == 0 {
            if size_break && !is_array_or_hash(e) {
                buf.push(' ');
            }
        } else {
            buf.push_str(&sep);
            let after_container = s.alt && is_array_or_hash(&items[i - 1]) && !is_array_or_hash(e);
            if (size_break && !is_array_or_hash(e)) || after_container {
                if !buf.ends_with('\n') {
                    rstrip(&mut buf);
                }
                buf.push('\n');
                buf.push_str(&children.padding());
            }
        }
        if buf.ends_with(' ') && text.starts_with('\n') {
            rstrip(&mut buf);
        }
        buf.push_str(text);
    }
    buf.push_str(&close);
    Ok(buf)
}

/// Formats a Hash value.
fn format_hash(
    h: &OrderedHash,
    s: &Spec,
    f: &Format,
    map: &[(Type, Format)],
    ind: Indent,
) -> Result<String, String> {
    if s.conv == 'a' {
        let arr = Value::Array(
            h.iter()
                .map(|(k, v)| Value::Array(vec![k.clone(), v.clone()]))
                .collect(),
        );
        return convert(&arr, map, ind.deeper());
    }
    if !matches!(s.conv, 'h' | 's' | 'p') {
        return Err(format_error("Hash", s.conv, "hasp"));
    }
    let mut sep = f.separator.clone().unwrap_or_else(|| ", ".into());
    let assoc = f.separator2.clone().unwrap_or_else(|| " => ".into());
    let inner = f.string_formats.clone().unwrap_or_else(container_defaults);
    let (open, close) = delimiters(s, ('{', '}'));
    if s.alt {
        if !sep.ends_with('\n') {
            sep = sep.trim_end().to_string();
        }
        sep.push('\n');
    }
    let ind = ind.indenting(s.alt || ind.indenting);
    let mut buf = String::new();
    if ind.breaks() {
        buf.push('\n');
        buf.push_str(&ind.padding());
    }
    let children = ind.increase(false);
    let padding = if s.alt {
        children.padding()
    } else {
        String::new()
    };
    let mut parts = Vec::new();
    for (k, e) in h.iter() {
        let km = if is_container(k) { map } else { &inner };
        let vm = if is_container(e) { map } else { &inner };
        let ks = convert(k, km, children)?;
        let vs = convert(e, vm, children)?;
        parts.push(format!("{}{}{}{}", padding, ks, assoc, vs));
    }
    buf.push_str(&open);
    if s.alt {
        buf.push('\n');
    }
    buf.push_str(&parts.join(&sep));
    if s.alt {
        buf.push('\n');
        buf.push_str(&ind.padding());
    }
    buf.push_str(&close);
    Ok(buf)
}

/// Formats a Binary value.
fn format_binary(bytes: &[u8], s: &Spec) -> Result<String, String> {
    use crate::values::binary;
    // with `#`, the encoded text is shown quoted
    let text = |t: String| {
        if s.alt {
            fmt_str(&s.with_conv('s'), &ruby_inspect(&Value::String(t)))
        } else {
            fmt_str(s, &t)
        }
    };
    match s.conv {
        's' => match std::str::from_utf8(bytes) {
            Ok(t) => Ok(text(t.to_string())),
            Err(_) => {
                Err("\"\\xFF\" from ASCII-8BIT to UTF-8: the binary is not valid UTF-8".into())
            }
        },
        'p' => Ok(format!(
            "Binary(\"{}\")",
            fmt_str(s, &binary::encode_strict(bytes))
        )),
        'b' => Ok(text(binary::encode_relaxed(bytes))),
        'B' => Ok(text(binary::encode_strict(bytes))),
        'u' => Ok(text(binary::encode_urlsafe(bytes))),
        't' => Ok(text("Binary".into())),
        'T' => Ok(text("BINARY".into())),
        c => Err(format_error("Binary", c, "bButTsp")),
    }
}

fn delimiters(s: &Spec, default: (char, char)) -> (String, String) {
    match s.delim {
        Some('[') => ("[".into(), "]".into()),
        Some('{') => ("{".into(), "}".into()),
        Some('(') => ("(".into(), ")".into()),
        Some('<') => ("<".into(), ">".into()),
        Some('|') => ("|".into(), "|".into()),
        _ if s.space => (String::new(), String::new()),
        _ => (default.0.to_string(), default.1.to_string()),
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase(),
        None => String::new(),
    }
}

/// `String(v)`: the default string form.
pub fn default_string(v: &Value) -> String {
    convert(v, &default_formats(), Indent::default()).unwrap_or_else(|_| to_interpolated(v))
}

/// `String(v, format)` where `format` is a format string or a hash of type
/// to format mappings.
pub fn format_value(v: &Value, format: &Value) -> Result<String, String> {
    let t = infer_set(v);
    let user =
        match format {
            Value::String(f) => {
                let key = if is_assignable(&Type::array(), &t) {
                    Type::array()
                } else if is_assignable(&Type::hash(), &t) {
                    Type::hash()
                } else {
                    t.clone()
                };
                vec![(key, Format::new(f)?)]
            }
            Value::Hash(_) => parse_format_map(format)?,
            Value::Default => Vec::new(),
            _ => return Err(
                "string conversion expects a Default value or a Hash of type to format mappings"
                    .into(),
            ),
        };
    let map = merge(default_formats(), user);
    convert(v, &map, Indent::default())
}

/// How a format string refers to its arguments; Ruby forbids mixing kinds.
#[derive(Clone, Copy, PartialEq)]
enum Numbering {
    None,
    Unnumbered,
    Numbered,
    Named,
}

impl Numbering {
    /// Records a reference of kind `kind` (`position` for a numbered one,
    /// `next_arg` the unnumbered arguments taken so far), or Ruby's error
    /// for mixing kinds.
    fn refer(&mut self, kind: Numbering, position: usize, next_arg: usize) -> Result<(), String> {
        use Numbering::*;
        match (kind, *self) {
            (Numbered, Unnumbered) => {
                Err(format!("numbered({position}) after unnumbered({next_arg})"))
            }
            (Numbered, Named) => Err(format!("numbered({position}) after named")),
            (Named, Numbered) => Err("named after numbered".into()),
            (Named, Unnumbered) => Err("named after unnumbered".into()),
            (Unnumbered, Numbered) => {
                Err(format!("unnumbered({}) mixed with numbered", next_arg + 1))
            }
            (Unnumbered, Named) => Err(format!("unnumbered({}) mixed with named", next_arg + 1)),
            _ => {
                *self = kind;
                Ok(())
            }
        }
    }
}

/// A `*` width or precision argument as Ruby reads it (an Integer; a Float
/// truncated).
fn star_argument(v: Option<&Value>) -> Result<i64, String> {
    match v {
        Some(Value::Integer(n)) => Ok(*n),
        Some(Value::Float(f)) if f.is_finite() && f.abs() < 2e9 => Ok(f.trunc() as i64),
        Some(Value::Float(_)) => Err("float out of range of integer".into()),
        Some(other) => Err(format!(
            "no implicit conversion of {} into Integer",
            ruby_class_name(other)
        )),
        None => Err("too few arguments".into()),
    }
}

/// The Ruby class of a value, as Ruby's conversion errors name it.
fn ruby_class_name(v: &Value) -> &'static str {
    match v {
        Value::Undef => "nil",
        Value::Boolean(true) => "true",
        Value::Boolean(false) => "false",
        Value::String(_) => "String",
        Value::Array(_) => "Array",
        Value::Hash(_) => "Hash",
        _ => "Object",
    }
}

/// A `%...` directive with each of Ruby's flags kept once (Ruby allows
/// repeating them, Puppet's own formats do not).
fn dedupe_flags(directive: &str) -> String {
    let body = directive.strip_prefix('%').unwrap_or(directive);
    let n = body
        .find(|c: char| !" +-0#".contains(c))
        .unwrap_or(body.len());
    let mut out = String::from("%");
    for c in body[..n].chars() {
        if !out.contains(c) {
            out.push(c);
        }
    }
    out.push_str(&body[n..]);
    out
}

/// An argument as a Puppet 3 function receives it: undef is an empty string
/// at the top (`inner` false) and nil inside collections; regexps, versions,
/// time values and binaries are their string forms; iterators are refused.
fn runtime3_argument(v: &Value, inner: bool) -> Result<Value, String> {
    Ok(match v {
        Value::Undef if !inner => Value::String(String::new()),
        Value::Array(a) => Value::Array(
            a.iter()
                .map(|e| runtime3_argument(e, true))
                .collect::<Result<_, _>>()?,
        ),
        Value::Hash(h) => Value::Hash(
            h.iter()
                .map(|(k, e)| Ok((runtime3_argument(k, true)?, runtime3_argument(e, true)?)))
                .collect::<Result<_, String>>()?,
        ),
        Value::Regexp(r) => Value::String(regexp_with_delimiters(r.source())),
        Value::SemVer(_)
        | Value::SemVerRange(_)
        | Value::Timespan(_)
        | Value::Timestamp(_)
        | Value::Binary(_) => Value::String(to_interpolated(v)),
        Value::Iterator(_) => return Err("Use of an Iterator is not supported here".into()),
        other => other.clone(),
    })
}

/// Ruby's `Kernel#sprintf` as Puppet's `sprintf` function exposes it: a
/// Puppet 3 function, so arguments are converted as [`runtime3_argument`].
pub fn sprintf(fmt: &str, args: &[Value]) -> Result<String, String> {
    let args: Vec<Value> = args
        .iter()
        .map(|a| runtime3_argument(a, false))
        .collect::<Result<_, _>>()?;
    let mut out = String::new();
    let mut chars = fmt.char_indices().peekable();
    let mut next_arg = 0usize;
    let mut numbering = Numbering::None;
    while let Some((i, c)) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if let Some(&(_, '%')) = chars.peek() {
            chars.next();
            out.push('%');
            continue;
        }
        // collect the directive
        let mut end = i + 1;
        let mut name: Option<String> = None;
        let bytes = fmt.as_bytes();
        let mut spec_text = String::from("%");
        // an absolute argument position `%N$...`
        let mut position: Option<usize> = None;
        // a negative `*` width left-justifies
        let mut star_left = false;
        let digits = fmt[end..].bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && bytes.get(end + digits) == Some(&b'$') {
            let n: usize = fmt[end..end + digits].parse().unwrap_or(0);
            if n == 0 {
                return Err("malformed format string - %$".into());
            }
            position = Some(n);
            end += digits + 1;
        }
        while end < fmt.len() {
            let b = bytes[end] as char;
            if b == '<' || b == '{' {
                let close = if b == '<' { '>' } else { '}' };
                let rest = &fmt[end + 1..];
                let Some(j) = rest.find(close) else {
                    return Err("malformed name - unmatched parenthesis".into());
                };
                name = Some(rest[..j].to_string());
                end += j + 2;
                if b == '{' {
                    spec_text.push('s');
                    break;
                }
                continue;
            }
            if b == '*' {
                // width or precision from an argument: `*` the next one,
                // `*N$` argument N
                end += 1;
                let digits = fmt[end..].bytes().take_while(u8::is_ascii_digit).count();
                let v = if digits > 0 && bytes.get(end + digits) == Some(&b'$') {
                    let n: usize = fmt[end..end + digits].parse().unwrap_or(0);
                    end += digits + 1;
                    numbering.refer(Numbering::Numbered, n, next_arg)?;
                    n.checked_sub(1).and_then(|i| args.get(i))
                } else {
                    numbering.refer(Numbering::Unnumbered, 0, next_arg)?;
                    next_arg += 1;
                    args.get(next_arg - 1)
                };
                let n = star_argument(v)?;
                if spec_text.ends_with('.') {
                    // a negative precision is no precision
                    if n < 0 {
                        spec_text.pop();
                    } else {
                        spec_text.push_str(&n.to_string());
                    }
                } else {
                    star_left |= n < 0;
                    spec_text.push_str(&n.unsigned_abs().to_string());
                }
                continue;
            }
            spec_text.push(b);
            end += 1;
            if b.is_ascii_alphabetic() {
                break;
            }
        }
        while chars.peek().is_some_and(|(j, _)| *j < end) {
            chars.next();
        }
        let mut spec = Spec::parse(&dedupe_flags(&spec_text))
            .map_err(|_| format!("malformed format string - {}", spec_text))?;
        spec.left |= star_left;
        let kind = match (position, &name) {
            (Some(_), _) => Numbering::Numbered,
            (None, Some(_)) => Numbering::Named,
            (None, None) => Numbering::Unnumbered,
        };
        numbering.refer(kind, position.unwrap_or(0), next_arg)?;
        let value = match &name {
            _ if position.is_some() => args
                .get(position.unwrap_or(1) - 1)
                .cloned()
                .ok_or("too few arguments")?,
            Some(n) => match args.first() {
                Some(Value::Hash(h)) => h
                    .get(&Value::String(n.clone()))
                    .cloned()
                    .ok_or_else(|| format!("key<{}> not found", n))?,
                _ => return Err("one hash required".into()),
            },
            None => {
                let v = args.get(next_arg).cloned().ok_or("too few arguments")?;
                next_arg += 1;
                v
            }
        };
        out.push_str(&kernel_format(&spec, &value)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{Timespan, Timestamp};

    fn arr(items: Vec<Value>) -> Value {
        Value::Array(items)
    }

    fn hash(entries: Vec<(&str, Value)>) -> Value {
        let mut h = OrderedHash::new();
        for (k, v) in entries {
            h.insert(Value::string(k), v);
        }
        Value::Hash(h)
    }

    fn fmt(v: &Value, f: &str) -> String {
        format_value(v, &Value::string(f)).unwrap()
    }

    #[test]
    fn alternate_array_format_indents_nested_containers() {
        let v = arr(vec![
            Value::Integer(1),
            arr(vec![Value::Integer(2), Value::Integer(3)]),
            Value::Integer(4),
        ]);
        assert_eq!(fmt(&v, "%#a"), "[1,\n  [2, 3],\n  4]");
        let nested = arr(vec![arr(vec![
            Value::Integer(1),
            arr(vec![Value::Integer(2), arr(vec![Value::Integer(3)])]),
        ])]);
        assert_eq!(fmt(&nested, "%#a"), "[\n  [1,\n    [2,\n      [3]]]]");
        // a width breaks runs of scalars wider than it
        let v = arr(vec![
            Value::Integer(1),
            Value::string("two"),
            arr(vec![Value::Integer(3)]),
        ]);
        assert_eq!(fmt(&v, "%#3a"), "[ 1,\n  'two',\n  [3]]");
    }

    #[test]
    fn alternate_hash_format_indents_by_level() {
        let v = hash(vec![(
            "a",
            arr(vec![
                Value::Integer(1),
                hash(vec![("b", Value::Integer(2))]),
            ]),
        )]);
        assert_eq!(
            fmt(&v, "%#h"),
            "{\n  'a' => [1,\n    {\n      'b' => 2\n    }]\n}"
        );
        let v = hash(vec![("d", hash(vec![("e", Value::string("f"))]))]);
        assert_eq!(fmt(&v, "%#h"), "{\n  'd' => {\n    'e' => 'f'\n  }\n}");
    }

    #[test]
    fn container_format_hash_needs_a_format() {
        let mut inner = OrderedHash::new();
        inner.insert(Value::string("separator"), Value::string(""));
        let mut map = OrderedHash::new();
        map.insert(Value::Type(Type::array()), Value::Hash(inner));
        assert!(format_value(&arr(vec![Value::Integer(1)]), &Value::Hash(map)).is_err());
    }

    #[test]
    fn time_values_take_numeric_formats() {
        let span = Value::Timespan(Timespan {
            nanos: 90_061_500_000_000,
        });
        assert_eq!(fmt(&span, "%d"), "90061");
        assert_eq!(fmt(&span, "%+d"), "+90061");
        assert_eq!(fmt(&span, "%.2f"), "90061.50");
        assert_eq!(fmt(&span, "%e"), "9.006150e+04");
        assert_eq!(fmt(&span, "%a"), "0x1.5fcd8p+16");
        assert!(format_value(&span, &Value::string("%t")).is_err());
        let stamp = Value::Timestamp(Timestamp::from_secs(1_473_150_899));
        assert!(format_value(&stamp, &Value::string("%c")).is_err());
        let v = Value::SemVer(crate::semver::Version::parse("1.2.3").unwrap());
        assert!(format_value(&v, &Value::string("%d")).is_err());
    }

    #[test]
    fn hex_floats() {
        let f = |x: f64, spec: &str| fmt(&Value::Float(x), spec);
        assert_eq!(f(-255.0, "%a"), "-0x1.fep+7");
        assert_eq!(f(1.2345, "%a"), "0x1.3c083126e978dp+0");
        assert_eq!(f(0.0, "%a"), "0x0p+0");
        assert_eq!(f(5e-324, "%a"), "0x1p-1074");
        assert_eq!(f(1e-310, "%a"), "0x1.2688b70e62bp-1030");
        assert_eq!(f(1.5, "%.0a"), "0x1p+1");
        assert_eq!(f(2.5, "%.0a"), "0x1p+1");
        assert_eq!(f(1.96875, "%.1a"), "0x1.0p+1");
        assert_eq!(f(1.0, "%#a"), "0x1.p+0");
        assert_eq!(f(-255.0, "%A"), "-0X1.FEP+7");
        assert_eq!(f(1.0, "%012a"), "0x0000001p+0");
    }

    #[test]
    fn twos_complement_padding_uses_the_sign_digit() {
        let n = Value::Integer(-255);
        assert_eq!(fmt(&n, "%#010x"), "0x..ffff01");
        assert_eq!(fmt(&n, "%010x"), "..ffffff01");
        assert_eq!(fmt(&n, "%.8x"), "..ffff01");
        assert_eq!(fmt(&n, "%#10x"), "   0x..f01");
        assert_eq!(fmt(&n, "%+010x"), "-0000000ff");
    }

    #[test]
    fn sprintf_positional_arguments() {
        let args = [Value::string("world"), Value::string("hello")];
        assert_eq!(sprintf("%2$s %1$s", &args).unwrap(), "hello world");
        assert_eq!(sprintf("%1$s %1$s", &args).unwrap(), "world world");
        assert!(sprintf("%1$s %s", &args).is_err());
        assert!(sprintf("%s %1$s", &args).is_err());
        assert!(sprintf("%3$s", &args).is_err());
        assert!(sprintf("%0$s", &args).is_err());
    }
}
