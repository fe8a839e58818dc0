//! Type alias resolution.
//!
//! Aliases are referenced by name ([`super::Type::Alias`]) and resolved through
//! an [`AliasResolver`], so recursive aliases (`type Tree = Array[Variant[Integer,
//! Tree]]`) are finite values; type operations guard against infinite expansion.

use std::collections::HashMap;

use super::Type;

/// Looks up the definition of a user type alias.
pub trait AliasResolver {
    /// The aliased type, or `None` if no such alias exists.
    fn resolve(&self, name: &str) -> Option<Type>;
}

/// A resolver that knows no aliases.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoAliases;

impl AliasResolver for NoAliases {
    fn resolve(&self, _name: &str) -> Option<Type> {
        None
    }
}

/// A simple table of aliases keyed by their (case-insensitive) name.
#[derive(Clone, Debug, Default)]
pub struct TypeAliases {
    map: HashMap<String, Type>,
}

impl TypeAliases {
    /// An empty table.
    pub fn new() -> Self {
        TypeAliases::default()
    }

    /// Defines or replaces an alias.
    pub fn insert(&mut self, name: &str, t: Type) {
        self.map.insert(name.to_ascii_lowercase(), t);
    }
}

impl AliasResolver for TypeAliases {
    fn resolve(&self, name: &str) -> Option<Type> {
        self.map.get(&name.to_ascii_lowercase()).cloned()
    }
}

/// The definition of the built-in `Data` alias.
pub fn data_definition() -> Type {
    Type::Variant(vec![
        Type::ScalarData,
        Type::Undef,
        Type::hash_of(Type::string(), Type::Data),
        Type::array_of(Type::Data),
    ])
}

/// The definition of the built-in `RichData` alias.
pub fn rich_data_definition() -> Type {
    Type::Variant(vec![
        Type::Scalar,
        Type::SemVerRange,
        Type::Binary,
        Type::Sensitive(Box::new(Type::Any)),
        Type::Type(None),
        Type::TypeSet(None),
        Type::Uri(None),
        Type::Object(Default::default()),
        Type::Undef,
        Type::Default,
        Type::hash_of(
            Type::Variant(vec![Type::string(), Type::Numeric]),
            Type::RichData,
        ),
        Type::array_of(Type::RichData),
    ])
}

/// Expands `Data`, `RichData` or a user alias one level; `None` for other types
/// and for unknown aliases.
pub fn expand(t: &Type, resolver: &dyn AliasResolver) -> Option<Type> {
    match t {
        Type::Data => Some(data_definition()),
        Type::RichData => Some(rich_data_definition()),
        Type::Alias(name) => resolver.resolve(name),
        _ => None,
    }
}

/// True for types that are references expanded through [`expand`].
pub fn is_alias_like(t: &Type) -> bool {
    matches!(t, Type::Data | Type::RichData | Type::Alias(_))
}
