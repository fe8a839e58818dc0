//! The type algebra of flow typing: what a variable holds inside a branch
//! whose condition held (or failed), and what it holds after branches join.

use crate::model::Type;
use crate::types::common::common_type;
use crate::types::normalize::variant_maybe;
use crate::types::TypeSystem;

/// What a value of type `current` is, known to also be a `test`: the
/// members of `current` that are `test`s, else `test` itself.
pub(super) fn narrow(ts: &TypeSystem<'_>, current: &Type, test: &Type) -> Type {
    if matches!(current, Type::Any) {
        return test.clone();
    }
    if ts.assignable(test, current) {
        return current.clone();
    }
    let members = match current {
        Type::Variant(members) => members.clone(),
        Type::Optional(Some(t)) => vec![(**t).clone(), Type::Undef],
        _ => Vec::new(),
    };
    let kept: Vec<Type> = members
        .into_iter()
        .filter(|m| ts.assignable(test, m))
        .collect();
    if kept.is_empty() {
        test.clone()
    } else {
        variant_maybe(kept)
    }
}

/// What a value of type `current` is, known NOT to be a `test` (the
/// else-branch of `$x =~ T`): the members of a variant that are not `test`s.
pub(super) fn exclude(ts: &TypeSystem<'_>, current: &Type, test: &Type) -> Type {
    let members = match current {
        Type::Variant(members) => members.clone(),
        Type::Optional(Some(t)) => vec![(**t).clone(), Type::Undef],
        _ => return current.clone(),
    };
    let kept: Vec<Type> = members
        .iter()
        .filter(|m| !ts.assignable(test, m))
        .cloned()
        .collect();
    if kept.is_empty() || kept.len() == members.len() {
        current.clone()
    } else {
        variant_maybe(kept)
    }
}

/// A truthy value is not undef: `Optional[T]` becomes `T`.
pub(super) fn truthy(ts: &TypeSystem<'_>, current: &Type) -> Type {
    exclude(ts, current, &Type::Undef)
}

/// The type of a value that is either an `a` or a `b` (branches joining):
/// the more general of the two when one contains the other, `Optional`
/// when one side is undef, their common type when it says something, else
/// a `Variant`.
pub(super) fn union(ts: &TypeSystem<'_>, a: &Type, b: &Type) -> Type {
    // The element type of an empty collection adds nothing.
    match (a, b) {
        (Type::Unit, t) | (t, Type::Unit) => return t.clone(),
        _ => {}
    }
    if ts.assignable(a, b) {
        return a.clone();
    }
    if ts.assignable(b, a) {
        return b.clone();
    }
    match (a, b) {
        (Type::Undef, t) | (t, Type::Undef) => return Type::optional(t.clone()),
        _ => {}
    }
    let common = common_type(a, b);
    if matches!(
        common,
        Type::Any | Type::Scalar | Type::ScalarData | Type::Data | Type::RichData
    ) {
        variant_maybe(vec![a.clone(), b.clone()])
    } else {
        common
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::IntRange;
    use crate::types::NoAliases;

    fn int(a: i64, b: i64) -> Type {
        Type::Integer(IntRange::new(Some(a), Some(b)))
    }

    #[test]
    fn narrowing_keeps_matching_members() {
        let ts = TypeSystem::new(&NoAliases);
        let v = Type::Variant(vec![Type::string(), Type::integer()]);
        assert_eq!(narrow(&ts, &v, &Type::integer()), Type::integer());
        assert_eq!(narrow(&ts, &Type::Any, &Type::string()), Type::string());
        assert_eq!(narrow(&ts, &int(1, 5), &Type::integer()), int(1, 5));
        assert_eq!(exclude(&ts, &v, &Type::integer()), Type::string());
        assert_eq!(truthy(&ts, &Type::optional(Type::string())), Type::string());
    }

    #[test]
    fn union_joins_branches() {
        let ts = TypeSystem::new(&NoAliases);
        assert_eq!(union(&ts, &int(1, 1), &int(5, 5)), int(1, 5));
        assert_eq!(union(&ts, &Type::Unit, &int(5, 5)), int(5, 5));
        assert_eq!(
            union(
                &ts,
                &Type::empty_hash(),
                &Type::hash_of(Type::string(), int(1, 1))
            )
            .to_string(),
            "Hash[String, Integer[1, 1]]"
        );
        assert_eq!(
            union(&ts, &Type::string(), &Type::Undef),
            Type::optional(Type::string())
        );
        assert_eq!(
            union(&ts, &Type::string(), &Type::integer()).to_string(),
            "Variant[String, Integer]"
        );
    }
}
