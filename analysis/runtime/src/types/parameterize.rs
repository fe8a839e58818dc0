//! Building parameterized types from evaluated arguments (`Base[args...]`),
//! with the errors Puppet raises for invalid parameterizations.

use super::display::capitalize_segments;
use super::infer::infer;
use super::is_assignable;
use super::normalize::{generalize, merge_version_ranges, variant_maybe};
use crate::model::{
    CallableType, EnumType, FloatRange, IntRange, ObjectType, StringParam, StructElement,
    TimeRange, Type, Value,
};
use crate::regexp::{RegexError, Regexp};
use crate::semver::VersionRange;
use crate::time::{float_secs_to_nanos, Timespan, Timestamp, NS_PER_SEC};
use crate::values::a_an;

/// Result of applying `[]` to a type: usually a type, but `File['a', 'b']`
/// and `Class[a, b]` produce arrays of types.
pub type AccessResult = Result<Value, AccessError>;

/// Why an access on a type failed.
#[derive(Clone, Debug, PartialEq)]
pub enum AccessError {
    /// Puppet raises an error.
    Error(String),
    /// The result depends on something not available statically (the catalog,
    /// a Ruby-only regexp...).
    Unsupported(String),
}

impl From<String> for AccessError {
    fn from(s: String) -> Self {
        AccessError::Error(s)
    }
}

fn type_label(t: &Type) -> String {
    format!("{}-Type", base_name(t))
}

fn base_name(t: &Type) -> String {
    match t {
        Type::Resource(Some(n), _) => capitalize_segments(n),
        Type::Object(o) if o.name.is_some() => o.name.clone().unwrap_or_default(),
        Type::Alias(n) => n.clone(),
        other => {
            let s = match other {
                Type::Integer(_) => "Integer".to_string(),
                _ => other.to_string(),
            };
            s.split('[').next().unwrap_or("").to_string()
        }
    }
}

fn uc_a_an(s: &str) -> String {
    let r = a_an(s);
    let mut c = r.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => r,
    }
}

fn arity_error(label: &str, min: usize, max: Option<usize>, actual: usize) -> String {
    match max {
        None => format!(
            "{}[] accepts {} or more arguments. Got {}",
            label, min, actual
        ),
        Some(m) if m != min => format!(
            "{}[] accepts {} to {} arguments. Got {}",
            label, min, m, actual
        ),
        Some(_) => format!(
            "{}[] accepts {} {}. Got {}",
            label,
            min,
            if min == 1 { "argument" } else { "arguments" },
            actual
        ),
    }
}

/// The name Puppet uses for a value's generalized type in key errors.
fn key_type_name(v: &Value) -> String {
    match v {
        Value::Undef => "Undef".into(),
        Value::Default => "Default".into(),
        other => generalize(&infer(other)).to_string(),
    }
}

/// The Ruby class name Puppet shows in some messages (`Got Integer`).
fn class_name(v: &Value) -> String {
    match v {
        Value::Undef => "NilClass".into(),
        Value::Default => "Symbol".into(),
        Value::Boolean(true) => "TrueClass".into(),
        Value::Boolean(false) => "FalseClass".into(),
        Value::Integer(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) => "String".into(),
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        Value::Regexp(_) => "Regexp".into(),
        Value::Type(t) => format!("Puppet::Pops::Types::P{}Type", base_name(t)),
        Value::SemVer(_) => "SemanticPuppet::Version".into(),
        Value::SemVerRange(_) => "SemanticPuppet::VersionRange".into(),
        other => other.label(),
    }
}

fn specialization_error(base: &Type, key: &Value, expected: &str) -> String {
    format!(
        "Error creating type specialization of {}, Cannot use {} where {} is expected",
        a_an(&type_label(base)),
        key_type_name(key),
        expected
    )
}

fn flatten(args: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for a in args {
        match a {
            Value::Array(inner) => out.extend(flatten(inner)),
            other => out.push(other.clone()),
        }
    }
    out
}

fn as_type(v: &Value) -> Option<&Type> {
    match v {
        Value::Type(t) => Some(t),
        _ => None,
    }
}

fn int_range(from: &Value, to: Option<&Value>) -> Result<IntRange, String> {
    let bound = |v: &Value| match v {
        Value::Integer(i) => Some(*i),
        _ => None,
    };
    let f = bound(from);
    let t = to.and_then(bound);
    let r = IntRange::new(f, t);
    if r.lo() > r.hi() {
        return Err(format!(
            "'from' must be less or equal to 'to'. Got ({}, {}",
            f.map_or("-Infinity".to_string(), |x| x.to_string()),
            t.map_or("Infinity".to_string(), |x| x.to_string())
        ));
    }
    Ok(r)
}

fn is_range_param(v: &Value) -> bool {
    matches!(v, Value::Integer(_) | Value::Default)
        || matches!(v, Value::String(s) if s == "default")
}

/// `collection_size_t`: a single `Integer` type, or one or two integers/`default`.
fn size_constraint(keys: &[Value]) -> Result<IntRange, String> {
    if keys.len() == 1 {
        if let Value::Type(Type::Integer(r)) = &keys[0] {
            return Ok(*r);
        }
    }
    for k in keys {
        if !matches!(k, Value::Integer(_) | Value::Default) {
            return Err(format!(
                "A Type's size constraint arguments must be a single Integer type, or 1-2 integers (or default). Got {}",
                a_an(&class_name(k))
            ));
        }
    }
    int_range(&keys[0], keys.get(1))
}

fn time_arg(v: &Value, timestamp: bool) -> Result<Option<i128>, String> {
    Ok(Some(match v {
        Value::Undef | Value::Default => return Ok(None),
        Value::Timespan(t) if !timestamp => t.nanos,
        Value::Timestamp(t) if timestamp => t.nanos,
        Value::Integer(i) => *i as i128 * NS_PER_SEC,
        Value::Float(f) => {
            float_secs_to_nanos(*f).ok_or_else(|| "Float out of range".to_string())?
        }
        Value::String(s) => {
            if timestamp {
                Timestamp::parse(s)?.nanos
            } else {
                Timespan::parse(s)?.nanos
            }
        }
        Value::Hash(h) => {
            let get = |k: &str| h.get(&Value::string(k));
            if timestamp {
                let Some(Value::String(s)) = get("string") else {
                    return Err("Timestamp hash requires a 'string'".into());
                };
                let tz = match get("timezone") {
                    Some(Value::String(t)) => Some(t.as_str()),
                    _ => None,
                };
                let defaults = if tz.is_some() {
                    &crate::time::TIMESTAMP_DEFAULT_FORMATS[5..]
                } else {
                    &crate::time::TIMESTAMP_DEFAULT_FORMATS[..]
                };
                let formats: Vec<&str> = match get("format") {
                    Some(Value::String(f)) => vec![f.as_str()],
                    Some(Value::Array(fs)) => fs
                        .iter()
                        .filter_map(|f| match f {
                            Value::String(s) => Some(s.as_str()),
                            _ => None,
                        })
                        .collect(),
                    _ => defaults.to_vec(),
                };
                crate::time::strptime::parse_timestamp(s, &formats, tz)?.nanos
            } else if let Some(Value::String(s)) = get("string") {
                match get("format") {
                    Some(Value::String(f)) => Timespan::parse_with(s, f)?.nanos,
                    Some(Value::Array(fs)) => {
                        let fs: Vec<&str> = fs
                            .iter()
                            .filter_map(|f| {
                                if let Value::String(s) = f {
                                    Some(s.as_str())
                                } else {
                                    None
                                }
                            })
                            .collect();
                        Timespan::parse_any(s, &fs)?.nanos
                    }
                    _ => Timespan::parse(s)?.nanos,
                }
            } else {
                let n = |k: &str| match get(k) {
                    Some(Value::Integer(i)) => *i,
                    _ => 0,
                };
                let neg = matches!(get("negative"), Some(Value::Boolean(true)));
                Timespan::from_fields(
                    neg,
                    n("days"),
                    n("hours"),
                    n("minutes"),
                    n("seconds"),
                    n("milliseconds"),
                    n("microseconds"),
                    n("nanoseconds"),
                )
                .nanos
            }
        }
        other => {
            return Err(format!(
                "Unable to create a {} from a {}",
                if timestamp {
                    "Puppet::Pops::Time::Timestamp"
                } else {
                    "Puppet::Pops::Time::Timespan"
                },
                class_name(other)
            ))
        }
    }))
}

fn time_range(keys: &[Value], timestamp: bool) -> Result<TimeRange, String> {
    let from = match keys.first() {
        Some(v) => time_arg(v, timestamp)?,
        None => None,
    };
    let to = match keys.get(1) {
        Some(v) => time_arg(v, timestamp)?,
        None => None,
    };
    let r = TimeRange { from, to };
    if r.lo() > r.hi() {
        let show = |n: Option<i128>, inf: &str| {
            n.map_or(inf.to_string(), |n| {
                if timestamp {
                    Timestamp { nanos: n }.to_string()
                } else {
                    Timespan { nanos: n }.to_string()
                }
            })
        };
        return Err(format!(
            "'from' must be less or equal to 'to'. Got ({}, {}",
            show(from, "-Infinity"),
            show(to, "Infinity")
        ));
    }
    Ok(r)
}

fn kind_of_callable(t: &Type, optional: bool) -> bool {
    match t {
        Type::Callable(_) => true,
        Type::Optional(Some(x)) => optional && kind_of_callable(x, optional),
        Type::Variant(ts) => !ts.is_empty() && ts.iter().all(|x| kind_of_callable(x, optional)),
        _ => false,
    }
}

/// `TypeFactory.type_of`: a type stays a type, a string becomes a Ruby runtime
/// type, anything else its generalized inferred type.
fn type_of_value(v: &Value) -> Type {
    match v {
        Value::Type(t) => t.clone(),
        Value::String(s) => Type::Runtime(Some("ruby".into()), Some(s.clone())),
        other => generalize(&infer(other)),
    }
}

fn callable(base: &Type, args: &[Value]) -> Result<Type, String> {
    let (mut params, return_type): (Vec<Value>, Option<Box<Type>>) = match args {
        [Value::Array(p), r] => (p.clone(), Some(Box::new(type_of_value(r)))),
        [Value::Array(_), ..] => {
            return Err(arity_error(
                &uc_a_an(&type_label(base)),
                2,
                Some(2),
                args.len(),
            ));
        }
        _ => (args.to_vec(), None),
    };
    let return_type = return_type.filter(|r| **r != Type::Any);
    let block = match params.last() {
        Some(Value::Type(t)) if kind_of_callable(t, true) => {
            let b = t.clone();
            params.pop();
            Some(Box::new(b))
        }
        _ => None,
    };
    let size = take_size_range(&mut params)?;
    let mut types: Vec<Type> = params.iter().map(type_of_value).collect();
    if types.is_empty() && size.is_some_and(|s| s.hi() > 0) {
        types.push(Type::Unit);
    }
    Ok(Type::Callable(CallableType {
        params: Some(Box::new(Type::Tuple(types, size.map(IntRange::to_size)))),
        block,
        return_type,
    }))
}

fn struct_type(base: &Type, args: &[Value]) -> Result<Type, String> {
    let [Value::Hash(h)] = args else {
        if args.len() != 1 {
            return Err(arity_error(
                &uc_a_an(&type_label(base)),
                1,
                Some(1),
                args.len(),
            ));
        }
        return Err(specialization_error(base, &args[0], "Hash"));
    };
    if h.is_empty() {
        return Ok(Type::Struct(Vec::new()));
    }
    let mut elems = Vec::new();
    for (k, v) in h.iter() {
        let value = type_of_value(v);
        let key = match k {
            Value::String(s) => {
                if s.is_empty() {
                    return Err("Struct element key cannot be an empty String".into());
                }
                let kt = Type::String(StringParam::Value(s.clone()));
                if is_assignable(&value, &Type::Undef) {
                    Type::Optional(Some(Box::new(kt)))
                } else {
                    kt
                }
            }
            Value::Type(t) => {
                let (key, s) = match t {
                    Type::NotUndef(Some(inner)) => ((**inner).clone(), Some((**inner).clone())),
                    Type::Optional(Some(inner)) => (t.clone(), Some((**inner).clone())),
                    Type::String(_) => (t.clone(), Some(t.clone())),
                    Type::Enum(e) if e.values.len() == 1 => {
                        (t.clone(), Some(Type::String(StringParam::Value(e.values[0].clone()))))
                    }
                    Type::Enum(_) => (t.clone(), None),
                    _ => {
                        return Err(format!(
                            "Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: {}",
                            class_name(k)
                        ))
                    }
                };
                if !matches!(s, Some(Type::String(StringParam::Value(_)))) {
                    return Err(format!("Unable to extract a non-empty literal string from Struct member key type {}", t));
                }
                key
            }
            other => {
                return Err(format!(
                    "Illegal Struct member key type. Expected NotUndef, Optional, String, or Enum. Got: {}",
                    class_name(other)
                ))
            }
        };
        elems.push(StructElement { key, value });
    }
    Ok(Type::Struct(elems))
}

fn pattern_type(base: &Type, keys: &[Value]) -> Result<Type, AccessError> {
    if keys.is_empty() {
        return Err(arity_error(&uc_a_an(&type_label(base)), 1, None, 0).into());
    }
    let mut out: Vec<String> = Vec::new();
    let mut push = |p: String| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    for k in keys {
        match k {
            Value::String(s) => {
                if let Err(e) = Regexp::try_new(s) {
                    return Err(match e {
                        RegexError::Invalid(m) => AccessError::Error(m),
                        RegexError::Unsupported(m) => AccessError::Unsupported(m),
                    });
                }
                push(s.clone())
            }
            Value::Regexp(r) => push(r.source().to_string()),
            Value::Type(Type::Regexp(p)) => push(p.clone().unwrap_or_default()),
            Value::Type(Type::Pattern(ps)) => ps.iter().cloned().for_each(&mut push),
            other => {
                return Err(specialization_error(
                    base,
                    other,
                    "String or Regexp or Pattern-Type or Regexp-Type",
                )
                .into())
            }
        }
    }
    Ok(Type::Pattern(out))
}

/// Parameterizes a type: `base[args...]` where `base` is the (possibly already
/// parameterized) type and `args` the evaluated keys. Resource and Class
/// references that produce several types are rejected here; use
/// [`parameterize_access`] for full `[]` semantics.
pub fn parameterize(base: &Type, args: &[Value]) -> Result<Type, String> {
    match parameterize_access(base, args) {
        Ok(Value::Type(t)) => Ok(t),
        Ok(other) => Err(format!(
            "{}[] produced a value that is not a type: {}",
            base,
            other.label()
        )),
        Err(AccessError::Error(e)) | Err(AccessError::Unsupported(e)) => Err(e),
    }
}

/// Parameterizes the built-in type with the given name (`Hash`, `Integer`...).
pub fn parameterize_named(name: &str, args: &[Value]) -> Result<Type, String> {
    match Type::from_name(name) {
        Some(t) => parameterize(&t, args),
        None => parameterize(&Type::Resource(Some(name.to_string()), None), args),
    }
}

/// Takes a trailing size range off `Tuple[...]` or `Callable[...]`
/// parameters: the last two when both are range bounds (integers or
/// `default`), else the last one when it is.
fn take_size_range(params: &mut Vec<Value>) -> Result<Option<IntRange>, String> {
    let n = params.len();
    if n >= 2 && is_range_param(&params[n - 2]) && is_range_param(&params[n - 1]) {
        let r = int_range(&params[n - 2], Some(&params[n - 1]))?;
        params.truncate(n - 2);
        Ok(Some(r))
    } else if n >= 1 && is_range_param(&params[n - 1]) {
        let r = int_range(&params[n - 1], None)?;
        params.truncate(n - 1);
        Ok(Some(r))
    } else {
        Ok(None)
    }
}

/// An access's result: the type, as a value.
fn type_value(t: Type) -> AccessResult {
    Ok(Value::Type(t))
}

/// Each key as `pick` reads it, or Puppet's specialization error naming
/// what was `expected` at the first key it cannot read.
fn keys_as<T>(
    base: &Type,
    keys: &[Value],
    expected: &str,
    pick: impl Fn(&Value) -> Option<Result<T, AccessError>>,
) -> Result<Vec<T>, AccessError> {
    keys.iter()
        .map(|k| pick(k).unwrap_or_else(|| Err(specialization_error(base, k, expected).into())))
        .collect()
}

/// A key that must be a type.
fn key_type(key: &Value) -> Option<Result<Type, AccessError>> {
    match key {
        Value::Type(t) => Some(Ok(t.clone())),
        _ => None,
    }
}

/// A key that must be a string.
fn key_string(key: &Value) -> Option<Result<String, AccessError>> {
    match key {
        Value::String(s) => Some(Ok(s.clone())),
        _ => None,
    }
}

/// Puppet's error for a parameter that must be a type.
fn not_a_type(name: &str, got: &Value) -> AccessError {
    format!(
        "{name}-Type[] arguments must be types. Got {}",
        class_name(got)
    )
    .into()
}

/// The `[]` operator applied to a type value.
pub fn parameterize_access(base: &Type, args: &[Value]) -> AccessResult {
    let label = uc_a_an(&type_label(base));
    match base {
        Type::Resource(..) => return resource_access(base, args),
        Type::Class(_) => return class_access(base, args),
        Type::Callable(_) => return type_value(callable(base, args)?),
        Type::Struct(_) => return type_value(struct_type(base, args)?),
        Type::Init(..) => {
            let Some(first) = args.first().and_then(as_type) else {
                return Err(AccessError::Error(format!(
                    "Init-Type[] arguments must be types. Got {}",
                    args.first().map_or("NilClass".into(), class_name)
                )));
            };
            return type_value(Type::Init(
                Some(Box::new(first.clone())),
                args[1..].to_vec(),
            ));
        }
        _ => {}
    }
    let keys = flatten(args);
    let one_type = |name: &str| -> Result<Type, AccessError> {
        if keys.len() != 1 {
            return Err(arity_error(&format!("{}-Type", name), 1, Some(1), keys.len()).into());
        }
        match &keys[0] {
            Value::Type(x) => Ok(x.clone()),
            other => Err(not_a_type(name, other)),
        }
    };
    match base {
        Type::Regexp(_) => regexp_access(base, keys, &label),
        Type::Boolean(_) => {
            if keys.len() != 1 {
                return Err(arity_error(&label, 1, Some(1), keys.len()).into());
            }
            match &keys[0] {
                Value::Boolean(b) => type_value(Type::Boolean(Some(*b))),
                other => Err(specialization_error(base, other, "TrueClass or FalseClass").into()),
            }
        }
        Type::Enum(_) => enum_access(base, keys, &label),
        Type::Variant(_) => variant_access(base, keys, &label),
        Type::SemVer(_) => semver_access(base, keys, &label),
        Type::Timespan(_) | Type::Timestamp(_) => time_access(base, keys, &label),
        Type::Tuple(..) => tuple_access(base, keys, &label),
        Type::String(_) => match keys.len() {
            1 | 2 => type_value(Type::String(StringParam::Size(
                size_constraint(&keys)?.to_size(),
            ))),
            n => Err(format!("String supports [] with one or two arguments. Got {}", n).into()),
        },
        Type::Pattern(_) => type_value(pattern_type(base, &keys)?),
        Type::Uri(_) => uri_access(keys),
        Type::Optional(_) => optional_access(keys),
        Type::NotUndef(_) => not_undef_access(keys),
        Type::Sensitive(_) => type_value(Type::Sensitive(Box::new(generalize(&one_type(
            "Sensitive",
        )?)))),
        Type::Type(_) => type_value(Type::Type(Some(Box::new(one_type("Type")?)))),
        Type::Iterable(_) => type_value(Type::Iterable(Some(Box::new(one_type("Iterable")?)))),
        Type::Iterator(_) => type_value(Type::Iterator(Some(Box::new(one_type("Iterator")?)))),
        Type::Runtime(..) => runtime_access(base, keys, &label),
        Type::Integer(_) => integer_access(keys),
        Type::Float(_) => float_access(keys),
        Type::Hash(..) => hash_access(keys),
        Type::Collection(_) => match keys.len() {
            1 | 2 => type_value(Type::Collection(Some(size_constraint(&keys)?.to_size()))),
            n => Err(arity_error("Collection-Type", 1, Some(2), n).into()),
        },
        Type::Array(..) => array_access(keys),
        Type::Object(_) | Type::TypeSet(_) => object_access(base, keys),
        Type::Alias(n) => Err(AccessError::Unsupported(format!(
            "'[]' on the type alias {} needs its definition",
            n
        ))),
        other => Err(format!(
            "Operator '[]' is not applicable to {}.",
            a_an(&type_label(other))
        )
        .into()),
    }
}

/// `Regexp[...]`.
fn regexp_access(base: &Type, keys: Vec<Value>, label: &str) -> AccessResult {
    if keys.len() != 1 {
        return Err(arity_error(label, 1, Some(1), keys.len()).into());
    }
    match &keys[0] {
        Value::String(s) => type_value(Type::Regexp(Some(s.clone()))),
        Value::Regexp(r) => type_value(Type::Regexp(Some(r.source().to_string()))),
        other => Err(specialization_error(base, other, "String or Regexp").into()),
    }
}

/// `Enum[...]`.
fn enum_access(base: &Type, mut keys: Vec<Value>, label: &str) -> AccessResult {
    let mut ci = false;
    if let Some(Value::Boolean(b)) = keys.last() {
        ci = *b;
        keys.pop();
    }
    if keys.is_empty() {
        return Err(arity_error(label, 1, None, 0).into());
    }
    let values = keys_as(base, &keys, "String", key_string)?;
    type_value(Type::Enum(EnumType::new(values, ci)))
}

/// `Variant[...]`.
fn variant_access(base: &Type, keys: Vec<Value>, label: &str) -> AccessResult {
    if keys.is_empty() {
        return Err(arity_error(label, 1, None, 0).into());
    }
    let types = keys_as(base, &keys, "Any-Type", key_type)?;
    type_value(variant_maybe(types))
}

/// `SemVer[...]`.
fn semver_access(base: &Type, keys: Vec<Value>, label: &str) -> AccessResult {
    if keys.is_empty() {
        return Err(arity_error(label, 1, None, 0).into());
    }
    let ranges = keys_as(
        base,
        &keys,
        "String or SemanticPuppet::VersionRange",
        |k| match k {
            Value::String(s) => Some(VersionRange::parse(s).map_err(AccessError::from)),
            Value::SemVerRange(r) => Some(Ok(r.clone())),
            _ => None,
        },
    )?;
    type_value(Type::SemVer(merge_version_ranges(ranges)))
}

/// `Timespan | Timestamp[...]`.
fn time_access(base: &Type, keys: Vec<Value>, label: &str) -> AccessResult {
    let ts = matches!(base, Type::Timestamp(_));
    if keys.len() > 2 {
        return Err(arity_error(label, 0, Some(2), keys.len()).into());
    }
    let r = time_range(&keys, ts)?;
    type_value(if ts {
        Type::Timestamp(r)
    } else {
        Type::Timespan(r)
    })
}

/// `Tuple[...]`.
fn tuple_access(base: &Type, mut keys: Vec<Value>, label: &str) -> AccessResult {
    let size = take_size_range(&mut keys)?;
    if keys.is_empty() {
        return Err(arity_error(label, 1, None, 0).into());
    }
    let types = keys_as(base, &keys, "Any-Type", key_type)?;
    type_value(Type::Tuple(types, size.map(IntRange::to_size)))
}

/// `Uri[...]`.
fn uri_access(keys: Vec<Value>) -> AccessResult {
    if keys.len() != 1 {
        return Err(arity_error("URI-Type", 1, None, keys.len()).into());
    }
    match &keys[0] {
        Value::String(s) => type_value(Type::Uri(Some(Box::new(Value::Hash(
            super::infer::uri_parameters(s),
        ))))),
        // only URI parts (matched as `=~` would: strings, regexps, types)
        Value::Hash(h)
            if h.keys()
                .all(|k| matches!(k, Value::String(k) if URI_PARTS.contains(&k.as_str()))) =>
        {
            type_value(Type::Uri(Some(Box::new(Value::Hash(h.clone())))))
        }
        other => Err(not_a_type("URI", other)),
    }
}

/// `Optional[...]`.
fn optional_access(keys: Vec<Value>) -> AccessResult {
    if keys.len() != 1 {
        return Err(arity_error("Optional-Type", 1, None, keys.len()).into());
    }
    match &keys[0] {
        Value::Type(x) => type_value(Type::Optional(Some(Box::new(x.clone())))),
        Value::String(s) => type_value(Type::Optional(Some(Box::new(Type::String(
            StringParam::Value(s.clone()),
        ))))),
        other => Err(not_a_type("Optional", other)),
    }
}

/// `NotUndef[...]`.
fn not_undef_access(keys: Vec<Value>) -> AccessResult {
    match keys.len() {
        0 => type_value(Type::NotUndef(None)),
        1 => match &keys[0] {
            Value::String(s) => type_value(Type::NotUndef(Some(Box::new(Type::String(
                StringParam::Value(s.clone()),
            ))))),
            Value::Type(Type::Any) => type_value(Type::NotUndef(None)),
            Value::Type(x) => type_value(Type::NotUndef(Some(Box::new(x.clone())))),
            other => Err(format!(
                "NotUndef-Type[] argument must be a Type or a String. Got {}",
                class_name(other)
            )
            .into()),
        },
        n => Err(arity_error("NotUndef-Type", 0, Some(1), n).into()),
    }
}

/// `Runtime[...]`.
fn runtime_access(base: &Type, keys: Vec<Value>, label: &str) -> AccessResult {
    if keys.len() != 2 {
        return Err(arity_error(label, 2, Some(2), keys.len()).into());
    }
    let mut parts = keys_as(base, &keys, "String or String", key_string)?.into_iter();
    type_value(Type::Runtime(parts.next(), parts.next()))
}

/// `Integer[...]`.
fn integer_access(keys: Vec<Value>) -> AccessResult {
    if !(1..=2).contains(&keys.len()) {
        return Err(format!(
            "Integer-Type supports [] with one or two arguments (from, to). Got {}",
            keys.len()
        )
        .into());
    }
    for k in &keys {
        if !matches!(k, Value::Integer(_) | Value::Default) {
            return Err(format!(
                "Integer-Type [] requires all arguments to be integers (or default). Got {}",
                class_name(k)
            )
            .into());
        }
    }
    type_value(Type::Integer(int_range(&keys[0], keys.get(1))?))
}

/// `Float[...]`.
fn float_access(keys: Vec<Value>) -> AccessResult {
    if !(1..=2).contains(&keys.len()) {
        return Err(format!(
            "Float-Type supports [] with one or two arguments (from, to). Got {}",
            keys.len()
        )
        .into());
    }
    let mut bounds = [f64::NEG_INFINITY, f64::INFINITY];
    for (i, k) in keys.iter().enumerate() {
        bounds[i] = match k {
            Value::Integer(n) => *n as f64,
            Value::Float(f) => *f,
            Value::Default => bounds[i],
            other => {
                return Err(format!(
                    "Float-Type [] requires all arguments to be floats, or integers (or default). Got {}",
                    class_name(other)
                )
                .into())
            }
        };
    }
    if bounds[0] > bounds[1] {
        let show = |f: f64| crate::values::float::ruby_float_to_s(f);
        return Err(format!(
            "'from' must be less or equal to 'to'. Got ({}, {}",
            show(bounds[0]),
            show(bounds[1])
        )
        .into());
    }
    type_value(Type::Float(FloatRange {
        from: bounds[0],
        to: bounds[1],
    }))
}

/// `Hash[...]`.
fn hash_access(keys: Vec<Value>) -> AccessResult {
    if keys.len() == 2 {
        if let (Value::Integer(_), Value::Integer(_)) = (&keys[0], &keys[1]) {
            let r = int_range(&keys[0], Some(&keys[1]))?;
            return type_value(Type::hash_sized(Type::Any, Type::Any, Some(r)));
        }
    }
    for k in keys.iter().take(2) {
        if as_type(k).is_none() {
            return Err(not_a_type("Hash", k));
        }
    }
    let size = match keys.len() {
        2 => None,
        3 => Some(match &keys[2] {
            Value::Type(Type::Integer(r)) => *r,
            other => int_range(other, None)?,
        }),
        4 => Some(size_constraint(&keys[2..4])?),
        n => return Err(arity_error("Hash-Type", 2, Some(4), n).into()),
    };
    let (Some(k), Some(v)) = (as_type(&keys[0]), as_type(&keys[1])) else {
        return Err(arity_error("Hash-Type", 2, Some(4), keys.len()).into());
    };
    type_value(Type::hash_sized(k.clone(), v.clone(), size))
}

/// `Array[...]`.
fn array_access(keys: Vec<Value>) -> AccessResult {
    match keys.len() {
        1 => match &keys[0] {
            Value::Type(x) => type_value(Type::array_sized(x.clone(), None)),
            other => Err(not_a_type("Array", other)),
        },
        2 => match &keys[0] {
            Value::Type(x) => type_value(Type::array_sized(
                x.clone(),
                Some(size_constraint(&keys[1..])?),
            )),
            _ => type_value(Type::array_sized(Type::Any, Some(size_constraint(&keys)?))),
        },
        3 => match &keys[0] {
            Value::Type(x) => type_value(Type::array_sized(
                x.clone(),
                Some(size_constraint(&keys[1..])?),
            )),
            other => Err(not_a_type("Array", other)),
        },
        n => Err(arity_error("Array-Type", 1, Some(3), n).into()),
    }
}

/// `Object | TypeSet[...]`.
fn object_access(base: &Type, keys: Vec<Value>) -> AccessResult {
    if keys.len() != 1 {
        return Err(arity_error(&format!("{}-Type", base_name(base)), 1, None, keys.len()).into());
    }
    let name = match &keys[0] {
        Value::Hash(h) => match h.get(&Value::string("name")) {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        },
        Value::String(s) if !is_object_name(s) => {
            return Err(format!(
                "object name has wrong type, expects a match for Pattern[/\\A[A-Z][\\w]*(?:::[A-Z][\\w]*)*\\z/], got '{s}'"
            )
            .into())
        }
        _ => None,
    };
    if matches!(base, Type::TypeSet(_)) {
        type_value(Type::TypeSet(name))
    } else {
        type_value(Type::Object(ObjectType { name, parent: None }))
    }
}

/// The parts a `URI[{...}]` parameter hash may give.
const URI_PARTS: &[&str] = &[
    "scheme", "userinfo", "host", "port", "path", "query", "fragment", "opaque",
];

/// An object type name: capitalized segments joined by `::`.
fn is_object_name(name: &str) -> bool {
    name.split("::").all(|seg| {
        seg.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && seg.chars().all(|c| c.is_alphanumeric() || c == '_')
    })
}

fn is_classref(name: &str) -> bool {
    let name = name.strip_prefix("::").unwrap_or(name);
    !name.is_empty()
        && name.split("::").all(|seg| {
            let mut cs = seg.chars();
            cs.next().is_some_and(|c| c.is_ascii_uppercase())
                && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

fn resource_access(base: &Type, args: &[Value]) -> AccessResult {
    let Type::Resource(type_name, title) = base else {
        return Err(AccessError::Error("not a resource type".into()));
    };
    if args.is_empty() {
        return Err(arity_error(&uc_a_an(&type_label(base)), 1, None, 0).into());
    }
    if title.is_some() {
        return Err(AccessError::Unsupported(format!(
            "{}[] needs the catalog to look up resource parameters",
            base
        )));
    }
    let mut keys: Vec<Value> = args.to_vec();
    let name = match type_name {
        Some(n) => capitalize_segments(n),
        None => {
            let first = keys.remove(0);
            match first {
                Value::String(s) => capitalize_segments(&s),
                Value::Type(Type::Resource(Some(n), None)) => capitalize_segments(&n),
                other => {
                    return Err(format!(
                        "First argument to Resource[] must be a resource type or a String. Got {}.",
                        key_type_name(&other)
                    )
                    .into())
                }
            }
        }
    };
    if !is_classref(&name) {
        return Err(format!(
            "Illegal type reference. The given name '{}' does not conform to the naming rule",
            name
        )
        .into());
    }
    let result_array = keys.len() > 1 || matches!(keys.first(), Some(Value::Array(_)));
    let orig = keys.len();
    let mut titles = flatten(&keys);
    titles.retain(|k| !matches!(k, Value::Undef));
    if titles.is_empty() && orig > 0 {
        return Ok(if result_array {
            Value::Array(vec![])
        } else {
            Value::Undef
        });
    }
    if titles.is_empty() {
        return Ok(Value::Type(Type::Resource(Some(name), None)));
    }
    let mut out = Vec::new();
    for k in &titles {
        match k {
            Value::String(s) => out.push(Value::Type(Type::Resource(Some(name.clone()), Some(s.clone())))),
            other => {
                return Err(format!(
                    "Error creating type specialization of {}, Cannot use {} where a resource title String is expected",
                    a_an(&type_label(base)),
                    key_type_name(other)
                )
                .into())
            }
        }
    }
    Ok(if result_array {
        Value::Array(out)
    } else {
        out.pop().unwrap_or(Value::Undef)
    })
}

fn class_access(base: &Type, args: &[Value]) -> AccessResult {
    if args.is_empty() {
        return Err(arity_error(&uc_a_an(&type_label(base)), 1, None, 0).into());
    }
    if let Type::Class(Some(n)) = base {
        return Err(AccessError::Unsupported(format!(
            "Class[{}][] needs the catalog to look up class parameters",
            n
        )));
    }
    let result_array = args.len() > 1 || matches!(args.first(), Some(Value::Array(_)));
    let mut keys = flatten(args);
    keys.retain(|k| !matches!(k, Value::Undef));
    if keys.is_empty() {
        return Ok(if result_array {
            Value::Array(vec![])
        } else {
            Value::Undef
        });
    }
    let mut out = Vec::new();
    for k in &keys {
        match k {
            Value::String(s) => {
                let lower = s.to_lowercase();
                let name = lower.strip_prefix("::").unwrap_or(&lower).to_string();
                out.push(Value::Type(Type::Class(Some(name))));
            }
            other => {
                let what = match other {
                    Value::Type(t) => format!("{}-Type", t),
                    o => o.label(),
                };
                return Err(format!(
                    "Illegal Class name in class reference. {} cannot be used where a String is expected",
                    uc_a_an(&what)
                )
                .into());
            }
        }
    }
    Ok(if result_array {
        Value::Array(out)
    } else {
        out.pop().unwrap_or(Value::Undef)
    })
}
