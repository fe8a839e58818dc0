//! Printing types exactly as Puppet's `TypeFormatter` does.

use std::fmt::{self, Write};

use super::alias::type_value_string;
use crate::model::{CallableType, IntRange, StringParam, StructElement, TimeRange, Type};
use crate::time::{Timespan, Timestamp};
use crate::values::float::ruby_float_to_s;
use crate::values::format::{puppet_quote, regexp_with_delimiters, to_programmatic};

/// The `[from, to]` part of a range: empty when unbounded, `default` for an
/// open lower end, the upper end omitted when open.
fn range_part(r: Option<&IntRange>) -> Vec<String> {
    match r {
        None => vec![],
        Some(r) if r.is_unbounded() => vec![],
        Some(r) => {
            let mut v = vec![r.from.map_or("default".to_string(), |f| f.to_string())];
            if let Some(t) = r.to {
                v.push(t.to_string());
            }
            v
        }
    }
}

/// Capitalizes each `::` segment of a resource type name (`foo::bar` -> `Foo::Bar`).
pub fn capitalize_segments(name: &str) -> String {
    if name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return name.to_string();
    }
    name.split("::")
        .map(|seg| {
            let lower = seg.to_lowercase();
            let mut cs = lower.chars();
            match cs.next() {
                Some(c) => c.to_uppercase().collect::<String>() + cs.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("::")
}

fn write_list(f: &mut fmt::Formatter<'_>, name: &str, parts: &[String]) -> fmt::Result {
    f.write_str(name)?;
    if !parts.is_empty() {
        write!(f, "[{}]", parts.join(", "))?;
    }
    Ok(())
}

fn time_parts(r: &TimeRange, timestamp: bool) -> Vec<String> {
    let fmt_one = |n: i128| {
        if timestamp {
            puppet_quote(&Timestamp { nanos: n }.to_string())
        } else {
            puppet_quote(&Timespan { nanos: n }.to_string())
        }
    };
    if r.from.is_none() && r.to.is_none() {
        return vec![];
    }
    let mut v = vec![r.from.map_or("default".to_string(), fmt_one)];
    if let Some(t) = r.to {
        if Some(t) != r.from {
            v.push(fmt_one(t));
        }
    }
    v
}

/// A `String`/`Optional`/`NotUndef` parameter that holds a literal string prints
/// as that quoted string.
fn literal_or_type(t: &Type) -> String {
    match t {
        Type::String(StringParam::Value(s)) => puppet_quote(s),
        other => other.to_string(),
    }
}

fn struct_pair(e: &StructElement) -> (String, String) {
    let value_optional = super::is_assignable(&e.value, &Type::Undef);
    let name = puppet_quote(e.name());
    let key = match &e.key {
        Type::Optional(_) => {
            if value_optional {
                name
            } else {
                e.key.to_string()
            }
        }
        _ => {
            if value_optional {
                format!("NotUndef[{}]", name)
            } else {
                name
            }
        }
    };
    (key, e.value.to_string())
}

fn callable_params(c: &CallableType) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(p) = &c.params {
        if let Type::Tuple(types, size) = p.as_ref() {
            for t in types.iter().filter(|t| **t != Type::Unit) {
                parts.push(t.to_string());
            }
            if types.is_empty() {
                parts.push("0".into());
                parts.push("0".into());
            } else {
                parts.extend(range_part(size.as_ref()));
            }
        }
    }
    if let Some(b) = &c.block {
        parts.push(b.to_string());
    }
    parts
}

/// `{}` prints a type as Puppet prints it in signatures and messages.
/// `{:#}` prints it as the value it is when used as a value
/// ([`type_value_string`]): the value printers (`values::format`) sit
/// below the type system and reach that form through this trait.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return f.write_str(&type_value_string(self));
        }
        match self {
            Type::Any => f.write_str("Any"),
            Type::Unit => f.write_str("Unit"),
            Type::Undef => f.write_str("Undef"),
            Type::Default => f.write_str("Default"),
            Type::Scalar => f.write_str("Scalar"),
            Type::ScalarData => f.write_str("ScalarData"),
            Type::Numeric => f.write_str("Numeric"),
            Type::Data => f.write_str("Data"),
            Type::RichData => f.write_str("RichData"),
            Type::Integer(r) => write_list(f, "Integer", &range_part(Some(r))),
            Type::Float(r) => {
                if r.from == f64::NEG_INFINITY && r.to == f64::INFINITY {
                    return f.write_str("Float");
                }
                let mut v = vec![if r.from == f64::NEG_INFINITY {
                    "default".to_string()
                } else {
                    ruby_float_to_s(r.from)
                }];
                if r.to != f64::INFINITY {
                    v.push(ruby_float_to_s(r.to));
                }
                write_list(f, "Float", &v)
            }
            Type::String(p) => match p {
                StringParam::Size(r) => write_list(f, "String", &range_part(Some(r))),
                _ => f.write_str("String"),
            },
            Type::Enum(e) => {
                let mut v: Vec<String> = e.values.iter().map(|s| puppet_quote(s)).collect();
                if e.case_insensitive && !v.is_empty() {
                    v.push("true".into());
                }
                write_list(f, "Enum", &v)
            }
            Type::Pattern(ps) => {
                let v: Vec<String> = ps.iter().map(|p| regexp_with_delimiters(p)).collect();
                write_list(f, "Pattern", &v)
            }
            Type::Boolean(b) => match b {
                None => f.write_str("Boolean"),
                Some(b) => write!(f, "Boolean[{}]", b),
            },
            Type::Regexp(p) => match p {
                None => f.write_str("Regexp"),
                Some(p) => write!(f, "Regexp[{}]", regexp_with_delimiters(p)),
            },
            Type::SemVer(ranges) => {
                let v: Vec<String> = ranges
                    .iter()
                    .map(|r| puppet_quote(&r.to_string()))
                    .collect();
                write_list(f, "SemVer", &v)
            }
            Type::SemVerRange => f.write_str("SemVerRange"),
            Type::Timespan(r) => write_list(f, "Timespan", &time_parts(r, false)),
            Type::Timestamp(r) => write_list(f, "Timestamp", &time_parts(r, true)),
            Type::Collection(s) => write_list(f, "Collection", &range_part(s.as_ref())),
            Type::Array(t, s) => {
                if s.is_some_and(|s| s.from == Some(0) && s.to == Some(0)) {
                    return f.write_str("Array[0, 0]");
                }
                if **t == Type::Any && s.is_none() {
                    return f.write_str("Array");
                }
                let mut v = vec![t.to_string()];
                v.extend(range_part(s.as_ref()));
                write_list(f, "Array", &v)
            }
            Type::Hash(k, v, s) => {
                if s.is_some_and(|s| s.from == Some(0) && s.to == Some(0)) {
                    return f.write_str("Hash[0, 0]");
                }
                if **k == Type::Any && **v == Type::Any && s.is_none() {
                    return f.write_str("Hash");
                }
                let mut parts = vec![k.to_string(), v.to_string()];
                parts.extend(range_part(s.as_ref()));
                write_list(f, "Hash", &parts)
            }
            Type::Tuple(types, s) => {
                if types.is_empty() {
                    return f.write_str("Tuple");
                }
                let mut v: Vec<String> = types.iter().map(|t| t.to_string()).collect();
                v.extend(range_part(s.as_ref()));
                write_list(f, "Tuple", &v)
            }
            Type::Struct(elems) => {
                if elems.is_empty() {
                    return f.write_str("Struct");
                }
                let pairs: Vec<String> = elems
                    .iter()
                    .map(|e| {
                        let (k, v) = struct_pair(e);
                        format!("{} => {}", k, v)
                    })
                    .collect();
                write!(f, "Struct[{{{}}}]", pairs.join(", "))
            }
            Type::Variant(ts) => {
                let v: Vec<String> = ts.iter().map(|t| t.to_string()).collect();
                write_list(f, "Variant", &v)
            }
            Type::Optional(t) => match t {
                None => f.write_str("Optional"),
                Some(t) => write!(f, "Optional[{}]", literal_or_type(t)),
            },
            Type::NotUndef(t) => match t {
                None => f.write_str("NotUndef"),
                Some(t) if **t == Type::Any => f.write_str("NotUndef"),
                Some(t) => write!(f, "NotUndef[{}]", literal_or_type(t)),
            },
            Type::Iterable(t) => match t {
                None => f.write_str("Iterable"),
                Some(t) => write!(f, "Iterable[{}]", t),
            },
            Type::Iterator(t) => match t {
                None => f.write_str("Iterator"),
                Some(t) => write!(f, "Iterator[{}]", t),
            },
            Type::Type(t) => match t {
                None => f.write_str("Type"),
                Some(t) => write!(f, "Type[{}]", t),
            },
            Type::Callable(c) => {
                if c.return_type.is_none() {
                    if c.params.is_none() {
                        return f.write_str("Callable");
                    }
                    return write_list(f, "Callable", &callable_params(c));
                }
                let ret = c
                    .return_type
                    .as_ref()
                    .map(|r| r.to_string())
                    .unwrap_or_default();
                if c.params.is_none() {
                    return write!(f, "Callable[[], {}]", ret);
                }
                write!(f, "Callable[[{}], {}]", callable_params(c).join(", "), ret)
            }
            Type::Sensitive(t) => {
                if **t == Type::Any {
                    f.write_str("Sensitive")
                } else {
                    write!(f, "Sensitive[{}]", t)
                }
            }
            Type::Runtime(rt, name) => {
                if rt.is_none() && name.is_none() {
                    return f.write_str("Runtime");
                }
                let mut v = vec![rt.clone().unwrap_or_else(|| "undef".into())];
                v.push(name.as_deref().map_or("undef".to_string(), puppet_quote));
                write_list(f, "Runtime", &v)
            }
            Type::CatalogEntry => f.write_str("CatalogEntry"),
            Type::Resource(name, title) => match name {
                None => f.write_str("Resource"),
                Some(n) => {
                    f.write_str(&capitalize_segments(n))?;
                    if let Some(t) = title {
                        write!(f, "[{}]", puppet_quote(t))?;
                    }
                    Ok(())
                }
            },
            Type::Class(name) => match name {
                None => f.write_str("Class"),
                Some(n) => write!(f, "Class[{}]", n),
            },
            Type::Init(t, args) => match t {
                None => f.write_str("Init"),
                Some(t) => {
                    let mut v = vec![t.to_string()];
                    v.extend(args.iter().map(to_programmatic));
                    write_list(f, "Init", &v)
                }
            },
            Type::Uri(p) => match p {
                None => f.write_str("URI"),
                Some(v) => write!(f, "URI[{}]", to_programmatic(v)),
            },
            Type::Binary => f.write_str("Binary"),
            Type::Object(o) => match &o.name {
                None => f.write_str("Object"),
                Some(n) => f.write_str(n),
            },
            Type::TypeSet(n) => match n {
                None => f.write_str("TypeSet"),
                Some(n) => f.write_str(n),
            },
            Type::Alias(n) => f.write_str(n),
            Type::TypeReference(s) => {
                f.write_str("TypeReference[")?;
                f.write_str(&puppet_quote(s))?;
                f.write_char(']')
            }
        }
    }
}
