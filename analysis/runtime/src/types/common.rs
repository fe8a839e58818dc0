//! The common type of two types (Puppet's `TypeCalculator#common_type`), used by
//! inference of collections and by type unions.

use super::assignable::is_assignable;
use super::normalize::variant_maybe;
use crate::model::{EnumType, FloatRange, IntRange, StringParam, Type};

fn enum_of(mut values: Vec<String>, extra: &[String]) -> Type {
    values.extend(extra.iter().cloned());
    Type::Enum(EnumType::new(values, false))
}

/// The most specific type both `t1` and `t2` are assignable to, following
/// Puppet's rules (e.g. `Integer[1,1]` and `Integer[5,5]` give `Integer[1, 5]`,
/// `Integer` and `String` give `ScalarData`).
pub fn common_type(t1: &Type, t2: &Type) -> Type {
    use Type as T;
    if matches!(t1, T::Undef) {
        return t2.clone();
    }
    if matches!(t2, T::Undef) {
        return t1.clone();
    }
    if matches!(t1, T::Unit) {
        return t2.clone();
    }
    if matches!(t2, T::Unit) {
        return t1.clone();
    }
    if is_assignable(t1, t2) {
        return t1.clone();
    }
    if is_assignable(t2, t1) {
        return t2.clone();
    }
    match (t1, t2) {
        (T::Array(e1, _), T::Array(e2, _)) => {
            return Type::Array(Box::new(common_type(e1, e2)), None)
        }
        (T::Hash(k1, v1, _), T::Hash(k2, v2, _)) => {
            return Type::Hash(
                Box::new(common_type(k1, k2)),
                Box::new(common_type(v1, v2)),
                None,
            )
        }
        (T::Class(_), T::Class(_)) => return T::Class(None),
        (T::Resource(n1, _), T::Resource(n2, _)) => {
            return if n1 == n2 {
                T::Resource(n1.clone(), None)
            } else {
                T::Resource(None, None)
            }
        }
        (T::Integer(a), T::Integer(b)) => {
            return T::Integer(IntRange::new(
                if a.lo() <= b.lo() { a.from } else { b.from },
                if a.hi() >= b.hi() { a.to } else { b.to },
            ))
        }
        (T::Float(a), T::Float(b)) => {
            return T::Float(FloatRange {
                from: a.from.min(b.from),
                to: a.to.max(b.to),
            })
        }
        (T::String(p1), T::Enum(e2)) => {
            return match p1 {
                StringParam::Value(v) => enum_of(e2.values.clone(), std::slice::from_ref(v)),
                _ => T::Enum(EnumType::default()),
            }
        }
        (T::String(p1), T::String(p2)) => {
            let size1 = matches!(p1, StringParam::Size(_));
            let size2 = matches!(p2, StringParam::Size(_));
            if !size1 || !size2 {
                return match (p1, p2) {
                    (StringParam::Value(a), StringParam::Value(b)) => {
                        enum_of(vec![a.clone(), b.clone()], &[])
                    }
                    _ => Type::string(),
                };
            }
            if let (StringParam::Size(a), StringParam::Size(b)) = (p1, p2) {
                if let T::Integer(r) = common_type(&T::Integer(*a), &T::Integer(*b)) {
                    return T::String(StringParam::Size(r));
                }
            }
            return Type::string();
        }
        (T::Pattern(a), T::Pattern(b)) => {
            let mut all = a.clone();
            for p in b {
                if !all.contains(p) {
                    all.push(p.clone());
                }
            }
            return T::Pattern(all);
        }
        (T::Enum(e1), T::Enum(e2)) => return enum_of(e1.values.clone(), &e2.values),
        (T::Enum(e1), T::String(p2)) => {
            return match p2 {
                StringParam::Value(v) => enum_of(e1.values.clone(), std::slice::from_ref(v)),
                _ => T::Enum(EnumType::default()),
            }
        }
        (T::Variant(a), T::Variant(b)) => {
            let mut all = a.clone();
            for t in b {
                if !all.contains(t) {
                    all.push(t.clone());
                }
            }
            return variant_maybe(all);
        }
        (T::Regexp(_), T::Regexp(_)) => return T::Regexp(None),
        (T::Callable(_), T::Callable(_)) => return T::Callable(Default::default()),
        _ => {}
    }
    let both = |t: &Type| is_assignable(t, t1) && is_assignable(t, t2);
    if both(&T::Numeric) {
        return T::Numeric;
    }
    if both(&T::ScalarData) {
        return T::ScalarData;
    }
    if both(&T::Scalar) {
        return T::Scalar;
    }
    if both(&T::Data) {
        return T::Data;
    }
    if let (T::Type(a), T::Type(b)) = (t1, t2) {
        let inner = match (a, b) {
            (Some(a), Some(b)) => Some(Box::new(common_type(a, b))),
            _ => None,
        };
        return T::Type(inner);
    }
    if both(&T::RichData) {
        return T::RichData;
    }
    if let (T::Runtime(r1, n1), T::Runtime(r2, n2)) = (t1, t2) {
        if r1 == r2 && n1 == n2 {
            return t1.clone();
        }
    }
    T::Any
}
