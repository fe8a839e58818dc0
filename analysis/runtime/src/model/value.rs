//! [`Value`]: what an expression evaluates to. [`Value::Unknown`] stands
//! for a value that cannot be known statically (a fact, a parameter without
//! default) but whose type is known, so inference can keep going.

use super::{OrderedHash, Type};
use crate::regexp::Regexp;
use crate::semver::{Version, VersionRange};
use crate::time::{Timespan, Timestamp};

/// A materialized iterator (`Iterator[T]` value): the produced elements plus the
/// element type Puppet reports for it.
#[derive(Clone, Debug, PartialEq)]
pub struct IteratorValue {
    /// The elements the iterator yields.
    pub elements: Vec<Value>,
    /// The inferred element type.
    pub element_type: Type,
}

/// An instance of an `Object` type such as `Deferred` or `Error`.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectValue {
    /// The object type name.
    pub type_name: String,
    /// Attribute values in declaration order.
    pub attributes: OrderedHash,
}

/// A Puppet value.
#[derive(Clone, Debug)]
pub enum Value {
    /// `undef`
    Undef,
    /// `default`
    Default,
    /// `true` / `false`
    Boolean(bool),
    /// A 64-bit integer (Puppet rejects values outside this range).
    Integer(i64),
    /// A double.
    Float(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An insertion-ordered hash.
    Hash(OrderedHash),
    /// A regular expression.
    Regexp(Regexp),
    /// A type used as a value.
    Type(Type),
    /// A semantic version.
    SemVer(Version),
    /// A semantic version range.
    SemVerRange(VersionRange),
    /// A duration.
    Timespan(Timespan),
    /// A point in time.
    Timestamp(Timestamp),
    /// A wrapped sensitive value.
    Sensitive(Box<Value>),
    /// Bytes.
    Binary(Vec<u8>),
    /// A URI (kept as its string form).
    Uri(String),
    /// A lazily produced sequence.
    Iterator(Box<IteratorValue>),
    /// An `Object` instance.
    Object(Box<ObjectValue>),
    /// A statically unknown value of the given type.
    Unknown(Type),
}

impl PartialEq for Value {
    /// Structural, strict equality (Ruby `eql?`); Puppet's `==` is
    /// `values::equality::equals`.
    fn eq(&self, other: &Self) -> bool {
        self.strict_eq(other)
    }
}

impl Value {
    /// Convenience constructor for strings.
    pub fn string(s: impl Into<String>) -> Value {
        Value::String(s.into())
    }

    /// Strict equality as Ruby's `eql?` (used for hash keys): no numeric
    /// promotion, case-sensitive strings.
    pub fn strict_eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Undef, Undef) | (Default, Default) => true,
            (Boolean(a), Boolean(b)) => a == b,
            (Integer(a), Integer(b)) => a == b,
            (Float(a), Float(b)) => a == b || (a.is_nan() && b.is_nan()),
            (String(a), String(b)) => a == b,
            (Array(a), Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.strict_eq(y))
            }
            (Hash(a), Hash(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, v)| b.get(k).is_some_and(|w| v.strict_eq(w)))
            }
            (Regexp(a), Regexp(b)) => a == b,
            (Type(a), Type(b)) => a == b,
            (SemVer(a), SemVer(b)) => a == b,
            (SemVerRange(a), SemVerRange(b)) => a == b,
            (Timespan(a), Timespan(b)) => a == b,
            (Timestamp(a), Timestamp(b)) => a == b,
            (Sensitive(a), Sensitive(b)) => a.strict_eq(b),
            (Binary(a), Binary(b)) => a == b,
            (Uri(a), Uri(b)) => a == b,
            (Iterator(a), Iterator(b)) => a == b,
            (Object(a), Object(b)) => a == b,
            (Unknown(_), Unknown(_)) => false,
            _ => false,
        }
    }

    /// True when the value (or something inside it) is [`Value::Unknown`].
    pub fn is_unknown(&self) -> bool {
        match self {
            Value::Unknown(_) => true,
            Value::Array(a) => a.iter().any(Value::is_unknown),
            Value::Hash(h) => h.iter().any(|(k, v)| k.is_unknown() || v.is_unknown()),
            Value::Sensitive(v) => v.is_unknown(),
            _ => false,
        }
    }

    /// Puppet truthiness when it is known: `None` for an unknown value.
    pub fn truth(&self) -> Option<bool> {
        match self {
            Value::Unknown(_) => None,
            known => Some(known.is_truthy()),
        }
    }

    /// Puppet truthiness: only `undef` and `false` are false.
    pub fn is_truthy(&self) -> bool {
        !matches!(self, Value::Undef | Value::Boolean(false))
    }
}
