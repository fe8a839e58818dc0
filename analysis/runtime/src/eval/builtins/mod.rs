//! The pure built-in functions (iteration, strings, collections, numbers,
//! types). Functions with effects or catalog/at dependencies evaluate to
//! unknown values; logging functions are no-ops returning `undef`.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::LazyLock;

use crate::builtins::FunctionApi;
use crate::hir::body::{ExprId, LambdaId};

use super::blocks::LambdaArity;
use super::string_format;
use super::tree::{tree_entries, TreeOptions};
use super::{Evaluator, Flow};
use crate::model::{IntRange, IteratorValue, Type, Value};
use crate::ops::{compare::casecmp, equals};
use crate::regexp::{RegexError, Regexp};
use crate::target::PuppetVersion;
use crate::types::alias::resolve_top;
use crate::types::normalize::normalize;
use crate::types::{infer, infer_generalized, infer_set};
use crate::values::format::to_interpolated;

mod collections;
mod conversion;
mod flow;
mod iteration;
mod numbers;
mod strings;

/// One call of a built-in, as its implementation receives it: `argc` is the
/// number of arguments its signature passes to the lambda (see
/// [`super::blocks::block_counts`]).
struct Call<'a> {
    name: &'a str,
    args: Vec<Value>,
    lambda: Option<LambdaId>,
    argc: usize,
    at: ExprId,
}

/// A pure built-in function the evaluator runs.
struct Builtin {
    name: &'static str,
    run: fn(&mut Evaluator, Call) -> Result<Value, Flow>,
    /// Runs even when an argument is unknown (logging, control flow,
    /// `type`); the others then evaluate to an unknown of their return
    /// type.
    takes_unknown: bool,
}

impl Call<'_> {
    /// The `i`th argument; `undef` past the last.
    fn arg(&self, i: usize) -> Value {
        self.args.get(i).cloned().unwrap_or(Value::Undef)
    }
}

impl Builtin {
    const fn new(
        name: &'static str,
        run: fn(&mut Evaluator, Call) -> Result<Value, Flow>,
    ) -> Builtin {
        Builtin {
            name,
            run,
            takes_unknown: false,
        }
    }

    /// See [`Builtin::takes_unknown`].
    const fn taking_unknown(mut self) -> Builtin {
        self.takes_unknown = true;
        self
    }
}

/// The implementation of pure built-in `name`, each family's functions
/// registered by name.
fn registry(name: &str) -> Option<&'static Builtin> {
    static REGISTRY: LazyLock<HashMap<&'static str, &'static Builtin>> = LazyLock::new(|| {
        [
            flow::FUNCTIONS,
            iteration::FUNCTIONS,
            collections::FUNCTIONS,
            strings::FUNCTIONS,
            numbers::FUNCTIONS,
            conversion::FUNCTIONS,
        ]
        .into_iter()
        .flatten()
        .map(|b| (b.name, b))
        .collect()
    });
    REGISTRY.get(name).copied()
}

/// Functions known to depend on the catalog, at or filesystem.
const IMPURE: &[&str] = &[
    "lookup",
    "hiera",
    "hiera_array",
    "hiera_hash",
    "hiera_include",
    "include",
    "require",
    "contain",
    "realize",
    "tag",
    "tagged",
    "defined",
    "create_resources",
    "template",
    "epp",
    "inline_epp",
    "inline_template",
    "file",
    "find_file",
    "generate",
    "fqdn_rand",
    "getvar",
    "binary_file",
    "digest",
    "md5",
    "sha1",
    "sha256",
    "versioncmp",
    "shellquote",
];

/// Whether a built-in signature takes a block.
#[derive(Clone, Copy, PartialEq)]
enum BlockUse {
    Forbidden,
    Optional,
    Required,
}

/// The signatures (`min` and `max` argument counts, block use) of built-in
/// `name`, from the generated table of Puppet's dispatches. A 3.x-API
/// function ignores a block, so it may always be given one; a function the
/// table does not know takes anything.
fn signatures(
    version: crate::target::PuppetVersion,
    name: &str,
) -> Vec<(usize, Option<usize>, BlockUse)> {
    let Some(function) = crate::builtins::builtins_for(version).function(name) else {
        return vec![(0, None, BlockUse::Optional)];
    };
    let legacy = function.api == FunctionApi::Legacy;
    function
        .signatures
        .iter()
        .map(|s| {
            let block = match &s.block {
                _ if legacy => BlockUse::Optional,
                None => BlockUse::Forbidden,
                Some(b) if b.optional => BlockUse::Optional,
                Some(_) => BlockUse::Required,
            };
            (s.min_args, s.max_args, block)
        })
        .collect()
}

/// Checks a call against the built-in's signatures: Puppet rejects wrong
/// argument counts and blocks given to (or missing from) functions.
fn signature_error(
    version: crate::target::PuppetVersion,
    name: &str,
    argc: usize,
    has_block: bool,
) -> Option<String> {
    let sigs = signatures(version, name);
    let fits = |&(min, max, block): &(usize, Option<usize>, BlockUse)| {
        argc >= min
            && max.is_none_or(|m| argc <= m)
            && match block {
                BlockUse::Forbidden => !has_block,
                BlockUse::Optional => true,
                BlockUse::Required => has_block,
            }
    };
    if sigs.iter().any(fits) {
        return None;
    }
    let counts_fit = sigs
        .iter()
        .any(|&(min, max, _)| argc >= min && max.is_none_or(|m| argc <= m));
    if counts_fit {
        return Some(if has_block {
            format!("'{}' does not expect a block", name)
        } else {
            format!("'{}' expects a block", name)
        });
    }
    let min = sigs.iter().map(|s| s.0).min().unwrap_or(0);
    let max = sigs
        .iter()
        .map(|s| s.1)
        .try_fold(0usize, |acc, m| m.map(|m| acc.max(m)));
    Some(match max {
        Some(max) if min == max => format!("'{}' expects {} arguments, got {}", name, min, argc),
        Some(max) => format!(
            "'{}' expects between {} and {} arguments, got {}",
            name, min, max, argc
        ),
        None => format!(
            "'{}' expects at least {} arguments, got {}",
            name, min, argc
        ),
    })
}

/// The elements an iteration visits.
enum Items {
    List(Vec<Value>),
    Pairs(Vec<(Value, Value)>),
}

impl Items {
    fn len(&self) -> usize {
        match self {
            Items::List(v) => v.len(),
            Items::Pairs(v) => v.len(),
        }
    }
    /// Elements as single values (hash entries become `[k, v]`).
    fn values(self) -> Vec<Value> {
        match self {
            Items::List(v) => v,
            Items::Pairs(p) => p
                .into_iter()
                .map(|(k, v)| Value::Array(vec![k, v]))
                .collect(),
        }
    }
}

/// Ruby's `<=>` for the value kinds Puppet's `sort`, `min` and `max` compare.
pub fn ruby_cmp(a: &Value, b: &Value) -> Option<Ordering> {
    use Value::*;
    match (a, b) {
        (Integer(x), Integer(y)) => Some(x.cmp(y)),
        (Integer(x), Float(y)) => (*x as f64).partial_cmp(y),
        (Float(x), Integer(y)) => x.partial_cmp(&(*y as f64)),
        (Float(x), Float(y)) => x.partial_cmp(y),
        (String(x), String(y)) => Some(x.cmp(y)),
        (Timespan(x), Timespan(y)) => Some(x.nanos.cmp(&y.nanos)),
        (Timestamp(x), Timestamp(y)) => Some(x.nanos.cmp(&y.nanos)),
        (SemVer(x), SemVer(y)) => Some(x.compare(y)),
        (Array(x), Array(y)) => {
            for (p, q) in x.iter().zip(y) {
                match ruby_cmp(p, q)? {
                    Ordering::Equal => {}
                    o => return Some(o),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ => None,
    }
}

fn is_numeric_string(s: &str) -> bool {
    let t = s.strip_prefix('-').unwrap_or(s);
    let mut parts = t.splitn(2, ['.', '_', 'e', 'E']);
    let a = parts.next().unwrap_or("");
    let b = parts.next();
    !a.is_empty()
        && a.bytes().all(|c| c.is_ascii_digit())
        && b.is_none_or(|b| !b.is_empty() && b.bytes().all(|c| c.is_ascii_digit()))
}

fn to_f(s: &str) -> f64 {
    s.parse::<f64>().unwrap_or(0.0)
}

/// Applies a string function the way Puppet's `upcase` family does: to a
/// string, leaving numbers as they are, over the elements of an array (and
/// with `nested`, as `upcase` and `downcase` take `StringData`, into nested
/// arrays and hashes' keys and values); `None` for anything else.
fn map_strings(v: &Value, f: &dyn Fn(&str) -> String, nested: bool) -> Option<Value> {
    let element = |e: &Value| match e {
        Value::Array(_) | Value::Hash(_) if !nested => None,
        e => map_strings(e, f, nested),
    };
    match v {
        Value::String(s) => Some(Value::String(f(s))),
        Value::Integer(_) | Value::Float(_) => Some(v.clone()),
        Value::Array(a) => Some(Value::Array(a.iter().map(element).collect::<Option<_>>()?)),
        Value::Hash(h) if nested => Some(Value::Hash(
            h.iter()
                .map(|(k, e)| Some((element(k)?, element(e)?)))
                .collect::<Option<_>>()?,
        )),
        _ => None,
    }
}

fn ruby_capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase(),
        None => String::new(),
    }
}

fn ruby_chomp(s: &str) -> String {
    if let Some(t) = s.strip_suffix("\r\n") {
        t.to_string()
    } else if let Some(t) = s.strip_suffix('\n').or_else(|| s.strip_suffix('\r')) {
        t.to_string()
    } else {
        s.to_string()
    }
}

fn ruby_chop(s: &str) -> String {
    if let Some(t) = s.strip_suffix("\r\n") {
        return t.to_string();
    }
    let mut t = s.to_string();
    t.pop();
    t
}

fn ruby_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c' | '\0')
}

/// Ruby's `String#split(regexp)`: captures are included, trailing empty
/// strings removed; an empty match splits characters.
fn ruby_split(s: &str, re: &Regexp) -> Result<Vec<String>, RegexError> {
    let mut out = Vec::new();
    if s.is_empty() {
        return Ok(out);
    }
    let src = re.source();
    if src.is_empty() {
        return Ok(s.chars().map(|c| c.to_string()).collect());
    }
    let compiled = Regexp::try_new(src)?;
    let mut beg = 0usize;
    let mut search = 0usize;
    while search <= s.len() {
        let Some((ms, me, caps)) = find_at(&compiled, s, search)? else {
            break;
        };
        if ms == me {
            if ms >= s.len() {
                break;
            }
            let next = s[ms..].chars().next().map_or(1, char::len_utf8);
            if ms > beg {
                out.push(s[beg..ms].to_string());
                out.extend(caps.into_iter().flatten());
                beg = ms;
            }
            search = ms + next;
            continue;
        }
        out.push(s[beg..ms].to_string());
        out.extend(caps.into_iter().flatten());
        beg = me;
        search = me;
    }
    out.push(s[beg..].to_string());
    while out.last().is_some_and(|x| x.is_empty()) {
        out.pop();
    }
    Ok(out)
}

type Found = (usize, usize, Vec<Option<String>>);

fn find_at(re: &Regexp, s: &str, at: usize) -> Result<Option<Found>, RegexError> {
    if at > s.len() || !s.is_char_boundary(at) {
        return Ok(None);
    }
    re.captures_at(s, at)
}

impl Evaluator {
    fn items(&mut self, fname: &str, v: &Value, at: ExprId) -> Result<Items, Flow> {
        // a type alias (`type MyI = Integer[1,3]`) iterates as its type
        let resolved;
        let v = match v {
            Value::Type(t @ (Type::Alias(_) | Type::Variant(_))) => {
                resolved = Value::Type(normalize(&resolve_top(t, &self.aliases)));
                &resolved
            }
            _ => v,
        };
        Ok(match v {
            Value::Array(a) => Items::List(a.clone()),
            Value::Hash(h) => Items::Pairs(h.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
            Value::Iterator(it) => Items::List(it.elements.clone()),
            Value::Integer(n) => {
                self.check_size((*n).max(0) as u128)?;
                Items::List((0..*n).map(Value::Integer).collect())
            }
            Value::String(s) => Items::List(s.chars().map(|c| Value::String(c.to_string())).collect()),
            Value::Type(Type::Integer(r)) if r.from.is_some() && r.to.is_some() => {
                let (a, b) = (r.lo(), r.hi());
                self.check_size((b - a + 1).max(0) as u128)?;
                Items::List((a..=b).map(|i| Value::Integer(i as i64)).collect())
            }
            Value::Type(Type::Enum(e)) => {
                Items::List(e.values.iter().map(|s| Value::String(s.clone())).collect())
            }
            Value::Unknown(_) => return Err(Flow::Unsupported("unknown iterable".into())),
            other => {
                return Err(self.error(
                    at,
                    format!(
                        "The function '{}' was called with argument 1 expecting an Iterable value, got {}",
                        fname,
                        infer_generalized(other)
                    ),
                ))
            }
        })
    }

    /// A block's verdict (`filter`, `any`, `index`...): an unknown one
    /// makes the whole call unknown, never a guess.
    fn truth(&self, verdict: &Value) -> Result<bool, Flow> {
        verdict
            .truth()
            .ok_or_else(|| Flow::Unsupported("the block's verdict is unknown".into()))
    }

    fn need_lambda(
        &self,
        fname: &str,
        lambda: Option<LambdaId>,
        at: ExprId,
    ) -> Result<LambdaId, Flow> {
        lambda.ok_or_else(|| self.error(at, format!("'{}' expects a block", fname)))
    }

    /// Calls the lambda for one element with `argc` arguments: one is the
    /// element (a `[k, v]` pair for hashes), two the index (or key) and the
    /// element.
    fn call_each(
        &mut self,
        l: LambdaId,
        argc: usize,
        items: &Items,
        i: usize,
        at: ExprId,
    ) -> Result<Value, Flow> {
        let args = match items {
            Items::List(v) => {
                if argc >= 2 {
                    vec![Value::Integer(i as i64), v[i].clone()]
                } else {
                    vec![v[i].clone()]
                }
            }
            Items::Pairs(p) => {
                let (k, v) = p[i].clone();
                if argc >= 2 {
                    vec![k, v]
                } else {
                    vec![Value::Array(vec![k, v])]
                }
            }
        };
        self.call_lambda(l, args, at)
    }

    fn arity_error(&self, fname: &str, at: ExprId) -> Flow {
        self.error(
            at,
            format!("'{}' was called with the wrong number of arguments", fname),
        )
    }

    /// Dispatches a built-in; `None` when `name` is not a pure built-in.
    pub fn call_builtin(
        &mut self,
        name: &str,
        args: Vec<Value>,
        lambda: Option<LambdaId>,
        at: ExprId,
    ) -> Option<Result<Value, Flow>> {
        if IMPURE.contains(&name) {
            // `lookup(name, Type, ...)`: Puppet checks the value found (or
            // the default) against the type, so the call has that type.
            if let ("lookup", Some(Value::Type(t))) = (name, args.get(1)) {
                return Some(Ok(Value::Unknown(t.clone())));
            }
            return Some(Ok(Value::Unknown(self.return_type_of(name, args.len()))));
        }
        let builtin = registry(name)?;
        if let Some(m) = signature_error(self.target.version, name, args.len(), lambda.is_some()) {
            return Some(Err(self.error(at, m)));
        }
        let mut argc = 0;
        if let Some(l) = lambda {
            match self.block_arg_count(name, l, at) {
                Ok(n) => argc = n,
                Err(e) => return Some(Err(e)),
            }
        }
        if !builtin.takes_unknown && args.iter().any(Value::is_unknown) {
            return Some(Ok(Value::Unknown(self.return_type_of(name, args.len()))));
        }
        let call = Call {
            name,
            args,
            lambda,
            argc,
            at,
        };
        Some((builtin.run)(self, call))
    }

    /// Sorts with the lambda as comparator the way Ruby's `sort` does on
    /// this platform (glibc's merge sort): halves sorted, then merged taking
    /// from the left half unless the comparator says it is greater.
    fn merge_sort(
        &mut self,
        mut items: Vec<Value>,
        l: LambdaId,
        at: ExprId,
    ) -> Result<Vec<Value>, Flow> {
        if items.len() <= 1 {
            return Ok(items);
        }
        let right = items.split_off(items.len() / 2);
        let left = self.merge_sort(items, l, at)?;
        let right = self.merge_sort(right, l, at)?;
        let mut out = Vec::with_capacity(left.len() + right.len());
        let (mut left, mut right) = (left.into_iter().peekable(), right.into_iter().peekable());
        while let (Some(a), Some(b)) = (left.peek(), right.peek()) {
            let greater = match self.call_lambda(l, vec![a.clone(), b.clone()], at)? {
                Value::Integer(c) => c > 0,
                other => {
                    return Err(self.error(
                        at,
                        format!("comparison of {} with {} failed", a.label(), other.label()),
                    ))
                }
            };
            out.extend(if greater { right.next() } else { left.next() });
        }
        out.extend(left);
        out.extend(right);
        Ok(out)
    }

    /// `unique`: elements (characters of a string) without duplicates, as
    /// compared by the block's result; a hash maps each group of keys
    /// whose values compare equal to those values, deduplicated.
    fn unique(&mut self, recv: Value, lambda: Option<LambdaId>, at: ExprId) -> Result<Value, Flow> {
        let key_of = |this: &mut Self, vs: &[Value]| -> Result<Vec<Value>, Flow> {
            match lambda {
                Some(l) => vs
                    .iter()
                    .map(|v| this.call_lambda(l, vec![v.clone()], at))
                    .collect(),
                None => Ok(vs.to_vec()),
            }
        };
        match recv {
            Value::Hash(h) => {
                let (ks, vs): (Vec<Value>, Vec<Value>) =
                    h.iter().map(|(k, v)| (k.clone(), v.clone())).unzip();
                let keys = key_of(self, &vs)?;
                let mut groups: Vec<(Value, Vec<Value>, Vec<Value>)> = Vec::new();
                for ((k, v), key) in ks.into_iter().zip(vs).zip(keys) {
                    match groups.iter_mut().find(|g| g.0.strict_eq(&key)) {
                        Some(g) => {
                            g.1.push(k);
                            g.2.push(v);
                        }
                        None => groups.push((key, vec![k], vec![v])),
                    }
                }
                Ok(Value::Hash(
                    groups
                        .into_iter()
                        .map(|(_, ks, vs)| {
                            let keys = vs.clone();
                            (Value::Array(ks), Value::Array(uniq_by(vs, keys)))
                        })
                        .collect(),
                ))
            }
            Value::String(s) => {
                let chars: Vec<Value> = s.chars().map(|c| Value::String(c.to_string())).collect();
                let keys = key_of(self, &chars)?;
                Ok(Value::String(
                    uniq_by(chars, keys).iter().map(to_interpolated).collect(),
                ))
            }
            other => {
                let elems = self.items("unique", &other, at)?.values();
                let keys = key_of(self, &elems)?;
                Ok(Value::Array(uniq_by(elems, keys)))
            }
        }
    }

    fn get_fn(
        &mut self,
        args: Vec<Value>,
        lambda: Option<LambdaId>,
        at: ExprId,
    ) -> Result<Value, Flow> {
        let mut cur = args.first().cloned().unwrap_or(Value::Undef);
        let path = match args.get(1) {
            Some(Value::String(s)) => s.clone(),
            _ => return Err(self.error(at, "get() expects a String path")),
        };
        let default = args.get(2).cloned().unwrap_or(Value::Undef);
        if path.is_empty() {
            return Ok(cur);
        }
        // split on dots, honoring quotes
        let mut segs = Vec::new();
        let mut seg = String::new();
        let mut quote: Option<char> = None;
        for c in path.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), c) => seg.push(c),
                (None, '"') | (None, '\'') => quote = Some(c),
                (None, '.') => segs.push(std::mem::take(&mut seg)),
                (None, c) => seg.push(c),
            }
        }
        segs.push(seg);
        for s in segs {
            cur = match &cur {
                Value::Undef => return Ok(default),
                Value::Array(a) => match s.parse::<i64>() {
                    Ok(i) => {
                        let idx = if i < 0 { a.len() as i64 + i } else { i };
                        if idx < 0 {
                            Value::Undef
                        } else {
                            a.get(idx as usize).cloned().unwrap_or(Value::Undef)
                        }
                    }
                    Err(_) => {
                        let msg =
                            format!("get(): The given data requires an Integer index at '{}'", s);
                        return match lambda {
                            Some(l) => self.call_lambda(l, vec![Value::Undef], at),
                            None => Err(self.error(at, msg)),
                        };
                    }
                },
                Value::Hash(h) => {
                    let key = match s.parse::<i64>() {
                        Ok(i) if h.contains_key(&Value::Integer(i)) => Value::Integer(i),
                        _ => Value::String(s.clone()),
                    };
                    h.get(&key).cloned().unwrap_or(Value::Undef)
                }
                _ => {
                    let msg = format!(
                        "get(): The given data does not contain a Collection at '{}'",
                        s
                    );
                    return match lambda {
                        Some(l) => self.call_lambda(l, vec![Value::Undef], at),
                        None => Err(self.error(at, msg)),
                    };
                }
            };
        }
        Ok(match cur {
            Value::Undef => default,
            v => v,
        })
    }

    fn regsubst(&mut self, args: Vec<Value>, at: ExprId) -> Result<Value, Flow> {
        let target = args.first().cloned().unwrap_or(Value::Undef);
        let flags = match args.get(3) {
            Some(Value::String(f)) => f.clone(),
            _ => String::new(),
        };
        let mut prefix = String::new();
        if flags.contains('I') {
            prefix.push('i');
        }
        if flags.contains('M') {
            prefix.push('s');
        }
        if flags.contains('E') {
            prefix.push('x');
        }
        let source = match args.get(1) {
            Some(Value::String(p)) => p.clone(),
            Some(Value::Regexp(r)) => r.source().to_string(),
            Some(Value::Type(Type::Regexp(Some(p)))) => p.clone(),
            _ => return Err(self.error(at, "regsubst expects a pattern")),
        };
        let Some(Value::String(repl)) = args.get(2).cloned() else {
            return Err(self.error(at, "regsubst expects a String replacement"));
        };
        let re = if prefix.is_empty() {
            Regexp::new(&source)
        } else {
            Regexp::new(&format!("(?{}){}", prefix, source))
        };
        if let Some(e) = re.error() {
            return Err(match e {
                RegexError::Unsupported(m) => Flow::Unsupported(m.clone()),
                RegexError::Invalid(m) => self.error(at, m.clone()),
            });
        }
        let global = flags.contains('G');
        let sub = |s: &str| -> Result<String, RegexError> {
            let mut out = String::new();
            let mut at = 0usize;
            let mut last = 0usize;
            while at <= s.len() {
                let Some((ms, me, caps)) = find_at(&re, s, at)? else {
                    break;
                };
                out.push_str(&s[last..ms]);
                let whole = s[ms..me].to_string();
                expand_replacement(&repl, &whole, &caps, &mut out);
                last = me;
                at = if me == ms {
                    match s[me..].chars().next() {
                        Some(c) => {
                            out.push(c);
                            last = me + c.len_utf8();
                            me + c.len_utf8()
                        }
                        None => s.len() + 1,
                    }
                } else {
                    me
                };
                if !global {
                    break;
                }
            }
            if last <= s.len() {
                out.push_str(&s[last..]);
            }
            Ok(out)
        };
        let r = match &target {
            Value::String(s) => sub(s).map(Value::String),
            Value::Array(a) => a
                .iter()
                .map(|e| match e {
                    Value::String(s) => sub(s).map(Value::String),
                    o => Ok(o.clone()),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array),
            other => {
                return Err(self.error(
                    at,
                    format!(
                        "regsubst expects a String or Array, got {}",
                        other.a_label()
                    ),
                ))
            }
        };
        r.map_err(|e| match e {
            RegexError::Unsupported(m) => Flow::Unsupported(m),
            RegexError::Invalid(m) => self.error(at, m),
        })
    }
}

/// Ruby's replacement escapes: `\0`/`\&` whole match, `\1..\9` groups,
/// `\\` a backslash.
fn expand_replacement(repl: &str, whole: &str, caps: &[Option<String>], out: &mut String) {
    let mut chars = repl.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(d @ '0'..='9') => {
                let i = d as usize - '0' as usize;
                if i == 0 {
                    out.push_str(whole);
                } else if let Some(Some(g)) = caps.get(i - 1) {
                    out.push_str(g);
                }
            }
            Some('&') => out.push_str(whole),
            Some('\\') => out.push('\\'),
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
}

/// Equality for `index`: case-sensitive for strings, else Puppet's `==`.
/// Groups values by key (Ruby `eql?`), in order of first appearance.
fn group_by_key(pairs: impl IntoIterator<Item = (Value, Value)>) -> Vec<(Value, Vec<Value>)> {
    let mut groups: Vec<(Value, Vec<Value>)> = Vec::new();
    for (v, key) in pairs {
        match groups.iter_mut().find(|g| g.0.strict_eq(&key)) {
            Some(g) => g.1.push(v),
            None => groups.push((key, vec![v])),
        }
    }
    groups
}

/// The values with duplicates (Ruby `eql?`) of `keys` removed, keeping the
/// first of each.
fn uniq_by(values: Vec<Value>, keys: Vec<Value>) -> Vec<Value> {
    group_by_key(values.into_iter().zip(keys))
        .into_iter()
        .filter_map(|(_, mut g)| (!g.is_empty()).then(|| g.swap_remove(0)))
        .collect()
}

fn index_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(x), Value::String(y)) => x == y,
        _ => equals(a, b),
    }
}

fn minmax_cmp(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Integer(_) | Value::Float(_), Value::Integer(_) | Value::Float(_)) => {
            ruby_cmp(a, b).unwrap_or(Ordering::Equal)
        }
        _ => {
            let (x, y) = (to_interpolated(a), to_interpolated(b));
            if is_numeric_string(&x) && is_numeric_string(&y) {
                to_f(&x).partial_cmp(&to_f(&y)).unwrap_or(Ordering::Equal)
            } else {
                x.cmp(&y)
            }
        }
    }
}

/// Puppet's `Variant` of types with nested variants flattened and
/// duplicates removed; a single type stands for itself.
fn variant_of(types: impl IntoIterator<Item = Type>) -> Type {
    let mut out: Vec<Type> = Vec::new();
    for t in types {
        let parts = match t {
            Type::Variant(ts) => ts,
            other => vec![other],
        };
        for p in parts {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    if out.len() == 1 {
        out.pop().unwrap_or(Type::Unit)
    } else {
        Type::Variant(out)
    }
}

/// The element type of the iterator Puppet makes over `recv` (kept by
/// `reverse_each` and `step`): an array's element types as a variant, a
/// hash's `Tuple[key variant, value variant, 2, 2]`, an integer range's range
/// (truncated to the last step for `step`), an iterator's own type.
fn iterable_element_type(recv: &Value, step: Option<i64>) -> Option<Type> {
    let pair = |k: Type, v: Type| Type::Tuple(vec![k, v], Some(IntRange::exact(2)));
    let range = |from: i64, to: i64| {
        let to = match step {
            Some(s) if s > 0 => to - (to - from).rem_euclid(s),
            _ => to,
        };
        Type::Integer(IntRange::new(Some(from), Some(to)))
    };
    Some(match recv {
        Value::Array(a) if a.is_empty() => Type::Unit,
        Value::Array(a) => variant_of(a.iter().map(infer_set)),
        Value::Hash(h) if h.is_empty() => pair(Type::Unit, Type::Unit),
        Value::Hash(h) => pair(
            variant_of(h.keys().map(infer_set)),
            variant_of(h.values().map(infer_set)),
        ),
        Value::Integer(0) => Type::Unit,
        Value::Integer(n) if *n > 0 => range(0, n - 1),
        Value::String(_) => Type::String(crate::model::StringParam::Size(IntRange::exact(1))),
        Value::Type(Type::Integer(r)) if r.from.is_some() && r.to.is_some() => {
            range(r.lo() as i64, r.hi() as i64)
        }
        Value::Iterator(it) => it.element_type.clone(),
        _ => return None,
    })
}

fn iterator_element_type(elems: &[Value]) -> Type {
    let mut t: Option<Type> = None;
    for e in elems {
        let et = infer(e);
        t = Some(match t {
            None => et,
            Some(p) => crate::types::common_type(&p, &et),
        });
    }
    t.unwrap_or(Type::Unit)
}
