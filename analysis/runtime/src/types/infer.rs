//! Type inference of values, as Puppet's `type()` function does it:
//! `detailed` ([`infer_set`], the default), `reduced` ([`infer`]) and
//! `generalized` ([`infer_generalized`]).

use super::common::common_type;
use super::normalize::{generalize, variant_maybe};
use crate::model::{
    FloatRange, IntRange, ObjectType, OrderedHash, StringParam, StructElement, TimeRange, Type,
    Value,
};
use crate::semver::VersionRange;

fn reduce(types: impl Iterator<Item = Type>) -> Type {
    let mut acc: Option<Type> = None;
    for t in types {
        acc = Some(match acc {
            None => t,
            Some(a) => common_type(&a, &t),
        });
    }
    acc.unwrap_or(Type::Unit)
}

fn size_of(n: usize) -> Option<IntRange> {
    Some(IntRange::exact(n as i64))
}

/// Parses a URI into the parameter hash Puppet's `URI[...]` type shows.
/// The default port of a URI scheme Ruby knows.
pub fn uri_default_port(scheme: &str) -> Option<i64> {
    match scheme.to_ascii_lowercase().as_str() {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        "ftp" => Some(21),
        "ldap" => Some(389),
        "ldaps" => Some(636),
        _ => None,
    }
}

pub fn uri_parameters(uri: &str) -> OrderedHash {
    let mut h = OrderedHash::new();
    let mut rest = uri;
    if let Some(i) = rest.find(':') {
        let scheme = &rest[..i];
        if !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        {
            h.insert(
                Value::string("scheme"),
                Value::string(scheme.to_ascii_lowercase()),
            );
            rest = &rest[i + 1..];
        }
    }
    let (rest, fragment) = match rest.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (rest, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let path = if let Some(auth_and_path) = rest.strip_prefix("//") {
        let (auth, path) = match auth_and_path.find('/') {
            Some(i) => (&auth_and_path[..i], &auth_and_path[i..]),
            None => (auth_and_path, ""),
        };
        let (userinfo, hostport) = match auth.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, auth),
        };
        if let Some(u) = userinfo {
            h.insert(Value::string("userinfo"), Value::string(u));
        }
        let (host, port) = match hostport.rsplit_once(':') {
            Some((hh, p)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => {
                (hh, Some(p))
            }
            _ => (hostport, None),
        };
        if !host.is_empty() {
            h.insert(Value::string("host"), Value::string(host));
        }
        // Ruby keeps the port as written, and drops the scheme's default
        let scheme = h.get(&Value::string("scheme")).map(|v| match v {
            Value::String(s) => s.clone(),
            _ => String::new(),
        });
        if let Some(p) = port {
            let default = scheme.as_deref().and_then(uri_default_port);
            if p.parse::<i64>().ok() != default {
                h.insert(Value::string("port"), Value::string(p));
            }
        }
        path
    } else {
        rest
    };
    if !path.is_empty() {
        h.insert(Value::string("path"), Value::string(path));
    }
    if let Some(q) = query {
        h.insert(Value::string("query"), Value::string(q));
    }
    if let Some(f) = fragment {
        h.insert(Value::string("fragment"), Value::string(f));
    }
    h
}

/// Reduced inference (`type($v, reduced)`): collections become `Array`/`Hash`
/// of the common type of their members with an exact size.
pub fn infer(v: &Value) -> Type {
    match v {
        Value::Undef => Type::Undef,
        Value::Default => Type::Default,
        Value::Boolean(b) => Type::Boolean(Some(*b)),
        Value::Integer(i) => Type::Integer(IntRange::exact(*i)),
        Value::Float(f) => Type::Float(FloatRange { from: *f, to: *f }),
        Value::String(s) => Type::String(StringParam::Value(s.clone())),
        Value::Regexp(r) => Type::Regexp(Some(r.source().to_string())),
        Value::Type(t) => Type::Type(Some(Box::new(t.clone()))),
        Value::Array(a) => {
            if a.is_empty() {
                Type::empty_array()
            } else {
                Type::Array(Box::new(reduce(a.iter().map(infer))), size_of(a.len()))
            }
        }
        Value::Hash(h) => {
            if h.is_empty() {
                Type::empty_hash()
            } else {
                Type::Hash(
                    Box::new(reduce(h.keys().map(infer))),
                    Box::new(reduce(h.values().map(infer))),
                    size_of(h.len()),
                )
            }
        }
        Value::SemVer(_) => Type::SemVer(Vec::new()),
        Value::SemVerRange(_) => Type::SemVerRange,
        Value::Timespan(t) => Type::Timespan(TimeRange {
            from: Some(t.nanos),
            to: Some(t.nanos),
        }),
        Value::Timestamp(t) => Type::Timestamp(TimeRange {
            from: Some(t.nanos),
            to: Some(t.nanos),
        }),
        Value::Sensitive(inner) => Type::Sensitive(Box::new(generalize(&infer(inner)))),
        Value::Binary(_) => Type::Binary,
        Value::Uri(u) => Type::Uri(Some(Box::new(Value::Hash(uri_parameters(u))))),
        Value::Iterator(it) => Type::Iterator(Some(Box::new(it.element_type.clone()))),
        Value::Object(o) => Type::Object(ObjectType {
            name: Some(o.type_name.clone()),
            parent: None,
        }),
        Value::Unknown(t) => t.clone(),
    }
}

/// Detailed inference (`type($v)`): arrays become `Tuple`s, hashes with
/// non-empty string keys `Struct`s, versions an exact `SemVer` range.
pub fn infer_set(v: &Value) -> Type {
    match v {
        Value::Array(a) => {
            if a.is_empty() {
                Type::empty_array()
            } else {
                Type::Tuple(a.iter().map(infer_set).collect(), None)
            }
        }
        Value::Hash(h) => {
            if h.is_empty() {
                Type::empty_hash()
            } else if h
                .keys()
                .all(|k| matches!(k, Value::String(s) if !s.is_empty()))
            {
                Type::Struct(
                    h.iter()
                        .map(|(k, v)| {
                            let name = match k {
                                Value::String(s) => s.clone(),
                                _ => String::new(),
                            };
                            StructElement {
                                key: Type::String(StringParam::Value(name)),
                                value: infer_set(v),
                            }
                        })
                        .collect(),
                )
            } else {
                let k = variant_maybe(h.keys().map(infer_set).collect());
                let vt = variant_maybe(h.values().map(infer_set).collect());
                Type::Hash(Box::new(k), Box::new(vt), size_of(h.len()))
            }
        }
        Value::SemVer(ver) => {
            Type::SemVer(vec![VersionRange::between(ver.clone(), ver.clone(), false)])
        }
        other => infer(other),
    }
}

/// Generalized inference (`type($v, generalized)`).
pub fn infer_generalized(v: &Value) -> Type {
    generalize(&infer(v))
}
