//! Operators on types, for operands whose values are not known: interval
//! arithmetic on integer ranges, collection concatenation, and access to
//! struct members, hash values and array elements.

use crate::model::{IntRange, Type, Value};
use crate::types::alias::{expand, is_alias_like};
use crate::types::TypeSystem;
use puppet_syntax::ast::BinaryOp;

use super::narrow::union;

/// An alias replaced by its definition (once; aliases of aliases too).
pub(super) fn resolved(ts: &TypeSystem<'_>, t: &Type) -> Type {
    let mut current = t.clone();
    for _ in 0..16 {
        if !is_alias_like(&current) {
            break;
        }
        match expand(&current, ts.resolver()) {
            Some(next) => current = next,
            None => break,
        }
    }
    current
}

fn range_add(a: IntRange, b: IntRange) -> IntRange {
    let add = |x: Option<i64>, y: Option<i64>| x?.checked_add(y?);
    IntRange::new(add(a.from, b.from), add(a.to, b.to))
}

fn range_sub(a: IntRange, b: IntRange) -> IntRange {
    let sub = |x: Option<i64>, y: Option<i64>| x?.checked_sub(y?);
    IntRange::new(sub(a.from, b.to), sub(a.to, b.from))
}

fn range_mul(a: IntRange, b: IntRange) -> IntRange {
    let (Some(a1), Some(a2), Some(b1), Some(b2)) = (a.from, a.to, b.from, b.to) else {
        return IntRange::new(None, None);
    };
    let products = [
        a1.checked_mul(b1),
        a1.checked_mul(b2),
        a2.checked_mul(b1),
        a2.checked_mul(b2),
    ];
    if products.iter().any(Option::is_none) {
        return IntRange::new(None, None);
    }
    let products: Vec<i64> = products.into_iter().flatten().collect();
    IntRange::new(
        products.iter().min().copied(),
        products.iter().max().copied(),
    )
}

/// The element type of an array-like type.
fn element(t: &Type) -> Option<Type> {
    match t {
        Type::Array(e, _) => Some((**e).clone()),
        Type::Tuple(types, _) => types.iter().cloned().reduce(|a, b| {
            if a == b {
                a
            } else {
                crate::types::normalize::variant_maybe(vec![a, b])
            }
        }),
        _ => None,
    }
}

/// The type of `l op r` for operands known only by type; `None` when
/// nothing better than the evaluator's answer is known.
pub(super) fn arithmetic(ts: &TypeSystem<'_>, op: BinaryOp, l: &Type, r: &Type) -> Option<Type> {
    // An undef operand fails (but for an array's right side, appended):
    // a computed result never came from one.
    let l = resolved(ts, l).without_undef();
    let r = resolved(ts, r);
    let r = match l {
        Type::Array(..) | Type::Tuple(..) => r,
        _ => r.without_undef(),
    };
    use BinaryOp as B;
    Some(match (op, &l, &r) {
        (B::Add, Type::Integer(a), Type::Integer(b)) => Type::Integer(range_add(*a, *b)),
        (B::Sub, Type::Integer(a), Type::Integer(b)) => Type::Integer(range_sub(*a, *b)),
        (B::Mul, Type::Integer(a), Type::Integer(b)) => Type::Integer(range_mul(*a, *b)),
        (B::Div | B::Mod, Type::Integer(_), Type::Integer(_)) => Type::integer(),
        (B::Add | B::Sub | B::Mul | B::Div, Type::Float(_), Type::Integer(_) | Type::Float(_))
        | (B::Add | B::Sub | B::Mul | B::Div, Type::Integer(_), Type::Float(_)) => {
            Type::Float(crate::model::FloatRange::UNBOUNDED)
        }
        (B::Add | B::Shl, Type::Array(..) | Type::Tuple(..), other) => {
            let left = element(&l).unwrap_or(Type::Any);
            let right = if op == B::Shl {
                other.clone()
            } else {
                match other {
                    Type::Array(..) | Type::Tuple(..) => element(other).unwrap_or(Type::Any),
                    Type::Hash(..) | Type::Struct(_) => Type::Any,
                    single => single.clone(),
                }
            };
            Type::array_of(union(ts, &left, &right))
        }
        (B::Sub, Type::Array(e, _), _) => Type::array_of((**e).clone()),
        (B::Add, Type::Hash(k1, v1, _), Type::Hash(k2, v2, _)) => {
            Type::hash_of(union(ts, k1, k2), union(ts, v1, v2))
        }
        (B::Sub, Type::Hash(k, v, _), _) => Type::hash_of((**k).clone(), (**v).clone()),
        _ => return None,
    })
}

/// The type of `target[key]` for a target known only by type.
pub(super) fn access(ts: &TypeSystem<'_>, target: &Type, keys: &[Option<Value>]) -> Option<Type> {
    let target = resolved(ts, target);
    match (&target, keys) {
        (Type::Struct(elements), [Some(Value::String(key))]) => {
            let member = elements.iter().find(|e| e.name() == key)?;
            let optional = matches!(member.key, Type::Optional(_));
            let value = resolved(ts, &member.value);
            Some(
                if optional && !matches!(value, Type::Optional(_) | Type::Any) {
                    Type::optional(value)
                } else {
                    value
                },
            )
        }
        (Type::Hash(_, v, _), [_]) => Some(Type::optional((**v).clone())),
        (Type::Array(e, _), [_]) => Some(Type::optional((**e).clone())),
        (Type::Array(e, _), [_, _]) => Some(Type::array_of((**e).clone())),
        (Type::Tuple(types, size), [Some(Value::Integer(i))]) => {
            let i = usize::try_from(*i).ok()?;
            // Elements past the tuple's minimum size may be missing.
            let min = size.map_or(types.len(), |s| s.lo().max(0) as usize);
            let element = types.get(i.min(types.len().checked_sub(1)?))?.clone();
            Some(if i < min && i < types.len() {
                element
            } else {
                Type::optional(element)
            })
        }
        (Type::String(_) | Type::Enum(_) | Type::Pattern(_), _) => Some(Type::string()),
        _ => None,
    }
}
