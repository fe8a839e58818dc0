//! Puppet's string forms of values: the programmatic form (`String($v, '%p')`,
//! also used for values nested in containers) and the interpolation form
//! (`"${v}"`).

use super::float::ruby_float_to_s;
use crate::model::{Type, Value};

/// Quotes a string as Puppet's `%p` does: single quotes, `'` escaped, backslashes
/// kept as they are; double quotes with escapes when a control character occurs.
pub fn puppet_quote(s: &str) -> String {
    if s.chars().any(|c| (c as u32) < 0x20) {
        return puppet_double_quote(s);
    }
    let mut out = String::from("'");
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            out.push('\\');
            out.push(c);
            escaped = false;
        } else if c == '\'' {
            out.push_str("\\'");
        } else if c == '\\' {
            escaped = true;
        } else {
            out.push(c);
        }
    }
    if escaped {
        out.push('\\');
    }
    out.push('\'');
    out
}

/// Double-quoted form with `\t \n \r \" \$ \\` and `\u{X}` escapes.
pub fn puppet_double_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '$' => out.push_str("\\$"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A regexp with `/` delimiters as Ruby's `Regexp#inspect` prints it (unescaped
/// `/` inside the source become `\/`).
pub fn regexp_with_delimiters(source: &str) -> String {
    let mut out = String::from("/");
    let mut escaped = false;
    for c in source.chars() {
        if escaped {
            out.push(c);
            escaped = false;
        } else if c == '\\' {
            out.push(c);
            escaped = true;
        } else if c == '/' {
            out.push_str("\\/");
        } else {
            out.push(c);
        }
    }
    out.push('/');
    out
}

fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = ((b[0] as u32) << 16) | ((b[1] as u32) << 8) | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(T[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Strict base64 of bytes (Puppet's default `Binary` string form).
pub fn binary_to_base64(bytes: &[u8]) -> String {
    base64(bytes)
}

/// The programmatic string form, `String($v, '%p')`.
pub fn to_programmatic(v: &Value) -> String {
    let mut out = String::new();
    write_p(&mut out, v);
    out
}

fn write_p(out: &mut String, v: &Value) {
    match v {
        Value::Undef => out.push_str("undef"),
        Value::Default => out.push_str("default"),
        Value::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Integer(i) => out.push_str(&i.to_string()),
        Value::Float(f) => out.push_str(&ruby_float_to_s(*f)),
        Value::String(s) => out.push_str(&puppet_quote(s)),
        Value::Array(_) | Value::Hash(_) => write_collection(out, v, write_p),
        Value::Regexp(r) => out.push_str(&regexp_with_delimiters(r.source())),
        // The abstract Object type prints expanded at top level only.
        Value::Type(Type::Object(o)) if o.name.is_none() => out.push_str("Object[{}]"),
        // A type as a value: the alternate form of its `Display`, which the
        // type system (above this module) implements.
        Value::Type(t) => out.push_str(&format!("{t:#}")),
        Value::SemVer(v) => out.push_str(&v.to_string()),
        Value::SemVerRange(r) => {
            let parts: Vec<String> = r.ranges.iter().map(|r| r.to_string()).collect();
            out.push_str(&parts.join(" || "))
        }
        Value::Timespan(t) => out.push_str(&format!("Timespan({})", puppet_quote(&t.to_string()))),
        Value::Timestamp(t) => {
            out.push_str(&format!("Timestamp({})", puppet_quote(&t.to_string())))
        }
        Value::Sensitive(_) => out.push_str("#<Sensitive [value redacted]>"),
        Value::Binary(b) => out.push_str(&format!("Binary(\"{}\")", base64(b))),
        Value::Uri(u) => out.push_str(&format!("URI({})", puppet_quote(u))),
        Value::Iterator(it) => write_p(out, &Value::Array(it.elements.clone())),
        Value::Object(o) => {
            out.push_str(&o.type_name);
            out.push('(');
            write_p(out, &Value::Hash(o.attributes.clone()));
            out.push(')');
        }
        Value::Unknown(t) => out.push_str(&format!("<unknown {}>", t)),
    }
}

/// The string an interpolation `"${v}"` produces: strings verbatim, `undef` as
/// the empty string, containers with their elements converted the same way.
pub fn to_interpolated(v: &Value) -> String {
    let mut out = String::new();
    write_s(&mut out, v);
    out
}

/// `[a, b]` or `{k => v}`, each element written by `element`.
fn write_collection(out: &mut String, v: &Value, element: fn(&mut String, &Value)) {
    match v {
        Value::Array(a) => {
            out.push('[');
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                element(out, e);
            }
            out.push(']');
        }
        Value::Hash(h) => {
            out.push('{');
            for (i, (k, e)) in h.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                element(out, k);
                out.push_str(" => ");
                element(out, e);
            }
            out.push('}');
        }
        _ => {}
    }
}

fn write_s(out: &mut String, v: &Value) {
    match v {
        Value::Undef => {}
        Value::String(s) => out.push_str(s),
        Value::Array(_) | Value::Hash(_) => write_collection(out, v, write_s),
        Value::SemVerRange(r) => out.push_str(&r.to_string()),
        Value::Timespan(t) => out.push_str(&t.to_string()),
        Value::Timestamp(t) => out.push_str(&t.to_string()),
        Value::Sensitive(_) => out.push_str("Sensitive [value redacted]"),
        Value::Binary(b) => out.push_str(&base64(b)),
        Value::Uri(u) => out.push_str(u),
        Value::Iterator(_) => out.push_str("#<Iterator>"),
        other => write_p(out, other),
    }
}

/// The string Ruby's `to_s` gives for a value; Puppet uses it in some error
/// messages (e.g. "The value '' cannot be converted to Numeric").
pub fn ruby_to_s(v: &Value) -> String {
    match v {
        Value::Undef => String::new(),
        Value::Regexp(r) => format!("(?-mix:{})", r.source()),
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(ruby_inspect).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Hash(_) => ruby_inspect(v),
        other => to_interpolated(other),
    }
}

fn ruby_inspect(v: &Value) -> String {
    match v {
        Value::Undef => "nil".into(),
        Value::Default => ":default".into(),
        Value::String(s) => format!("{:?}", s),
        Value::Array(_) => ruby_to_s(v),
        Value::Hash(h) => {
            let parts: Vec<String> = h
                .iter()
                .map(|(k, e)| format!("{}=>{}", ruby_inspect(k), ruby_inspect(e)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Regexp(r) => regexp_with_delimiters(r.source()),
        other => ruby_to_s(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::OrderedHash;

    #[test]
    fn quoting() {
        assert_eq!(puppet_quote("abc"), "'abc'");
        assert_eq!(puppet_quote("it's"), "'it\\'s'");
        assert_eq!(puppet_quote("a\\b"), "'a\\b'");
        assert_eq!(puppet_quote("tab\there\n"), "\"tab\\there\\n\"");
        assert_eq!(puppet_quote("é"), "'é'");
    }

    #[test]
    fn programmatic_and_interpolated() {
        let h = OrderedHash::from_pairs([(Value::string("a"), Value::Integer(1))]);
        assert_eq!(to_programmatic(&Value::Hash(h.clone())), "{'a' => 1}");
        assert_eq!(to_interpolated(&Value::Hash(h)), "{a => 1}");
        let a = Value::Array(vec![Value::Undef, Value::Integer(1)]);
        assert_eq!(to_programmatic(&a), "[undef, 1]");
        assert_eq!(to_interpolated(&a), "[, 1]");
        assert_eq!(to_programmatic(&Value::Float(1e20)), "1.0e+20");
        assert_eq!(to_interpolated(&Value::Float(1.5e-7)), "1.5e-07");
        assert_eq!(
            to_interpolated(&Value::Sensitive(Box::new(Value::string("x")))),
            "Sensitive [value redacted]"
        );
        assert_eq!(regexp_with_delimiters("/x/"), "/\\/x\\//");
        assert_eq!(binary_to_base64(b"hello"), "aGVsbG8=");
    }
}
