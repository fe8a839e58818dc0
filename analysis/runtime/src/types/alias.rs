//! Type alias resolution.
//!
//! Aliases are referenced by name ([`Type::Alias`]) and resolved through
//! an [`AliasResolver`], so recursive aliases (`type Tree = Array[Variant[Integer,
//! Tree]]`) are finite values; type operations guard against infinite expansion.

use std::collections::HashMap;

use crate::model::{StructElement, Type};

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
/// Shared on clone (evaluators of one workspace all hold the same table).
#[derive(Clone, Debug, Default)]
pub struct TypeAliases {
    map: std::sync::Arc<HashMap<String, Type>>,
}

impl TypeAliases {
    /// An empty table.
    pub fn new() -> Self {
        TypeAliases::default()
    }

    /// Defines or replaces an alias.
    pub fn insert(&mut self, name: &str, t: Type) {
        std::sync::Arc::make_mut(&mut self.map).insert(name.to_ascii_lowercase(), t);
    }

    /// True when no alias is defined.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
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

/// `t` with a user alias (or a chain of them) at its top replaced by the
/// type it names; an unknown or self-referencing alias is left as it is.
pub fn resolve_top(t: &Type, resolver: &dyn AliasResolver) -> Type {
    let mut t = t.clone();
    for _ in 0..64 {
        match &t {
            Type::Alias(name) => match resolver.resolve(name) {
                Some(r) => t = r,
                None => break,
            },
            _ => break,
        }
    }
    t
}

/// True for types that are references expanded through [`expand`].
pub fn is_alias_like(t: &Type) -> bool {
    matches!(t, Type::Data | Type::RichData | Type::Alias(_))
}

thread_local! {
    /// The aliases of the evaluation running on this thread, for printing
    /// alias values in their expanded form (see [`type_value_string`]).
    static DISPLAY_ALIASES: std::cell::RefCell<Option<TypeAliases>> =
        const { std::cell::RefCell::new(None) };
}

/// Sets (or clears) the aliases [`type_value_string`] expands on this thread.
pub fn set_display_aliases(aliases: Option<TypeAliases>) {
    DISPLAY_ALIASES.with(|d| *d.borrow_mut() = aliases);
}

/// How Puppet prints the `Deferred` object type when it is the value itself.
const DEFERRED_DEFINITION: &str = "Object[{name => 'Deferred', attributes => {'name' => Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], 'arguments' => {type => Optional[Array], value => undef}}}]";

/// The string form of a type used as a value (`String(T)`, `%p`, `"${T}"`).
/// `Deferred` prints its object definition. A user alias prints as `Name = definition`, with aliases nested in the
/// definition expanded the same way except where they refer back to an
/// alias being expanded (`Tree = Array[Variant[Integer, Tree]]`).
/// The alternate form of `Display` (`{:#}`) gives the same string, for the
/// value printers below the type system (`values::format`).
pub fn type_value_string(t: &Type) -> String {
    // `Deferred` also prints its definition at top level
    if let Type::Object(o) = t {
        if o.name.as_deref() == Some("Deferred") {
            return DEFERRED_DEFINITION.to_string();
        }
    }
    if !matches!(t, Type::Alias(_)) {
        return t.to_string();
    }
    DISPLAY_ALIASES.with(|d| match &*d.borrow() {
        Some(aliases) => expand_for_display(t, aliases, &mut Vec::new()).to_string(),
        None => t.to_string(),
    })
}

/// How deep aliases nested in aliases are expanded at most.
const MAX_EXPANSION_DEPTH: usize = 32;

/// Replaces expandable aliases by pseudo-aliases named `Name = definition`.
pub fn expand_for_display(t: &Type, resolver: &dyn AliasResolver, guard: &mut Vec<String>) -> Type {
    expand_nested(t, resolver, guard, MAX_EXPANSION_DEPTH, true)
}

/// `t` with its aliases replaced by their definitions, down to `depth`
/// levels of aliases in aliases (1: the aliases `t` names, not those their
/// definitions name). An alias that refers back to one being expanded
/// (`Tree = Variant[Integer, Array[Tree]]` stays `Variant[Integer,
/// Array[Tree]]`) or is unknown stays as it is.
pub fn expand_aliases(t: &Type, resolver: &dyn AliasResolver, depth: usize) -> Type {
    expand_nested(
        t,
        resolver,
        &mut Vec::new(),
        depth.min(MAX_EXPANSION_DEPTH),
        false,
    )
}

/// The expansion of [`expand_for_display`] (`labelled`: as `Name =
/// definition`) and of [`expand_aliases`] (the definition alone).
fn expand_nested(
    t: &Type,
    resolver: &dyn AliasResolver,
    guard: &mut Vec<String>,
    depth: usize,
    labelled: bool,
) -> Type {
    match t {
        Type::Alias(n)
            if guard.len() < depth && !guard.iter().any(|g| g.eq_ignore_ascii_case(n)) =>
        {
            match resolver.resolve(n) {
                Some(def) => {
                    guard.push(n.clone());
                    let inner = expand_nested(&def, resolver, guard, depth, labelled);
                    guard.pop();
                    if labelled {
                        Type::Alias(format!("{} = {}", n, inner))
                    } else {
                        inner
                    }
                }
                None => t.clone(),
            }
        }
        other => map_children(other, &mut |c| {
            expand_nested(c, resolver, guard, depth, labelled)
        }),
    }
}

/// `t` with each directly nested type replaced by `f(nested)`.
pub fn map_children(t: &Type, f: &mut dyn FnMut(&Type) -> Type) -> Type {
    let mut opt = |o: &Option<Box<Type>>| o.as_ref().map(|b| Box::new(f(b)));
    match t {
        Type::Array(e, size) => Type::Array(Box::new(f(e)), *size),
        Type::Tuple(ts, size) => Type::Tuple(ts.iter().map(&mut *f).collect(), *size),
        Type::Hash(k, v, size) => Type::Hash(Box::new(f(k)), Box::new(f(v)), *size),
        Type::Struct(es) => Type::Struct(
            es.iter()
                .map(|e| StructElement {
                    key: f(&e.key),
                    value: f(&e.value),
                })
                .collect(),
        ),
        Type::Variant(ts) => Type::Variant(ts.iter().map(&mut *f).collect()),
        Type::Optional(o) => Type::Optional(opt(o)),
        Type::NotUndef(o) => Type::NotUndef(opt(o)),
        Type::Iterable(o) => Type::Iterable(opt(o)),
        Type::Iterator(o) => Type::Iterator(opt(o)),
        Type::Type(o) => Type::Type(opt(o)),
        Type::Init(o, args) => Type::Init(opt(o), args.clone()),
        Type::Sensitive(b) => Type::Sensitive(Box::new(f(b))),
        Type::Callable(c) => {
            let mut c2 = c.clone();
            c2.params = c.params.as_ref().map(|b| Box::new(f(b)));
            c2.block = c.block.as_ref().map(|b| Box::new(f(b)));
            c2.return_type = c.return_type.as_ref().map(|b| Box::new(f(b)));
            Type::Callable(c2)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_values_print_expanded() {
        let mut a = TypeAliases::new();
        a.insert("A", Type::integer());
        a.insert("B", Type::array_of(Type::Alias("A".into())));
        a.insert(
            "Tree",
            Type::array_of(Type::Variant(vec![
                Type::integer(),
                Type::Alias("Tree".into()),
            ])),
        );
        set_display_aliases(Some(a));
        assert_eq!(
            type_value_string(&Type::Alias("B".into())),
            "B = Array[A = Integer]"
        );
        assert_eq!(
            type_value_string(&Type::Alias("Tree".into())),
            "Tree = Array[Variant[Integer, Tree]]"
        );
        // only an alias itself expands, not a type containing one
        assert_eq!(
            type_value_string(&Type::array_of(Type::Alias("A".into()))),
            "Array[A]"
        );
        set_display_aliases(None);
        assert_eq!(type_value_string(&Type::Alias("A".into())), "A");
    }
}
