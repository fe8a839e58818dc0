//! Assignability (`T >= U`), instance checks and type equality, following
//! Puppet's `assignable?`/`instance?` rules type by type.

use std::cell::{Cell, RefCell};

use super::alias::{expand, is_alias_like, resolve_top, AliasResolver, NoAliases};
use super::infer::infer;
use crate::model::{CallableType, EnumType, IntRange, StringParam, StructElement, Type, Value};
use crate::regexp::Regexp;
use crate::semver::VersionRange;

const MAX_DEPTH: u32 = 200;

/// Type operations bound to an alias resolver, with recursion guards for
/// recursive aliases.
pub struct TypeSystem<'a> {
    aliases: &'a dyn AliasResolver,
    in_progress: RefCell<Vec<(String, String)>>,
    depth: Cell<u32>,
}

/// `t` accepts every value of `o` (Puppet's `assignable?`), without user aliases.
pub fn is_assignable(t: &Type, o: &Type) -> bool {
    TypeSystem::new(&NoAliases).assignable(t, o)
}

/// `v` is an instance of `t`, without user aliases.
pub fn is_instance(t: &Type, v: &Value) -> bool {
    TypeSystem::new(&NoAliases).instance(t, v)
}

/// Puppet's type `==`: identical, or mutually assignable.
pub fn types_equal(a: &Type, b: &Type) -> bool {
    TypeSystem::new(&NoAliases).equal(a, b)
}

fn pattern_matches(p: &str, s: &str) -> bool {
    Regexp::new(p).is_match(s).unwrap_or(false)
}

fn char_len(s: &str) -> i64 {
    s.chars().count() as i64
}

impl<'a> TypeSystem<'a> {
    /// Binds operations to a resolver.
    pub fn new(aliases: &'a dyn AliasResolver) -> Self {
        TypeSystem {
            aliases,
            in_progress: RefCell::new(Vec::new()),
            depth: Cell::new(0),
        }
    }

    /// The resolver in use.
    pub fn resolver(&self) -> &'a dyn AliasResolver {
        self.aliases
    }

    fn guarded<F: FnOnce(&Self) -> bool>(
        &self,
        key: (String, String),
        on_cycle: bool,
        f: F,
    ) -> bool {
        if self.in_progress.borrow().contains(&key) {
            return on_cycle;
        }
        if self.depth.get() > MAX_DEPTH {
            return false;
        }
        self.in_progress.borrow_mut().push(key);
        self.depth.set(self.depth.get() + 1);
        let r = f(self);
        self.depth.set(self.depth.get() - 1);
        self.in_progress.borrow_mut().pop();
        r
    }

    /// Puppet's `==` on types.
    pub fn equal(&self, a: &Type, b: &Type) -> bool {
        a == b || (self.assignable(a, b) && self.assignable(b, a))
    }

    /// `t` accepts every value of `o`.
    pub fn assignable(&self, t: &Type, o: &Type) -> bool {
        if matches!(t, Type::Unit) {
            return true;
        }
        if is_alias_like(t) {
            if t == o {
                return true;
            }
            let Some(resolved) = expand(t, self.aliases) else {
                return false;
            };
            let key = (format!("L:{}", t), o.to_string());
            return self.guarded(key, true, |s| s.assignable(&resolved, o));
        }
        match o {
            Type::Unit => true,
            _ if is_alias_like(o) => {
                let Some(resolved) = expand(o, self.aliases) else {
                    return false;
                };
                let key = (format!("R:{}", t), o.to_string());
                self.guarded(key, true, |s| s.assignable(t, &resolved))
            }
            Type::Variant(types) => {
                if matches!(t, Type::Any) {
                    return true;
                }
                if let Type::Variant(ts) = t {
                    if ts.is_empty() {
                        return true;
                    }
                }
                if matches!(t, Type::NotUndef(_)) && types.is_empty() {
                    return self.assignable_inner(t, o);
                }
                !types.is_empty() && types.iter().all(|vt| self.assignable(t, vt))
            }
            Type::Optional(ot) => {
                self.assignable(t, &Type::Undef)
                    && ot.as_ref().is_none_or(|ot| self.assignable(t, ot))
            }
            Type::NotUndef(Some(ot)) if !self.assignable(ot, &Type::Undef) => {
                self.assignable(t, ot)
            }
            _ => self.assignable_inner(t, o),
        }
    }

    fn size_of(&self, s: &Option<IntRange>) -> IntRange {
        s.unwrap_or(IntRange::DEFAULT_SIZE)
    }

    fn assignable_inner(&self, t: &Type, o: &Type) -> bool {
        use Type as T;
        match t {
            T::Any | T::Unit => true,
            T::Undef => matches!(o, T::Undef),
            T::Default => matches!(o, T::Default),
            T::NotUndef(tt) => {
                !self.assignable(o, &T::Undef)
                    && tt.as_ref().is_none_or(|tt| self.assignable(tt, o))
            }
            T::Type(tt) => match o {
                T::Type(ot) => match (tt, ot) {
                    (None, _) => true,
                    (Some(_), None) => false,
                    (Some(tt), Some(ot)) => self.assignable(tt, ot),
                },
                _ => false,
            },
            T::Scalar => {
                is_scalar_data(o)
                    || matches!(
                        o,
                        T::Scalar
                            | T::Regexp(_)
                            | T::SemVer(_)
                            | T::SemVerRange
                            | T::Timespan(_)
                            | T::Timestamp(_)
                    )
            }
            T::ScalarData => is_scalar_data(o),
            T::Numeric => matches!(o, T::Numeric | T::Integer(_) | T::Float(_)),
            T::Integer(r) => match o {
                T::Integer(or) => r.includes(or),
                _ => false,
            },
            T::Float(r) => match o {
                T::Float(or) => r.from <= or.from && r.to >= or.to,
                _ => false,
            },
            T::Enum(e) => self.enum_assignable(e, o),
            T::String(param) => self.string_assignable(param, o),
            T::Regexp(p) => match o {
                T::Regexp(op) => p.is_none() || p == op,
                _ => false,
            },
            T::Pattern(ps) => self.pattern_assignable(ps, o),
            T::Boolean(b) => match o {
                T::Boolean(ob) => b.is_none() || b == ob,
                _ => false,
            },
            T::SemVer(ranges) => match o {
                T::SemVer(oranges) => {
                    ranges.is_empty()
                        || (!oranges.is_empty()
                            && oranges
                                .iter()
                                .all(|or| ranges.iter().any(|r| VersionRange::covered_by(or, r))))
                }
                _ => false,
            },
            T::SemVerRange => matches!(o, T::SemVerRange),
            T::Timespan(r) => match o {
                T::Timespan(or) => r.lo() <= or.lo() && r.hi() >= or.hi(),
                _ => false,
            },
            T::Timestamp(r) => match o {
                T::Timestamp(or) => r.lo() <= or.lo() && r.hi() >= or.hi(),
                _ => false,
            },
            T::Collection(size) => {
                let s = self.size_of(size);
                match o {
                    T::Collection(os) | T::Array(_, os) | T::Hash(_, _, os) => {
                        s.includes(&self.size_of(os))
                    }
                    T::Tuple(types, os) => {
                        s.includes(&os.unwrap_or(IntRange::exact(types.len() as i64)))
                    }
                    T::Struct(elems) => s.includes(&IntRange::exact(elems.len() as i64)),
                    _ => false,
                }
            }
            T::Array(elem, size) => match o {
                T::Tuple(otypes, os) => {
                    let s = self.size_of(size);
                    let so = os.unwrap_or(IntRange::exact(otypes.len() as i64));
                    s.includes(&so) && otypes.iter().all(|ot| self.assignable(elem, ot))
                }
                T::Array(oe, os) => {
                    self.size_of(size).includes(&self.size_of(os)) && self.assignable(elem, oe)
                }
                _ => false,
            },
            T::Hash(k, v, size) => self.hash_assignable(k, v, size, o),
            T::Struct(elems) => self.struct_assignable(elems, o),
            T::Tuple(types, size) => self.tuple_assignable(t, types, size, o),
            T::Callable(c) => self.callable_assignable(c, o),
            T::Iterable(tt) => {
                let open = tt.as_ref().is_none_or(|tt| self.assignable(tt, &T::Any));
                if open {
                    self.is_iterable(o)
                } else {
                    match self.iterable_element_type(o) {
                        Some(Some(et)) => tt.as_ref().is_some_and(|tt| self.assignable(tt, &et)),
                        _ => false,
                    }
                }
            }
            T::Iterator(tt) => match o {
                T::Iterator(ot) => match tt {
                    None => true,
                    Some(tt) => self.assignable(tt, ot.as_deref().unwrap_or(&T::Any)),
                },
                _ => false,
            },
            T::Sensitive(tt) => match o {
                T::Sensitive(ot) => self.assignable(tt, ot),
                _ => false,
            },
            T::Runtime(rt, name) => match o {
                T::Runtime(ort, oname) => {
                    (rt.is_none() || rt == ort) && (name.is_none() || name == oname)
                }
                _ => false,
            },
            T::CatalogEntry => matches!(o, T::CatalogEntry | T::Resource(..) | T::Class(_)),
            T::Class(n) => match o {
                T::Class(on) => n.is_none() || n == on,
                _ => false,
            },
            T::Resource(n, title) => match o {
                T::Resource(on, otitle) => match n {
                    None => true,
                    Some(n) => {
                        on.as_ref()
                            .is_some_and(|on| on.to_lowercase() == n.to_lowercase())
                            && (title.is_none() || title == otitle)
                    }
                },
                _ => false,
            },
            T::Optional(tt) => match o {
                T::Undef => true,
                _ => match tt {
                    None => true,
                    Some(tt) => match o {
                        T::Optional(ot) => ot.as_ref().is_some_and(|ot| self.assignable(tt, ot)),
                        _ => self.assignable(tt, o),
                    },
                },
            },
            T::Variant(types) => types.iter().any(|vt| self.assignable(vt, o)),
            T::Init(tt, _) => match o {
                T::Init(ot, _) => match (tt, ot) {
                    (None, _) => true,
                    (Some(tt), Some(ot)) => self.assignable(tt, ot),
                    (Some(_), None) => false,
                },
                _ => match tt {
                    None => self.assignable(&T::RichData, o),
                    Some(tt) => self.assignable(tt, o),
                },
            },
            T::Uri(p) => match o {
                T::Uri(op) => p.is_none() || p == op,
                _ => false,
            },
            T::Binary => matches!(o, T::Binary),
            T::Object(ot) => match o {
                T::Object(oo) => {
                    ot.name.is_none()
                        || ot.name == oo.name
                        || (ot.name.is_some() && ot.name == oo.parent)
                }
                _ => false,
            },
            T::TypeSet(_) => matches!(o, T::TypeSet(_)),
            T::TypeReference(_) => t == o,
            T::Data | T::RichData | T::Alias(_) => false,
        }
    }

    /// Whether a type is assignable to `Enum[...]`.
    fn enum_assignable(&self, e: &EnumType, o: &Type) -> bool {
        use Type as T;
        if let T::Enum(oe) = o {
            if oe == e {
                return true;
            }
        }
        if e.values.is_empty() && matches!(o, T::String(_) | T::Enum(_) | T::Pattern(_)) {
            return true;
        }
        let inst = |s: &str| {
            if e.case_insensitive {
                e.values
                    .iter()
                    .any(|v| v.to_lowercase() == s.to_lowercase())
            } else {
                e.values.iter().any(|v| v == s)
            }
        };
        match o {
            T::String(StringParam::Value(v)) => inst(v),
            T::Enum(oe) => {
                !oe.values.is_empty()
                    && (e.case_insensitive || !oe.case_insensitive)
                    && oe.values.iter().all(|s| inst(s))
            }
            _ => false,
        }
    }

    /// Whether a type is assignable to `String[...]`.
    fn string_assignable(&self, param: &StringParam, o: &Type) -> bool {
        use Type as T;
        match param {
            StringParam::Size(r) => match o {
                T::String(op) => {
                    let os = match op {
                        StringParam::Size(s) => *s,
                        StringParam::Value(v) => IntRange::exact(char_len(v)),
                        StringParam::Any => IntRange::DEFAULT_SIZE,
                    };
                    r.includes(&os)
                }
                T::Enum(oe) => {
                    if oe.values.is_empty() {
                        r.includes(&IntRange::DEFAULT_SIZE)
                    } else {
                        let lens: Vec<i64> = oe.values.iter().map(|s| char_len(s)).collect();
                        let min = lens.iter().copied().min().unwrap_or(0);
                        let max = lens.iter().copied().max().unwrap_or(0);
                        r.lo() <= min as i128 && r.hi() >= max as i128
                    }
                }
                T::Pattern(_) => r.includes(&IntRange::DEFAULT_SIZE),
                _ => false,
            },
            StringParam::Any => matches!(o, T::String(_) | T::Enum(_) | T::Pattern(_)),
            StringParam::Value(v) => match o {
                T::String(op) => *op == StringParam::Value(v.clone()),
                T::Enum(oe) => oe.values.len() == 1 && !oe.case_insensitive,
                _ => false,
            },
        }
    }

    /// Whether a type is assignable to `Pattern[...]`.
    fn pattern_assignable(&self, ps: &[String], o: &Type) -> bool {
        use Type as T;
        if let T::Pattern(ops) = o {
            if ops == ps || ps.is_empty() {
                return true;
            }
        }
        match o {
            T::String(StringParam::Value(v)) => {
                ps.is_empty() || ps.iter().any(|p| pattern_matches(p, v))
            }
            T::String(_) => ps.is_empty(),
            T::Enum(oe) => {
                if oe.values.is_empty() {
                    ps.is_empty()
                } else {
                    ps.is_empty()
                        || oe
                            .values
                            .iter()
                            .all(|s| ps.iter().any(|p| pattern_matches(p, s)))
                }
            }
            _ => false,
        }
    }

    /// Whether a type is assignable to `Hash[...]`.
    fn hash_assignable(&self, k: &Type, v: &Type, size: &Option<IntRange>, o: &Type) -> bool {
        use Type as T;
        match o {
            T::Hash(ok, ov, os) => {
                let o_empty = **ok == T::Unit && **ov == T::Unit && *os == Some(IntRange::exact(0));
                if size.is_none_or(|s| s.from == Some(0)) && o_empty {
                    return true;
                }
                self.assignable(k, ok)
                    && self.assignable(v, ov)
                    && self.size_of(size).includes(&self.size_of(os))
            }
            T::Struct(elems) => {
                self.size_of(size).contains(elems.len() as i128)
                    && elems.iter().all(|e| {
                        self.instance(k, &Value::string(e.name())) && self.assignable(v, &e.value)
                    })
            }
            _ => false,
        }
    }

    /// Whether a type is assignable to `Callable[...]`.
    fn callable_assignable(&self, c: &CallableType, o: &Type) -> bool {
        use Type as T;
        match o {
            T::Callable(oc) => {
                if let Some(rt) = &c.return_type {
                    let ort = oc.return_type.as_deref().unwrap_or(&T::Any);
                    if !self.assignable(rt, ort) {
                        return false;
                    }
                }
                let Some(params) = &c.params else { return true };
                let Some(oparams) = &oc.params else {
                    return false;
                };
                if !self.assignable(oparams, params) {
                    return false;
                }
                let this_block = c.block.as_deref().unwrap_or(&T::Undef);
                let that_block = oc.block.as_deref().unwrap_or(&T::Undef);
                self.assignable(that_block, this_block)
            }
            _ => false,
        }
    }

    fn struct_assignable(&self, elems: &[StructElement], o: &Type) -> bool {
        match o {
            Type::Struct(oelems) => {
                let mut matched = 0;
                let all =
                    elems
                        .iter()
                        .all(|e1| match oelems.iter().find(|e2| e2.name() == e1.name()) {
                            None => self.assignable(&e1.key, &Type::Undef),
                            Some(e2) => {
                                matched += 1;
                                self.assignable(&e1.key, &e2.key)
                                    && self.assignable(&e1.value, &e2.value)
                            }
                        });
                all && matched == oelems.len()
            }
            Type::Hash(ok, ov, os) => {
                let mut required = 0i64;
                let ok_all = elems.iter().all(|e| {
                    if self.assignable(&e.key, &Type::Undef) {
                        true
                    } else {
                        required += 1;
                        self.assignable(&e.value, ov)
                            && self.assignable(&super::generalize(&e.key), ok)
                    }
                });
                ok_all
                    && IntRange::new(Some(required), Some(elems.len() as i64))
                        .includes(&self.size_of(os))
            }
            _ => false,
        }
    }

    fn tuple_assignable(
        &self,
        t: &Type,
        types: &[Type],
        size: &Option<IntRange>,
        o: &Type,
    ) -> bool {
        if t == o {
            return true;
        }
        let size_s = size.unwrap_or_else(|| t.size_range());
        let at = |i: usize| types.get(i).or(types.last());
        match o {
            Type::Tuple(otypes, os) => {
                let size_o = os.unwrap_or_else(|| o.size_range());
                if !size_s.includes(&size_o) {
                    return false;
                }
                if !types.is_empty() {
                    if otypes.is_empty() {
                        return size_s.from == Some(0);
                    }
                    for (i, ot) in otypes.iter().enumerate() {
                        if !at(i).is_some_and(|st| self.assignable(st, ot)) {
                            return false;
                        }
                    }
                }
                true
            }
            Type::Array(oe, os) => {
                let size_o = self.size_of(os);
                if !size_s.includes(&size_o) {
                    return false;
                }
                if !types.is_empty() {
                    let n = match size_o.to {
                        Some(to) => (to.max(0) as usize).min(types.len()),
                        None => types.len(),
                    };
                    for i in 0..n {
                        if !at(i).is_some_and(|st| self.assignable(st, oe)) {
                            return false;
                        }
                    }
                }
                true
            }
            _ => false,
        }
    }

    /// Puppet's `iterable?` on a type.
    pub fn is_iterable(&self, t: &Type) -> bool {
        match t {
            Type::String(_)
            | Type::Enum(_)
            | Type::Integer(_)
            | Type::Collection(_)
            | Type::Array(..)
            | Type::Hash(..)
            | Type::Tuple(..)
            | Type::Struct(_)
            | Type::Iterable(_)
            | Type::Iterator(_) => true,
            Type::Type(Some(inner)) => {
                match super::normalize::normalize(&resolve_top(inner, self.aliases)) {
                    Type::Enum(_) => true,
                    Type::Integer(r) => r.from.is_some() && r.to.is_some(),
                    _ => false,
                }
            }
            t if is_alias_like(t) => {
                let Some(r) = expand(t, self.aliases) else {
                    return false;
                };
                self.guarded((format!("I:{}", t), String::new()), false, |s| {
                    s.is_iterable(&r)
                })
            }
            _ => false,
        }
    }

    /// The element type an iterable type yields: `None` when not iterable,
    /// `Some(None)` when iterable with an unknown element type.
    pub fn iterable_element_type(&self, t: &Type) -> Option<Option<Type>> {
        let kv = |k: Type, v: Type| Type::Tuple(vec![k, v], Some(IntRange::exact(2)));
        match t {
            Type::String(_) | Type::Enum(_) => {
                Some(Some(Type::String(StringParam::Size(IntRange::exact(1)))))
            }
            Type::Integer(_) => Some(Some(Type::integer())),
            Type::Array(e, _) => Some(if **e == Type::Any {
                None
            } else {
                Some((**e).clone())
            }),
            Type::Hash(k, v, _) => Some(Some(if **k == Type::Any && **v == Type::Any {
                kv(Type::Unit, Type::Unit)
            } else {
                kv((**k).clone(), (**v).clone())
            })),
            Type::Tuple(types, _) => Some(Some(super::normalize::variant_maybe(types.clone()))),
            Type::Struct(elems) => Some(Some(if elems.is_empty() {
                kv(Type::Unit, Type::Unit)
            } else {
                kv(
                    super::normalize::variant_maybe(elems.iter().map(|e| e.key.clone()).collect()),
                    super::normalize::variant_maybe(
                        elems.iter().map(|e| e.value.clone()).collect(),
                    ),
                )
            })),
            Type::Iterable(e) | Type::Iterator(e) => Some(e.as_deref().cloned()),
            Type::Type(Some(inner)) => match inner.as_ref() {
                Type::Enum(_) => Some(Some((**inner).clone())),
                Type::Integer(r) if r.from.is_some() && r.to.is_some() => {
                    Some(Some((**inner).clone()))
                }
                _ => None,
            },
            t if is_alias_like(t) => {
                let r = expand(t, self.aliases)?;
                let mut out = None;
                self.guarded((format!("E:{}", t), String::new()), false, |s| {
                    out = s.iterable_element_type(&r);
                    true
                });
                out
            }
            _ => None,
        }
    }

    /// `v` is an instance of `t`.
    pub fn instance(&self, t: &Type, v: &Value) -> bool {
        use Type as T;
        if let Value::Unknown(ut) = v {
            return self.assignable(t, ut);
        }
        match t {
            T::Any | T::Unit => true,
            T::Undef => matches!(v, Value::Undef),
            T::Default => matches!(v, Value::Default),
            T::NotUndef(tt) => {
                !matches!(v, Value::Undef) && tt.as_ref().is_none_or(|tt| self.instance(tt, v))
            }
            T::Type(tt) => match v {
                Value::Type(vt) => tt.as_ref().is_none_or(|tt| self.assignable(tt, vt)),
                _ => false,
            },
            T::Scalar => match v {
                Value::String(_)
                | Value::Integer(_)
                | Value::Float(_)
                | Value::Boolean(_)
                | Value::Regexp(_) => true,
                Value::Array(_) | Value::Hash(_) | Value::Type(_) | Value::Undef => false,
                other => self.assignable(t, &infer(other)),
            },
            T::ScalarData => matches!(
                v,
                Value::String(_) | Value::Integer(_) | Value::Float(_) | Value::Boolean(_)
            ),
            T::Numeric => matches!(v, Value::Integer(_) | Value::Float(_)),
            T::Integer(r) => matches!(v, Value::Integer(i) if r.contains(*i as i128)),
            T::Float(r) => matches!(v, Value::Float(f) if *f >= r.from && *f <= r.to),
            T::String(p) => match v {
                Value::String(s) => match p {
                    StringParam::Any => true,
                    StringParam::Size(r) => r.contains(char_len(s) as i128),
                    StringParam::Value(x) => x == s,
                },
                _ => false,
            },
            T::Enum(e) => match v {
                Value::String(s) => {
                    if e.case_insensitive {
                        e.values
                            .iter()
                            .any(|x| x.to_lowercase() == s.to_lowercase())
                    } else {
                        e.values.iter().any(|x| x == s)
                    }
                }
                _ => false,
            },
            T::Pattern(ps) => match v {
                Value::String(s) => ps.is_empty() || ps.iter().any(|p| pattern_matches(p, s)),
                _ => false,
            },
            T::Boolean(b) => matches!(v, Value::Boolean(x) if b.is_none_or(|b| b == *x)),
            T::Regexp(p) => match v {
                Value::Regexp(r) => p.as_ref().is_none_or(|p| p == r.source()),
                _ => false,
            },
            T::SemVer(ranges) => match v {
                Value::SemVer(ver) => ranges.is_empty() || ranges.iter().any(|r| r.includes(ver)),
                _ => false,
            },
            T::SemVerRange => matches!(v, Value::SemVerRange(_)),
            T::Timespan(r) => {
                matches!(v, Value::Timespan(x) if r.lo() <= x.nanos && x.nanos <= r.hi())
            }
            T::Timestamp(r) => {
                matches!(v, Value::Timestamp(x) if r.lo() <= x.nanos && x.nanos <= r.hi())
            }
            T::Collection(size) => match v {
                Value::Array(a) => self.size_of(size).contains(a.len() as i128),
                Value::Hash(h) => self.size_of(size).contains(h.len() as i128),
                _ => false,
            },
            T::Array(e, size) => match v {
                Value::Array(a) => {
                    a.iter().all(|x| self.instance(e, x))
                        && size.is_none_or(|s| s.contains(a.len() as i128))
                }
                _ => false,
            },
            T::Tuple(types, size) => match v {
                Value::Array(a) => {
                    let size_ok = match size {
                        Some(s) => s.contains(a.len() as i128),
                        None => types.is_empty() || types.len() == a.len(),
                    };
                    size_ok
                        && (types.is_empty()
                            || a.iter().enumerate().all(|(i, x)| {
                                types
                                    .get(i)
                                    .or(types.last())
                                    .is_some_and(|tt| self.instance(tt, x))
                            }))
                }
                _ => false,
            },
            T::Hash(k, vt, size) => match v {
                Value::Hash(h) => {
                    h.keys().all(|x| self.instance(k, x))
                        && h.values().all(|x| self.instance(vt, x))
                        && size.is_none_or(|s| s.contains(h.len() as i128))
                }
                _ => false,
            },
            T::Struct(elems) => match v {
                Value::Hash(h) => {
                    let mut matched = 0;
                    let all = elems.iter().all(|e| {
                        let key = Value::string(e.name());
                        match h.get(&key) {
                            None => self.assignable(&e.key, &T::Undef),
                            Some(x) => {
                                matched += 1;
                                self.instance(&e.value, x)
                            }
                        }
                    });
                    all && matched == h.len()
                }
                _ => false,
            },
            T::Variant(types) => types.iter().any(|tt| self.instance(tt, v)),
            T::Optional(tt) => {
                matches!(v, Value::Undef) || tt.as_ref().is_some_and(|tt| self.instance(tt, v))
            }
            T::Iterable(tt) => {
                let open = tt.as_ref().is_none_or(|tt| self.assignable(tt, &T::Any));
                if open {
                    match v {
                        Value::Iterator(_)
                        | Value::String(_)
                        | Value::Hash(_)
                        | Value::Array(_) => true,
                        Value::Integer(i) => *i >= 0,
                        Value::Type(vt) => self.is_iterable(&T::Type(Some(Box::new(vt.clone())))),
                        _ => false,
                    }
                } else {
                    self.assignable(t, &infer(v))
                }
            }
            T::Iterator(tt) => match v {
                Value::Iterator(it) => tt
                    .as_ref()
                    .is_none_or(|tt| self.assignable(tt, &it.element_type)),
                _ => false,
            },
            T::Callable(_) => false,
            T::Sensitive(tt) => match v {
                Value::Sensitive(inner) => self.instance(tt, inner),
                _ => false,
            },
            T::Runtime(..) | T::CatalogEntry | T::Resource(..) | T::Class(_) => false,
            T::Init(tt, args) => match tt {
                None => self.instance(&T::RichData, v),
                Some(tt) => self.instance(tt, v) || (args.is_empty() && init_convertible(tt, v)),
            },
            // each given part must match the URI's part as `=~` would
            // (strings compare as `==`, regexps match, types test instances)
            T::Uri(p) => match (v, p.as_deref()) {
                (Value::Uri(_), None) => true,
                (Value::Uri(u), Some(Value::Hash(params))) => {
                    let parts = super::infer::uri_parameters(u);
                    params.iter().all(|(k, want)| {
                        let mut got = parts.get(k).cloned().unwrap_or(Value::Undef);
                        // the port is an Integer, the scheme's default if absent
                        if matches!(k, Value::String(n) if n == "port") {
                            got = match got {
                                Value::String(p) => p.parse().map_or(Value::Undef, Value::Integer),
                                _ => match parts.get(&Value::string("scheme")) {
                                    Some(Value::String(sc)) => super::infer::uri_default_port(sc)
                                        .map_or(Value::Undef, Value::Integer),
                                    _ => Value::Undef,
                                },
                            };
                        }
                        match want {
                            Value::Regexp(r) => match &got {
                                Value::String(s) => r.is_match(s).unwrap_or(false),
                                _ => false,
                            },
                            Value::Type(t) => self.instance(t, &got),
                            other => crate::values::equality::equals(&got, other),
                        }
                    })
                }
                _ => false,
            },
            T::Binary => matches!(v, Value::Binary(_)),
            T::Object(o) => match v {
                Value::Object(ov) => o.name.as_ref().is_none_or(|n| *n == ov.type_name),
                _ => false,
            },
            T::TypeSet(_) | T::TypeReference(_) => false,
            T::Data | T::RichData | T::Alias(_) => {
                let Some(r) = expand(t, self.aliases) else {
                    return false;
                };
                let key = (format!("V:{}", t), format!("{:p}", v as *const Value));
                self.guarded(key, false, |s| s.instance(&r, v))
            }
        }
    }

    /// Instance check for possibly-unknown values: `Some(answer)` when decidable,
    /// `None` when the value is unknown and its type neither fits nor excludes `t`.
    pub fn instance_of(&self, t: &Type, v: &Value) -> Option<bool> {
        match v {
            Value::Unknown(ut) => {
                if self.assignable(t, ut) {
                    Some(true)
                } else {
                    None
                }
            }
            _ if v.is_unknown() => None,
            // A `false` may come from a pattern the regex engine cannot
            // evaluate (Ruby-only constructs) or an alias the resolver
            // does not know: then the answer is unknown.
            _ => match self.instance(t, v) {
                true => Some(true),
                false if self.undecidable(t, &mut Vec::new()) => None,
                false => Some(false),
            },
        }
    }

    /// Whether a `false` from [`TypeSystem::instance`] may be wrong: the
    /// type holds a `Pattern` whose regex cannot be evaluated here, or an
    /// alias this resolver does not know (from a module that is not in the
    /// workspace). Aliases are followed once each (`seen`), so recursive
    /// ones end.
    fn undecidable(&self, t: &Type, seen: &mut Vec<String>) -> bool {
        use Type as T;
        let inner = |t: &Option<Box<Type>>, seen: &mut Vec<String>| {
            t.as_deref().is_some_and(|t| self.undecidable(t, seen))
        };
        match t {
            T::Pattern(ps) => ps.iter().any(|p| Regexp::new(p).is_match("").is_err()),
            T::Alias(name) => {
                let key = name.to_ascii_lowercase();
                if seen.contains(&key) {
                    return false;
                }
                seen.push(key);
                self.aliases
                    .resolve(name)
                    .is_none_or(|def| self.undecidable(&def, seen))
            }
            T::Variant(ts) | T::Tuple(ts, _) => ts.iter().any(|t| self.undecidable(t, seen)),
            T::Array(t, _) | T::Sensitive(t) => self.undecidable(t, seen),
            T::Hash(k, v, _) => self.undecidable(k, seen) || self.undecidable(v, seen),
            T::Struct(elements) => elements
                .iter()
                .any(|e| self.undecidable(&e.key, seen) || self.undecidable(&e.value, seen)),
            T::Optional(t)
            | T::NotUndef(t)
            | T::Iterable(t)
            | T::Iterator(t)
            | T::Type(t)
            | T::Init(t, _) => inner(t, seen),
            _ => false,
        }
    }
}

/// Puppet's lenient integer pattern (`Integer.new` accepts such strings).
const INTEGER_PATTERN_LENIENT: &str = r"\A[+-]?\s*(?:\d+|0[xX][0-9A-Fa-f]+|0[bB][01]+)\z";
/// Puppet's float pattern (`Float.new` and `Numeric.new` accept such strings).
const FLOAT_PATTERN: &str =
    r"\A[+-]?\s*(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?|0[xX][0-9A-Fa-f]+|0[0-7]+|0[bB][01]+)\z";

/// Whether `Init[t]` accepts `v` through `t`'s `new` function: `v` fits the
/// parameter type of a one-argument signature, or (an array) the parameters
/// of a longer one. Known for the numeric types, `String` and `Boolean`.
fn init_convertible(t: &Type, v: &Value) -> bool {
    let is_int = matches!(t, Type::Integer(_));
    match t {
        Type::Integer(_) | Type::Float(_) | Type::Numeric => {
            let pattern = if is_int {
                INTEGER_PATTERN_LENIENT
            } else {
                FLOAT_PATTERN
            };
            let convertible = |x: &Value| match x {
                Value::Integer(_)
                | Value::Float(_)
                | Value::Boolean(_)
                | Value::Timespan(_)
                | Value::Timestamp(_) => true,
                Value::String(s) => Regexp::new(pattern).is_match(s).unwrap_or(false),
                _ => false,
            };
            let radix = |x: &Value| matches!(x, Value::Default | Value::Integer(2 | 8 | 10 | 16));
            match v {
                Value::Hash(h) => {
                    h.get(&Value::string("from")).is_some_and(convertible)
                        && h.iter().all(|(k, x)| match k {
                            Value::String(k) if k == "from" => true,
                            Value::String(k) if k == "abs" => matches!(x, Value::Boolean(_)),
                            Value::String(k) if k == "radix" && is_int => radix(x),
                            _ => false,
                        })
                }
                Value::Array(a) => match a.as_slice() {
                    [from] => convertible(from),
                    [from, second] => {
                        convertible(from)
                            && if is_int {
                                radix(second)
                            } else {
                                matches!(second, Value::Boolean(_))
                            }
                    }
                    [from, r, abs] if is_int => {
                        convertible(from) && radix(r) && matches!(abs, Value::Boolean(_))
                    }
                    _ => false,
                },
                other => convertible(other),
            }
        }
        // `String.new` takes any value
        Type::String(_) => true,
        Type::Boolean(_) => match v {
            Value::Integer(_) | Value::Float(_) | Value::Boolean(_) => true,
            Value::String(s) => matches!(
                s.to_ascii_lowercase().as_str(),
                "true" | "false" | "yes" | "no" | "y" | "n"
            ),
            _ => false,
        },
        _ => false,
    }
}

/// `ScalarData` and the types it takes: numbers, strings, booleans.
fn is_scalar_data(t: &Type) -> bool {
    matches!(
        t,
        Type::ScalarData
            | Type::Numeric
            | Type::Integer(_)
            | Type::Float(_)
            | Type::String(_)
            | Type::Enum(_)
            | Type::Pattern(_)
            | Type::Boolean(_)
    )
}
