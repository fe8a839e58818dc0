//! Generalization (dropping value-level detail) and normalization (Puppet's
//! canonical form: flattened, merged variants; simplified Optional/NotUndef).

use super::assignable::is_assignable;
use crate::model::{
    CallableType, EnumType, FloatRange, IntRange, StringParam, StructElement, TimeRange, Type,
};
use crate::semver::VersionRange;

/// Puppet's `PVariantType.maybe_create`: flattens nested variants, removes
/// duplicates and unwraps a single member.
pub fn variant_maybe(types: Vec<Type>) -> Type {
    let mut flat: Vec<Type> = Vec::new();
    for t in types {
        match t {
            Type::Variant(inner) => {
                for i in inner {
                    if !flat.contains(&i) {
                        flat.push(i);
                    }
                }
            }
            other => {
                if !flat.contains(&other) {
                    flat.push(other);
                }
            }
        }
    }
    if flat.len() == 1 {
        flat.remove(0)
    } else {
        Type::Variant(flat)
    }
}

fn gen_box(t: &Option<Box<Type>>) -> Option<Box<Type>> {
    t.as_ref().map(|t| Box::new(generalize(t)))
}

/// Puppet's `generalize`: the type without value-specific parameters (ranges,
/// sizes, string values), e.g. `Integer[1, 1]` -> `Integer`.
pub fn generalize(t: &Type) -> Type {
    match t {
        Type::Integer(_) => Type::integer(),
        Type::Float(_) => Type::float(),
        Type::Boolean(_) => Type::boolean(),
        Type::String(_) => Type::string(),
        Type::Timespan(_) => Type::Timespan(TimeRange::default()),
        Type::Timestamp(_) => Type::Timestamp(TimeRange::default()),
        Type::Enum(e) => {
            if e.values.is_empty() {
                Type::string()
            } else {
                let lens = e.values.iter().map(|s| s.chars().count() as i64);
                let min = lens.clone().min().unwrap_or(0);
                let max = lens.max().unwrap_or(0);
                Type::String(StringParam::Size(IntRange::new(Some(min), Some(max))))
            }
        }
        Type::Collection(_) => Type::Collection(None),
        Type::Array(e, _) => {
            if **e == Type::Any {
                Type::array()
            } else {
                Type::Array(Box::new(generalize(e)), None)
            }
        }
        Type::Hash(k, v, s) => {
            let is_empty = **k == Type::Unit && **v == Type::Unit && *s == Some(IntRange::exact(0));
            if is_empty || (**k == Type::Any && **v == Type::Any && s.is_none()) {
                t.clone()
            } else {
                Type::Hash(Box::new(generalize(k)), Box::new(generalize(v)), None)
            }
        }
        Type::Tuple(types, s) => {
            if types.is_empty() && s.is_none() {
                t.clone()
            } else {
                Type::Tuple(types.iter().map(generalize).collect(), *s)
            }
        }
        Type::Struct(elems) => Type::Struct(
            elems
                .iter()
                .map(|e| StructElement {
                    key: e.key.clone(),
                    value: generalize(&e.value),
                })
                .collect(),
        ),
        Type::Variant(types) => {
            if types.is_empty() {
                t.clone()
            } else {
                variant_maybe(types.iter().map(generalize).collect())
            }
        }
        Type::Optional(x) => Type::Optional(gen_box(x)),
        Type::NotUndef(x) => Type::NotUndef(gen_box(x)),
        Type::Type(x) => Type::Type(gen_box(x)),
        Type::Iterable(x) => Type::Iterable(gen_box(x)),
        Type::Iterator(x) => Type::Iterator(gen_box(x)),
        Type::Sensitive(x) => Type::Sensitive(Box::new(generalize(x))),
        Type::Init(x, args) => Type::Init(gen_box(x), args.clone()),
        Type::Callable(c) => Type::Callable(CallableType {
            params: gen_box(&c.params),
            block: gen_box(&c.block),
            return_type: gen_box(&c.return_type),
        }),
        Type::Uri(_) => Type::Uri(None),
        other => other.clone(),
    }
}

fn norm_box(t: &Option<Box<Type>>) -> Option<Box<Type>> {
    t.as_ref().map(|t| Box::new(normalize(t)))
}

/// Puppet's `normalize`: canonical form used for aliases and comparisons.
pub fn normalize(t: &Type) -> Type {
    match t {
        Type::Collection(_) => Type::Collection(None),
        Type::Array(e, s) => {
            if **e == Type::Any {
                Type::array()
            } else {
                Type::Array(Box::new(normalize(e)), *s)
            }
        }
        Type::Hash(k, v, s) => Type::Hash(Box::new(normalize(k)), Box::new(normalize(v)), *s),
        Type::Tuple(types, s) => Type::Tuple(types.iter().map(normalize).collect(), *s),
        Type::Struct(elems) => Type::Struct(
            elems
                .iter()
                .map(|e| StructElement {
                    key: e.key.clone(),
                    value: normalize(&e.value),
                })
                .collect(),
        ),
        Type::Type(x) => Type::Type(norm_box(x)),
        Type::Iterable(x) => Type::Iterable(norm_box(x)),
        Type::Iterator(x) => Type::Iterator(norm_box(x)),
        Type::Sensitive(x) => Type::Sensitive(Box::new(normalize(x))),
        Type::Callable(c) => Type::Callable(CallableType {
            params: norm_box(&c.params),
            block: norm_box(&c.block),
            return_type: norm_box(&c.return_type),
        }),
        Type::Optional(None) => t.clone(),
        Type::Optional(Some(x)) => {
            let n = normalize(x);
            match n {
                Type::NotUndef(inner) => normalize(&Type::Optional(inner)),
                n if is_assignable(&n, &Type::Undef) => n,
                n => Type::Optional(Some(Box::new(n))),
            }
        }
        Type::NotUndef(None) => t.clone(),
        Type::NotUndef(Some(x)) => {
            let n = normalize(x);
            match n {
                Type::Optional(inner) => normalize(&Type::NotUndef(inner)),
                n if !is_assignable(&n, &Type::Undef) => n,
                n => Type::NotUndef(Some(Box::new(n))),
            }
        }
        Type::Variant(types) => normalize_variant(types),
        other => other.clone(),
    }
}

fn normalize_variant(types: &[Type]) -> Type {
    if types.is_empty() {
        return Type::Variant(Vec::new());
    }
    let types: Vec<Type> = types.iter().map(normalize).collect();
    if types.len() == 1 {
        return types
            .into_iter()
            .next()
            .unwrap_or(Type::Variant(Vec::new()));
    }
    if types
        .iter()
        .any(|t| matches!(t, Type::Undef | Type::Optional(_)))
    {
        let inner: Vec<Type> = types
            .into_iter()
            .filter(|t| !matches!(t, Type::Undef))
            .map(|t| match t {
                Type::Optional(Some(x)) => *x,
                Type::Optional(None) => Type::Any,
                o => o,
            })
            .collect();
        return normalize(&Type::Optional(Some(Box::new(variant_maybe(inner)))));
    }
    let mut types = flatten(types);
    types = swap_not_undefs(types);
    types = merge_enums(types);
    types = merge_patterns(types);
    types = merge_semvers(types);
    types = merge_ranges(types);
    if types.len() == 1 {
        types.remove(0)
    } else {
        variant_maybe(types)
    }
}

fn flatten(types: Vec<Type>) -> Vec<Type> {
    let mut out = Vec::new();
    for t in types {
        match t {
            Type::Variant(inner) => out.extend(inner),
            o => out.push(o),
        }
    }
    out
}

fn swap_not_undefs(types: Vec<Type>) -> Vec<Type> {
    let (nu, mut others): (Vec<Type>, Vec<Type>) = types
        .into_iter()
        .partition(|t| matches!(t, Type::NotUndef(_)));
    if nu.len() > 1 {
        let inner: Vec<Type> = nu
            .into_iter()
            .map(|t| match t {
                Type::NotUndef(Some(x)) => *x,
                _ => Type::Any,
            })
            .collect();
        others.push(Type::NotUndef(Some(Box::new(normalize(&variant_maybe(
            inner,
        ))))));
        others
    } else {
        others.extend(nu);
        others
    }
}

fn merge_enums(types: Vec<Type>) -> Vec<Type> {
    let is_cs = |t: &Type| match t {
        Type::Enum(e) => !e.values.is_empty() && !e.case_insensitive,
        Type::String(StringParam::Value(_)) => true,
        _ => false,
    };
    let (enums, mut others): (Vec<Type>, Vec<Type>) = types.into_iter().partition(is_cs);
    let mut types = if enums.len() > 1 {
        let mut values = Vec::new();
        for t in enums {
            match t {
                Type::Enum(e) => values.extend(e.values),
                Type::String(StringParam::Value(v)) => values.push(v),
                _ => {}
            }
        }
        others.push(Type::Enum(EnumType::new(values, false)));
        others
    } else {
        others.extend(enums);
        others
    };
    let is_ci = |t: &Type| matches!(t, Type::Enum(e) if !e.values.is_empty() && e.case_insensitive);
    if types.iter().filter(|t| is_ci(t)).count() > 1 {
        let (enums, mut others): (Vec<Type>, Vec<Type>) = types.into_iter().partition(is_ci);
        let mut values = Vec::new();
        for t in enums {
            if let Type::Enum(e) = t {
                values.extend(e.values.into_iter().map(|v| v.to_lowercase()));
            }
        }
        others.push(Type::Enum(EnumType::new(values, true)));
        types = others;
    }
    types
}

fn merge_patterns(types: Vec<Type>) -> Vec<Type> {
    let (pats, mut others): (Vec<Type>, Vec<Type>) = types
        .into_iter()
        .partition(|t| matches!(t, Type::Pattern(_)));
    if pats.len() > 1 {
        let mut all: Vec<String> = Vec::new();
        for p in pats {
            if let Type::Pattern(ps) = p {
                for x in ps {
                    if !all.contains(&x) {
                        all.push(x);
                    }
                }
            }
        }
        others.push(Type::Pattern(all));
        others
    } else {
        others.extend(pats);
        others
    }
}

/// Merges overlapping/adjacent version ranges as `SemVer[...]` construction does.
pub fn merge_version_ranges(mut ranges: Vec<VersionRange>) -> Vec<VersionRange> {
    if ranges.len() < 2 {
        return ranges;
    }
    let mut result = Vec::new();
    while let Some(x) = ranges.pop() {
        let mut unmerged = Vec::new();
        let mut memo = x;
        for y in ranges.drain(..) {
            match VersionRange::merge(&memo, &y) {
                Some(m) => memo = m,
                None => unmerged.push(y),
            }
        }
        result.push(memo);
        ranges = unmerged;
    }
    result.reverse();
    result
}

fn merge_semvers(types: Vec<Type>) -> Vec<Type> {
    let (svs, others): (Vec<Type>, Vec<Type>) = types
        .into_iter()
        .partition(|t| matches!(t, Type::SemVer(_)));
    if svs.len() > 1 {
        let mut ranges = Vec::new();
        for t in svs {
            if let Type::SemVer(r) = t {
                ranges.extend(r);
            }
        }
        let mut out = vec![Type::SemVer(merge_version_ranges(ranges))];
        out.extend(others);
        out
    } else {
        let mut others = others;
        others.extend(svs);
        others
    }
}

fn merge_int(a: &IntRange, b: &IntRange) -> Option<IntRange> {
    let overlap = !(a.hi() < b.lo() || b.hi() < a.lo());
    let adjacent = a.hi().checked_add(1) == Some(b.lo()) || b.hi().checked_add(1) == Some(a.lo());
    (overlap || adjacent).then(|| {
        IntRange::new(
            if a.lo() <= b.lo() { a.from } else { b.from },
            if a.hi() >= b.hi() { a.to } else { b.to },
        )
    })
}

fn merge_float(a: &FloatRange, b: &FloatRange) -> Option<FloatRange> {
    (!(a.to < b.from || b.to < a.from)).then(|| FloatRange {
        from: a.from.min(b.from),
        to: a.to.max(b.to),
    })
}

fn merge_time(a: &TimeRange, b: &TimeRange) -> Option<TimeRange> {
    (!(a.hi() < b.lo() || b.hi() < a.lo())).then(|| TimeRange {
        from: if a.lo() <= b.lo() { a.from } else { b.from },
        to: if a.hi() >= b.hi() { a.to } else { b.to },
    })
}

/// Puppet's `merge_ranges`: repeatedly folds ranges that merge into the last one.
fn fold_ranges<R: Clone>(mut ranges: Vec<R>, merge: impl Fn(&R, &R) -> Option<R>) -> Vec<R> {
    let mut result = Vec::new();
    while let Some(x) = ranges.pop() {
        let mut memo = x;
        let mut unmerged = Vec::new();
        for y in ranges.drain(..) {
            match merge(&memo, &y) {
                Some(m) => memo = m,
                None => unmerged.push(y),
            }
        }
        result.push(memo);
        ranges = unmerged;
    }
    result
}

/// Merges one kind of numeric range; merged ranges go first, as in Puppet.
fn merge_kind<R: Clone>(
    types: Vec<Type>,
    get: impl Fn(&Type) -> Option<R>,
    make: impl Fn(R) -> Type,
    merge: impl Fn(&R, &R) -> Option<R>,
) -> Vec<Type> {
    let count = types.iter().filter(|t| get(t).is_some()).count();
    if count < 2 {
        return types;
    }
    let (ranges, others): (Vec<Type>, Vec<Type>) =
        types.into_iter().partition(|t| get(t).is_some());
    let ranges: Vec<R> = ranges.iter().filter_map(&get).collect();
    let mut out: Vec<Type> = fold_ranges(ranges, merge).into_iter().map(make).collect();
    out.extend(others);
    out
}

fn merge_ranges(types: Vec<Type>) -> Vec<Type> {
    let types = merge_kind(
        types,
        |t| {
            if let Type::Integer(r) = t {
                Some(*r)
            } else {
                None
            }
        },
        Type::Integer,
        merge_int,
    );
    let types = merge_kind(
        types,
        |t| {
            if let Type::Float(r) = t {
                Some(*r)
            } else {
                None
            }
        },
        Type::Float,
        merge_float,
    );
    let types = merge_kind(
        types,
        |t| {
            if let Type::Timespan(r) = t {
                Some(*r)
            } else {
                None
            }
        },
        Type::Timespan,
        merge_time,
    );
    merge_kind(
        types,
        |t| {
            if let Type::Timestamp(r) = t {
                Some(*r)
            } else {
                None
            }
        },
        Type::Timestamp,
        merge_time,
    )
}
