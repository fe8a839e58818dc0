//! [`Type`]: every Puppet type, as data, with the ranges and parameters it
//! is built from, its constructors and its names.

use super::Value;
use crate::semver::VersionRange;

/// An integer range; `None` bounds are the unbounded ends (`default`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct IntRange {
    /// Lower bound (`None` = -infinity).
    pub from: Option<i64>,
    /// Upper bound (`None` = +infinity).
    pub to: Option<i64>,
}

impl IntRange {
    /// The full range.
    pub const UNBOUNDED: IntRange = IntRange {
        from: None,
        to: None,
    };

    /// A range from optional bounds.
    pub fn new(from: Option<i64>, to: Option<i64>) -> IntRange {
        IntRange { from, to }
    }

    /// The single-value range `n..n`.
    pub fn exact(n: i64) -> IntRange {
        IntRange {
            from: Some(n),
            to: Some(n),
        }
    }

    /// Lower bound as i128 (-inf encoded as below i64::MIN).
    pub fn lo(&self) -> i128 {
        self.from.map_or(i128::MIN, i128::from)
    }

    /// Upper bound as i128 (+inf encoded as above i64::MAX).
    pub fn hi(&self) -> i128 {
        self.to.map_or(i128::MAX, i128::from)
    }

    /// True when both ends are unbounded.
    pub fn is_unbounded(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }

    /// True when `n` is in the range.
    pub fn contains(&self, n: i128) -> bool {
        self.lo() <= n && n <= self.hi()
    }

    /// `self` includes every value of `o`.
    pub fn includes(&self, o: &IntRange) -> bool {
        self.lo() <= o.lo() && self.hi() >= o.hi()
    }

    /// Puppet's `to_size`: clamps a range to non-negative sizes.
    pub fn to_size(self) -> IntRange {
        if self.lo() >= 0 {
            self
        } else {
            IntRange {
                from: Some(0),
                to: if self.hi() < 0 { Some(0) } else { self.to },
            }
        }
    }

    /// The size range used when a collection has no explicit size (`0..`).
    pub const DEFAULT_SIZE: IntRange = IntRange {
        from: Some(0),
        to: None,
    };
}

/// A float range; infinite bounds are the unbounded ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatRange {
    /// Lower bound (may be -inf).
    pub from: f64,
    /// Upper bound (may be +inf).
    pub to: f64,
}

impl FloatRange {
    /// The full range.
    pub const UNBOUNDED: FloatRange = FloatRange {
        from: f64::NEG_INFINITY,
        to: f64::INFINITY,
    };
}

/// A time range in nanoseconds (`None` = unbounded), for `Timespan`/`Timestamp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimeRange {
    /// Lower bound in nanoseconds.
    pub from: Option<i128>,
    /// Upper bound in nanoseconds.
    pub to: Option<i128>,
}

impl TimeRange {
    /// Lower bound for comparisons.
    pub fn lo(&self) -> i128 {
        self.from.unwrap_or(i128::MIN)
    }
    /// Upper bound for comparisons.
    pub fn hi(&self) -> i128 {
        self.to.unwrap_or(i128::MAX)
    }
}

/// `String` parameters: a size constraint, or (from inference only) the exact value.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum StringParam {
    /// Any string.
    #[default]
    Any,
    /// Strings whose length is in the range.
    Size(IntRange),
    /// The single string (inferred by `type()`; printed as plain `String`).
    Value(String),
}

/// One `Struct` member: the key type is `String<name>` possibly wrapped in
/// `Optional`/`NotUndef`, as Puppet stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct StructElement {
    /// The key type.
    pub key: Type,
    /// The value type.
    pub value: Type,
}

impl StructElement {
    /// The member name.
    pub fn name(&self) -> &str {
        let k = match &self.key {
            Type::Optional(Some(t)) | Type::NotUndef(Some(t)) => t,
            other => other,
        };
        match k {
            Type::String(StringParam::Value(s)) => s,
            Type::Enum(e) if e.values.len() == 1 => &e.values[0],
            _ => "",
        }
    }
}

/// `Enum` parameters (values are kept sorted and unique, as Puppet does).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EnumType {
    /// The accepted strings.
    pub values: Vec<String>,
    /// Matching ignores case.
    pub case_insensitive: bool,
}

impl EnumType {
    /// Builds an enum, sorting and de-duplicating like Puppet.
    pub fn new(mut values: Vec<String>, case_insensitive: bool) -> EnumType {
        values.sort();
        values.dedup();
        EnumType {
            values,
            case_insensitive,
        }
    }
}

/// `Callable` parameters.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CallableType {
    /// Parameter types as a `Tuple` (`None` = any callable).
    pub params: Option<Box<Type>>,
    /// Block type (a `Callable`, or `Optional[Callable]`).
    pub block: Option<Box<Type>>,
    /// Return type (`None` = Any).
    pub return_type: Option<Box<Type>>,
}

/// An `Object` type, opaque here: named types compare by name.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ObjectType {
    /// The type name (`None` for the abstract `Object`).
    pub name: Option<String>,
    /// The parent type name, when known.
    pub parent: Option<String>,
}

/// A Puppet type.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `Any`: every value.
    Any,
    /// `Unit`: internal type of the elements of an empty collection; assignable to anything.
    Unit,
    /// `Undef`
    Undef,
    /// `Default`
    Default,
    /// `Scalar`
    Scalar,
    /// `ScalarData`
    ScalarData,
    /// `Numeric`
    Numeric,
    /// `Data` (built-in alias).
    Data,
    /// `RichData` (built-in alias).
    RichData,
    /// `Integer[from, to]`
    Integer(IntRange),
    /// `Float[from, to]`
    Float(FloatRange),
    /// `String[size]` (or an inferred exact string).
    String(StringParam),
    /// `Enum[values...]`
    Enum(EnumType),
    /// `Pattern[regexps...]` (pattern sources).
    Pattern(Vec<String>),
    /// `Boolean` / `Boolean[true]` / `Boolean[false]`
    Boolean(Option<bool>),
    /// `Regexp` / `Regexp[/source/]`
    Regexp(Option<String>),
    /// `SemVer[ranges...]`
    SemVer(Vec<VersionRange>),
    /// `SemVerRange`
    SemVerRange,
    /// `Timespan[from, to]`
    Timespan(TimeRange),
    /// `Timestamp[from, to]`
    Timestamp(TimeRange),
    /// `Collection[size]`
    Collection(Option<IntRange>),
    /// `Array[T, size]`
    Array(Box<Type>, Option<IntRange>),
    /// `Tuple[types..., size]`
    Tuple(Vec<Type>, Option<IntRange>),
    /// `Hash[K, V, size]`
    Hash(Box<Type>, Box<Type>, Option<IntRange>),
    /// `Struct[{...}]`
    Struct(Vec<StructElement>),
    /// `Variant[types...]`
    Variant(Vec<Type>),
    /// `Optional[T]`
    Optional(Option<Box<Type>>),
    /// `NotUndef[T]`
    NotUndef(Option<Box<Type>>),
    /// `Iterable[T]`
    Iterable(Option<Box<Type>>),
    /// `Iterator[T]`
    Iterator(Option<Box<Type>>),
    /// `Type[T]`
    Type(Option<Box<Type>>),
    /// `Callable[...]`
    Callable(CallableType),
    /// `Sensitive[T]` (T is kept generalized)
    Sensitive(Box<Type>),
    /// `Runtime[runtime, name]`
    Runtime(Option<String>, Option<String>),
    /// `CatalogEntry`
    CatalogEntry,
    /// `Resource[type, title]` (type name capitalized, title exact).
    Resource(Option<String>, Option<String>),
    /// `Class[name]`
    Class(Option<String>),
    /// `Init[T, args...]`
    Init(Option<Box<Type>>, Vec<Value>),
    /// `URI[params]` (a hash of URI parts).
    Uri(Option<Box<Value>>),
    /// `Binary`
    Binary,
    /// `Object` and named object types (`Error`, `Deferred`...).
    Object(ObjectType),
    /// `TypeSet`
    TypeSet(Option<String>),
    /// A reference to a user type alias, resolved through an `AliasResolver`
    /// (`types::alias`).
    Alias(String),
    /// A reference to a type that could not be resolved (prints `TypeReference['X']`).
    TypeReference(String),
}

impl Type {
    /// Unparameterized `Integer`.
    pub fn integer() -> Type {
        Type::Integer(IntRange::UNBOUNDED)
    }
    /// Unparameterized `Float`.
    pub fn float() -> Type {
        Type::Float(FloatRange::UNBOUNDED)
    }
    /// Unparameterized `String`.
    pub fn string() -> Type {
        Type::String(StringParam::Any)
    }
    /// Unparameterized `Boolean`.
    pub fn boolean() -> Type {
        Type::Boolean(None)
    }
    /// `Array` (of Any).
    pub fn array() -> Type {
        Type::Array(Box::new(Type::Any), None)
    }
    /// `Array[T]`.
    pub fn array_of(t: Type) -> Type {
        Type::Array(Box::new(t), None)
    }
    /// `Hash` (Any => Any).
    pub fn hash() -> Type {
        Type::Hash(Box::new(Type::Any), Box::new(Type::Any), None)
    }
    /// `Hash[K, V]`.
    pub fn hash_of(k: Type, v: Type) -> Type {
        Type::Hash(Box::new(k), Box::new(v), None)
    }
    /// `Array[0, 0]`: the type of `[]`.
    pub fn empty_array() -> Type {
        Type::Array(Box::new(Type::Unit), Some(IntRange::exact(0)))
    }
    /// `Hash[0, 0]`: the type of `{}`.
    pub fn empty_hash() -> Type {
        Type::Hash(
            Box::new(Type::Unit),
            Box::new(Type::Unit),
            Some(IntRange::exact(0)),
        )
    }
    /// `Optional[T]`.
    pub fn optional(t: Type) -> Type {
        Type::Optional(Some(Box::new(t)))
    }
    /// The type without `Optional`'s undef (`Optional[T]` gives `T`).
    pub fn without_undef(&self) -> Type {
        match self {
            Type::Optional(Some(inner)) => (**inner).clone(),
            other => other.clone(),
        }
    }
    /// `Type[T]`.
    pub fn type_of(t: Type) -> Type {
        Type::Type(Some(Box::new(t)))
    }
    /// `String` with an exact value (as inferred for string values).
    pub fn string_value(s: &str) -> Type {
        Type::String(StringParam::Value(s.to_string()))
    }
    /// `Array[T, size]` applying Puppet's rule that an empty size range forces `Unit`.
    pub fn array_sized(t: Type, size: Option<IntRange>) -> Type {
        let size = size.map(IntRange::to_size);
        if size == Some(IntRange::exact(0)) {
            Type::Array(Box::new(Type::Unit), size)
        } else {
            Type::Array(Box::new(t), size)
        }
    }
    /// `Hash[K, V, size]` applying Puppet's empty-range rule.
    pub fn hash_sized(k: Type, v: Type, size: Option<IntRange>) -> Type {
        let size = size.map(IntRange::to_size);
        if size == Some(IntRange::exact(0)) {
            Type::Hash(Box::new(Type::Unit), Box::new(Type::Unit), size)
        } else {
            Type::Hash(Box::new(k), Box::new(v), size)
        }
    }

    /// The built-in type names as Puppet spells them (each is accepted by
    /// [`Type::from_name`]), for completion in type positions.
    pub const NAMES: &'static [&'static str] = &[
        "Any",
        "Array",
        "Binary",
        "Boolean",
        "Callable",
        "CatalogEntry",
        "Class",
        "Collection",
        "Data",
        "Default",
        "Deferred",
        "Enum",
        "Error",
        "Float",
        "Hash",
        "Init",
        "Integer",
        "Iterable",
        "Iterator",
        "NotUndef",
        "Numeric",
        "Object",
        "Optional",
        "Pattern",
        "Regexp",
        "Resource",
        "RichData",
        "Runtime",
        "Scalar",
        "ScalarData",
        "SemVer",
        "SemVerRange",
        "Sensitive",
        "String",
        "Struct",
        "Timespan",
        "Timestamp",
        "Tuple",
        "Type",
        "TypeSet",
        "URI",
        "Undef",
        "Variant",
    ];

    /// The unparameterized type for a name as written in Puppet source
    /// (`Integer`, `String`...), case-insensitively like Puppet's type parser.
    /// Returns `None` for names that are not built-in types (those are resource
    /// types or aliases, which the caller resolves).
    pub fn from_name(name: &str) -> Option<Type> {
        let t = match name.to_ascii_lowercase().as_str() {
            "any" => Type::Any,
            "undef" => Type::Undef,
            "default" => Type::Default,
            "scalar" => Type::Scalar,
            "scalardata" => Type::ScalarData,
            "numeric" => Type::Numeric,
            "data" => Type::Data,
            "richdata" => Type::RichData,
            "integer" => Type::integer(),
            "float" => Type::float(),
            "string" => Type::string(),
            "enum" => Type::Enum(EnumType::default()),
            "pattern" => Type::Pattern(Vec::new()),
            "boolean" => Type::boolean(),
            "regexp" => Type::Regexp(None),
            "semver" => Type::SemVer(Vec::new()),
            "semverrange" => Type::SemVerRange,
            "timespan" => Type::Timespan(TimeRange::default()),
            "timestamp" => Type::Timestamp(TimeRange::default()),
            "collection" => Type::Collection(None),
            "array" => Type::array(),
            "tuple" => Type::Tuple(Vec::new(), None),
            "hash" => Type::hash(),
            "struct" => Type::Struct(Vec::new()),
            "variant" => Type::Variant(Vec::new()),
            "optional" => Type::Optional(None),
            "notundef" => Type::NotUndef(None),
            "iterable" => Type::Iterable(None),
            "iterator" => Type::Iterator(None),
            "type" => Type::Type(None),
            "callable" => Type::Callable(CallableType::default()),
            "sensitive" => Type::Sensitive(Box::new(Type::Any)),
            "runtime" => Type::Runtime(None, None),
            "catalogentry" => Type::CatalogEntry,
            "resource" => Type::Resource(None, None),
            "class" => Type::Class(None),
            "init" => Type::Init(None, Vec::new()),
            "uri" => Type::Uri(None),
            "binary" => Type::Binary,
            "object" => Type::Object(ObjectType::default()),
            "typeset" => Type::TypeSet(None),
            "error" => Type::Object(ObjectType {
                name: Some("Error".into()),
                parent: None,
            }),
            "deferred" => Type::Object(ObjectType {
                name: Some("Deferred".into()),
                parent: None,
            }),
            _ => return None,
        };
        Some(t)
    }

    /// The size range of a collection type (Puppet's `size_range`).
    pub fn size_range(&self) -> IntRange {
        match self {
            Type::Collection(s) | Type::Array(_, s) | Type::Hash(_, _, s) => {
                s.unwrap_or(IntRange::DEFAULT_SIZE)
            }
            Type::Tuple(types, s) => s.unwrap_or_else(|| {
                if types.is_empty() {
                    IntRange::DEFAULT_SIZE
                } else {
                    IntRange::exact(types.len() as i64)
                }
            }),
            Type::Struct(elems) => IntRange::exact(elems.len() as i64),
            _ => IntRange::DEFAULT_SIZE,
        }
    }
}
