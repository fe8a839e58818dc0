//! The pure built-in functions (iteration, strings, collections, numbers,
//! types). Functions with effects or catalog/at dependencies evaluate to
//! unknown values; logging functions are no-ops returning `undef`.

use std::cmp::Ordering;

use crate::hir::body::{ExprId, LambdaId};

use super::blocks::{block_counts, LambdaArity};
use super::tree::{tree_entries, TreeOptions};
use super::{Evaluator, Flow};
use crate::ops::{compare::casecmp, equals};
use crate::types::alias::resolve_top;
use crate::types::normalize::normalize;
use crate::types::{infer, infer_generalized, infer_set, IntRange, Type};
use crate::values::format::to_interpolated;
use crate::values::string_format;
use crate::values::{IteratorValue, RegexError, Regexp, Value};

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

/// The signatures (`min` and `max` argument counts, block use) of each pure
/// built-in, from Puppet's dispatches; a call must fit one of them.
fn signatures(name: &str) -> &'static [(usize, Option<usize>, BlockUse)] {
    match name {
        "notice" => &[(0, None, BlockUse::Forbidden)],
        "info" => &[(0, None, BlockUse::Forbidden)],
        "warning" => &[(0, None, BlockUse::Forbidden)],
        "debug" => &[(0, None, BlockUse::Forbidden)],
        "err" => &[(0, None, BlockUse::Forbidden)],
        "alert" => &[(0, None, BlockUse::Forbidden)],
        "crit" => &[(0, None, BlockUse::Forbidden)],
        "emerg" => &[(0, None, BlockUse::Forbidden)],
        "fail" => &[(0, None, BlockUse::Optional)],
        "next" => &[(0, Some(1), BlockUse::Forbidden)],
        "return" => &[(0, Some(1), BlockUse::Forbidden)],
        "break" => &[(0, Some(0), BlockUse::Forbidden)],
        "type" => &[
            (1, Some(2), BlockUse::Forbidden),
            (2, Some(2), BlockUse::Forbidden),
        ],
        "assert_type" => &[(2, Some(2), BlockUse::Optional)],
        "with" => &[(0, None, BlockUse::Required)],
        "then" => &[(1, Some(1), BlockUse::Required)],
        "lest" => &[(1, Some(1), BlockUse::Required)],
        "each" => &[(1, Some(1), BlockUse::Required)],
        "map" => &[(1, Some(1), BlockUse::Required)],
        "filter" => &[(1, Some(1), BlockUse::Required)],
        "reduce" => &[
            (1, Some(1), BlockUse::Required),
            (2, Some(2), BlockUse::Required),
        ],
        "any" => &[(1, Some(1), BlockUse::Required)],
        "all" => &[(1, Some(1), BlockUse::Required)],
        "index" => &[
            (1, Some(1), BlockUse::Required),
            (2, Some(2), BlockUse::Forbidden),
        ],
        "slice" => &[(2, Some(2), BlockUse::Optional)],
        "step" => &[
            (2, Some(2), BlockUse::Forbidden),
            (2, Some(2), BlockUse::Required),
        ],
        "reverse_each" => &[
            (1, Some(1), BlockUse::Forbidden),
            (1, Some(1), BlockUse::Required),
        ],
        "size" => &[(1, Some(1), BlockUse::Forbidden)],
        "length" => &[(1, Some(1), BlockUse::Forbidden)],
        "empty" => &[(1, Some(1), BlockUse::Forbidden)],
        "keys" => &[(1, Some(1), BlockUse::Forbidden)],
        "values" => &[(1, Some(1), BlockUse::Forbidden)],
        "flatten" => &[(0, None, BlockUse::Forbidden)],
        "unique" => &[(1, Some(1), BlockUse::Optional)],
        "partition" | "group_by" => &[(1, Some(1), BlockUse::Required)],
        "tree_each" => &[(1, Some(2), BlockUse::Optional)],
        "sort" => &[(1, Some(1), BlockUse::Optional)],
        "join" => &[(1, Some(2), BlockUse::Forbidden)],
        "split" => &[(2, Some(2), BlockUse::Forbidden)],
        "upcase" => &[(1, Some(1), BlockUse::Forbidden)],
        "downcase" => &[(1, Some(1), BlockUse::Forbidden)],
        "capitalize" => &[(1, Some(1), BlockUse::Forbidden)],
        "camelcase" => &[(1, Some(1), BlockUse::Forbidden)],
        "strip" => &[(1, Some(1), BlockUse::Forbidden)],
        "lstrip" => &[(1, Some(1), BlockUse::Forbidden)],
        "rstrip" => &[(1, Some(1), BlockUse::Forbidden)],
        "chomp" => &[(1, Some(1), BlockUse::Forbidden)],
        "chop" => &[(1, Some(1), BlockUse::Forbidden)],
        "sprintf" => &[(1, None, BlockUse::Optional)],
        "min" => &[
            (0, None, BlockUse::Forbidden),
            (1, Some(1), BlockUse::Optional),
            (0, None, BlockUse::Required),
        ],
        "max" => &[
            (0, None, BlockUse::Forbidden),
            (1, Some(1), BlockUse::Optional),
            (0, None, BlockUse::Required),
        ],
        "abs" => &[(1, Some(1), BlockUse::Forbidden)],
        "round" => &[(1, Some(1), BlockUse::Forbidden)],
        "floor" => &[(1, Some(1), BlockUse::Forbidden)],
        "ceiling" => &[(1, Some(1), BlockUse::Forbidden)],
        "dig" => &[(1, None, BlockUse::Forbidden)],
        "get" => &[(2, Some(3), BlockUse::Optional)],
        "new" => &[(1, None, BlockUse::Optional)],
        "convert_to" => &[(2, None, BlockUse::Optional)],
        "strftime" => &[
            (2, Some(2), BlockUse::Forbidden),
            (2, Some(3), BlockUse::Forbidden),
            (1, Some(2), BlockUse::Forbidden),
        ],
        "match" => &[(2, Some(2), BlockUse::Forbidden)],
        "regsubst" => &[
            (3, Some(5), BlockUse::Forbidden),
            (3, Some(4), BlockUse::Forbidden),
        ],
        "compare" => &[
            (2, Some(2), BlockUse::Forbidden),
            (2, Some(3), BlockUse::Forbidden),
        ],
        "unwrap" => &[(1, Some(1), BlockUse::Optional)],
        _ => &[(0, None, BlockUse::Optional)],
    }
}

/// Checks a call against the built-in's signatures: Puppet rejects wrong
/// argument counts and blocks given to (or missing from) functions.
fn signature_error(name: &str, argc: usize, has_block: bool) -> Option<String> {
    let sigs = signatures(name);
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
            return Some(Ok(Value::Unknown(self.return_type_of(name, args.len()))));
        }
        let handles_unknown = matches!(
            name,
            "type"
                | "notice"
                | "info"
                | "warning"
                | "debug"
                | "err"
                | "alert"
                | "crit"
                | "emerg"
                | "with"
                | "then"
                | "lest"
                | "next"
                | "break"
                | "return"
                | "fail"
        );
        let mut argc = 0;
        if KNOWN.contains(&name) {
            if let Some(m) = signature_error(name, args.len(), lambda.is_some()) {
                return Some(Err(self.error(at, m)));
            }
            if let Some(l) = lambda.filter(|_| !block_counts(name).is_empty()) {
                match self.block_arg_count(name, l, at) {
                    Ok(n) => argc = n,
                    Err(e) => return Some(Err(e)),
                }
            }
        }
        if !handles_unknown && args.iter().any(Value::is_unknown) {
            if !KNOWN.contains(&name) {
                return None;
            }
            return Some(Ok(Value::Unknown(self.return_type_of(name, args.len()))));
        }
        if !KNOWN.contains(&name) {
            return None;
        }
        Some(self.builtin(name, args, lambda, argc, at))
    }

    /// Runs built-in `name`; `argc` is the number of arguments its
    /// signature passes to the lambda (see [`block_counts`]).
    fn builtin(
        &mut self,
        name: &str,
        args: Vec<Value>,
        lambda: Option<LambdaId>,
        argc: usize,
        at: ExprId,
    ) -> Result<Value, Flow> {
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Undef);
        let n = args.len();
        match name {
            "notice" | "info" | "warning" | "debug" | "err" | "alert" | "crit" | "emerg" => {
                Ok(Value::Undef)
            }
            "fail" => {
                let msg: Vec<String> = args.iter().map(to_interpolated).collect();
                Err(self.error(at, msg.join(" ")))
            }
            "next" => Err(Flow::Next(arg(0))),
            "return" => Err(Flow::Return(arg(0))),
            "break" => Err(Flow::Break),
            "type" => {
                if n == 0 || n > 2 {
                    return Err(self.arity_error(name, at));
                }
                let v = arg(0);
                if let Value::Unknown(t) = &v {
                    return Ok(Value::Unknown(Type::type_of(t.clone())));
                }
                let t = match args.get(1) {
                    None => infer_set(&v),
                    Some(Value::String(m)) if m == "detailed" => infer_set(&v),
                    Some(Value::String(m)) if m == "reduced" => infer(&v),
                    Some(Value::String(m)) if m == "generalized" => infer_generalized(&v),
                    Some(_) => {
                        return Err(
                            self.error(at, "type() expects 'detailed', 'reduced' or 'generalized'")
                        )
                    }
                };
                Ok(Value::Type(t))
            }
            "assert_type" => {
                let t = match arg(0) {
                    Value::Type(t) => t,
                    _ => return Err(self.error(at, "assert_type expects a Type")),
                };
                let v = arg(1);
                let ts = self.ts();
                let ok = ts.instance(&t, &v);
                drop(ts);
                if ok {
                    return Ok(v);
                }
                match lambda {
                    Some(l) => {
                        self.call_lambda(l, vec![Value::Type(t), Value::Type(infer_set(&v))], at)
                    }
                    None => Err(self.error(
                        at,
                        format!(
                            "assert_type(): expects a {} value, got {}",
                            t,
                            infer_generalized(&v)
                        ),
                    )),
                }
            }
            "with" => {
                let l = self.need_lambda(name, lambda, at)?;
                self.call_lambda(l, args, at)
            }
            "then" => {
                let l = self.need_lambda(name, lambda, at)?;
                match arg(0) {
                    Value::Undef => Ok(Value::Undef),
                    Value::Unknown(_) => Ok(Value::Unknown(Type::Any)),
                    v => self.call_lambda(l, vec![v], at),
                }
            }
            "lest" => {
                let l = self.need_lambda(name, lambda, at)?;
                match arg(0) {
                    Value::Undef => self.call_lambda(l, vec![], at),
                    Value::Unknown(_) => Ok(Value::Unknown(Type::Any)),
                    v => Ok(v),
                }
            }
            "each" => {
                let l = self.need_lambda(name, lambda, at)?;
                let recv = arg(0);
                let items = self.items(name, &recv, at)?;
                for i in 0..items.len() {
                    match self.call_each(l, argc, &items, i, at) {
                        Ok(_) => {}
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
                Ok(recv)
            }
            "map" => {
                let l = self.need_lambda(name, lambda, at)?;
                let items = self.items(name, &arg(0), at)?;
                let mut out = Vec::new();
                for i in 0..items.len() {
                    match self.call_each(l, argc, &items, i, at) {
                        Ok(v) => out.push(v),
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
                Ok(Value::Array(out))
            }
            "filter" => {
                let l = self.need_lambda(name, lambda, at)?;
                let recv = arg(0);
                let items = self.items(name, &recv, at)?;
                let mut keep = Vec::new();
                for i in 0..items.len() {
                    match self.call_each(l, argc, &items, i, at) {
                        Ok(v) => keep.push(self.truth(&v)?),
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
                Ok(match items {
                    Items::Pairs(p) => Value::Hash(
                        p.into_iter()
                            .zip(keep)
                            .filter(|(_, k)| *k)
                            .map(|(kv, _)| kv)
                            .collect(),
                    ),
                    Items::List(v) => Value::Array(
                        v.into_iter()
                            .zip(keep)
                            .filter(|(_, k)| *k)
                            .map(|(x, _)| x)
                            .collect(),
                    ),
                })
            }
            "reduce" => {
                let l = self.need_lambda(name, lambda, at)?;
                let items = self.items(name, &arg(0), at)?.values();
                let mut it = items.into_iter();
                let mut memo = if n >= 2 {
                    arg(1)
                } else {
                    match it.next() {
                        Some(v) => v,
                        None => return Ok(Value::Undef),
                    }
                };
                for x in it {
                    match self.call_lambda(l, vec![memo.clone(), x], at) {
                        Ok(v) => memo = v,
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
                Ok(memo)
            }
            "any" | "all" => {
                let l = self.need_lambda(name, lambda, at)?;
                let items = self.items(name, &arg(0), at)?;
                let want_any = name == "any";
                for i in 0..items.len() {
                    match self.call_each(l, argc, &items, i, at) {
                        Ok(v) => {
                            if self.truth(&v)? == want_any {
                                return Ok(Value::Boolean(want_any));
                            }
                        }
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
                Ok(Value::Boolean(!want_any))
            }
            "index" => {
                let recv = arg(0);
                let items = self.items(name, &recv, at)?;
                if let Some(l) = lambda {
                    if n > 1 {
                        return Err(self.arity_error(name, at));
                    }
                    // a one-parameter block gets a hash entry's value alone
                    let values;
                    let passed = match &items {
                        Items::Pairs(p) if argc == 1 => {
                            values = Items::List(p.iter().map(|(_, v)| v.clone()).collect());
                            &values
                        }
                        _ => &items,
                    };
                    for i in 0..items.len() {
                        match self.call_each(l, argc, passed, i, at) {
                            Ok(v) if self.truth(&v)? => {
                                return Ok(match &items {
                                    Items::List(_) => Value::Integer(i as i64),
                                    Items::Pairs(p) => p[i].0.clone(),
                                })
                            }
                            Ok(_) => {}
                            Err(Flow::Break) => break,
                            Err(e) => return Err(e),
                        }
                    }
                    return Ok(Value::Undef);
                }
                if n != 2 {
                    return Err(self.arity_error(name, at));
                }
                let needle = arg(1);
                let found = match (&recv, &needle) {
                    (Value::String(h), Value::String(s)) => Some(Ok(h.find(s.as_str()))),
                    (Value::String(h), Value::Regexp(re)) => {
                        Some(find_at(re, h, 0).map(|m| m.map(|(start, _, _)| start)))
                    }
                    _ => None,
                };
                if let (Value::String(h), Some(found)) = (&recv, found) {
                    return match found {
                        Ok(Some(b)) => Ok(Value::Integer(h[..b].chars().count() as i64)),
                        Ok(None) => Ok(Value::Undef),
                        Err(RegexError::Unsupported(m)) => Err(Flow::Unsupported(m)),
                        Err(RegexError::Invalid(m)) => Err(self.error(at, m)),
                    };
                }
                match items {
                    Items::List(v) => Ok(v
                        .iter()
                        .position(|x| index_eq(x, &needle))
                        .map_or(Value::Undef, |i| Value::Integer(i as i64))),
                    Items::Pairs(p) => Ok(p
                        .into_iter()
                        .find(|(_, v)| index_eq(v, &needle))
                        .map_or(Value::Undef, |(k, _)| k)),
                }
            }
            "slice" => {
                let size = match arg(1) {
                    Value::Integer(s) if s > 0 => s as usize,
                    _ => return Err(self.error(at, "slice size must be a positive Integer")),
                };
                let items = self.items(name, &arg(0), at)?.values();
                let chunks: Vec<Value> = items
                    .chunks(size)
                    .map(|c| Value::Array(c.to_vec()))
                    .collect();
                match lambda {
                    None => Ok(Value::Array(chunks)),
                    Some(l) => {
                        // Ruby's `Proc#arity` decides how many values a call gets
                        let arity = LambdaArity::of(&self.body, l).ruby_arity();
                        let serving = usize::try_from(arity).unwrap_or(size);
                        if serving != 1 && serving != size {
                            return Err(self.error(
                                at,
                                format!(
                                    "slice(): block must define one parameter, or the same number of parameters as the given size of the slice ({size}). Block has {serving}"
                                ),
                            ));
                        }
                        // each call gets `serving` values, filled up
                        self.check_size(serving as u128)?;
                        let filler = match arg(0) {
                            Value::Hash(_) => Value::Array(Vec::new()),
                            _ => Value::Undef,
                        };
                        for c in chunks {
                            let a = if serving == 1 {
                                vec![c]
                            } else {
                                let Value::Array(mut parts) = c else { continue };
                                parts.resize(serving, filler.clone());
                                parts
                            };
                            match self.call_lambda(l, a, at) {
                                Ok(_) => {}
                                Err(Flow::Break) => break,
                                Err(e) => return Err(e),
                            }
                        }
                        Ok(arg(0))
                    }
                }
            }
            "step" | "reverse_each" => {
                let recv = arg(0);
                let items = self.items(name, &recv, at)?.values();
                let mut step = None;
                let elems: Vec<Value> = if name == "step" {
                    let s = match arg(1) {
                        Value::Integer(s) if s > 0 => s as usize,
                        _ => return Err(self.error(at, "step expects a positive Integer")),
                    };
                    step = Some(s as i64);
                    items.into_iter().step_by(s).collect()
                } else {
                    items.into_iter().rev().collect()
                };
                match lambda {
                    None => {
                        let element_type = iterable_element_type(&recv, step)
                            .unwrap_or_else(|| iterator_element_type(&elems));
                        Ok(Value::Iterator(Box::new(IteratorValue {
                            elements: elems,
                            element_type,
                        })))
                    }
                    // with a block, both return undef
                    Some(l) => {
                        let items = Items::List(elems);
                        for i in 0..items.len() {
                            match self.call_each(l, argc, &items, i, at) {
                                Ok(_) => {}
                                Err(Flow::Break) => break,
                                Err(e) => return Err(e),
                            }
                        }
                        Ok(Value::Undef)
                    }
                }
            }
            "tree_each" => {
                let recv = arg(0);
                match recv {
                    Value::Array(_) | Value::Hash(_) => {}
                    Value::Iterator(_) | Value::Object(_) | Value::Type(_) => {
                        return Err(Flow::Unsupported(format!(
                            "tree_each over {}",
                            recv.a_label()
                        )))
                    }
                    _ => {
                        return Err(self.error(
                            at,
                            format!(
                                "'tree_each' parameter 'tree' expects a value of type Iterator, Array, Hash, or Object, got {}",
                                infer_generalized(&recv)
                            ),
                        ))
                    }
                }
                let opts = match args.get(1) {
                    None => None,
                    Some(Value::Hash(h)) => Some(h),
                    Some(other) => {
                        return Err(self.error(
                            at,
                            format!(
                                "'tree_each' parameter 'options' expects a Hash value, got {}",
                                infer_generalized(other)
                            ),
                        ))
                    }
                };
                let opts = match TreeOptions::from_hash(opts) {
                    Ok(Some(o)) => o,
                    Ok(None) => return Err(Flow::Unsupported("tree_each container_type".into())),
                    Err(m) => return Err(self.error(at, m)),
                };
                let entries = tree_entries(&recv, &opts);
                let Some(l) = lambda else {
                    let elems: Vec<Value> = entries
                        .into_iter()
                        .map(|(p, v)| Value::Array(vec![Value::Array(p), v]))
                        .collect();
                    let element_type = iterator_element_type(&elems);
                    return Ok(Value::Iterator(Box::new(IteratorValue {
                        elements: elems,
                        element_type,
                    })));
                };
                for (path, v) in entries {
                    let a = if argc == 2 {
                        vec![Value::Array(path), v]
                    } else {
                        vec![v]
                    };
                    match self.call_lambda(l, a, at) {
                        Ok(_) => {}
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
                Ok(recv)
            }
            "size" | "length" => match arg(0) {
                Value::Array(a) => Ok(Value::Integer(a.len() as i64)),
                Value::Hash(h) => Ok(Value::Integer(h.len() as i64)),
                Value::String(s) => Ok(Value::Integer(s.chars().count() as i64)),
                Value::Binary(b) => Ok(Value::Integer(b.len() as i64)),
                Value::Iterator(it) => Ok(Value::Integer(it.elements.len() as i64)),
                other => Err(self.error(
                    at,
                    format!(
                        "'{}' expects a Collection, String or Binary value, got {}",
                        name,
                        infer_generalized(&other)
                    ),
                )),
            },
            "empty" => match arg(0) {
                Value::Array(a) => Ok(Value::Boolean(a.is_empty())),
                Value::Hash(h) => Ok(Value::Boolean(h.is_empty())),
                Value::String(s) => Ok(Value::Boolean(s.is_empty())),
                Value::Binary(b) => Ok(Value::Boolean(b.is_empty())),
                Value::Undef => Ok(Value::Boolean(true)),
                Value::Integer(_) | Value::Float(_) => Ok(Value::Boolean(false)),
                other => {
                    Err(self.error(at, format!("'empty' does not accept {}", other.a_label())))
                }
            },
            "keys" | "values" => match arg(0) {
                Value::Hash(h) => Ok(Value::Array(if name == "keys" {
                    h.keys().cloned().collect()
                } else {
                    h.values().cloned().collect()
                })),
                other => Err(self.error(
                    at,
                    format!(
                        "'{}' expects a Hash value, got {}",
                        name,
                        infer_generalized(&other)
                    ),
                )),
            },
            "flatten" => {
                fn flat(v: &Value, out: &mut Vec<Value>) {
                    match v {
                        Value::Array(a) => a.iter().for_each(|e| flat(e, out)),
                        o => out.push(o.clone()),
                    }
                }
                let mut out = Vec::new();
                for a in &args {
                    flat(a, &mut out);
                }
                Ok(Value::Array(out))
            }
            "unique" => self.unique(arg(0), lambda, at),
            "partition" | "group_by" => {
                let l = self.need_lambda(name, lambda, at)?;
                let recv = arg(0);
                if !matches!(recv, Value::Array(_) | Value::Hash(_)) {
                    return Err(self.error(
                        at,
                        format!(
                            "'{name}' parameter 'collection' expects a Collection value, got {}",
                            infer_generalized(&recv)
                        ),
                    ));
                }
                let items = self.items(name, &recv, at)?;
                let mut keys = Vec::with_capacity(items.len());
                for i in 0..items.len() {
                    match self.call_each(l, argc, &items, i, at) {
                        Ok(v) => keys.push(v),
                        Err(Flow::Break) => break,
                        Err(e) => return Err(e),
                    }
                }
                if keys.iter().any(Value::is_unknown) {
                    return Err(Flow::Unsupported("the block's answer is unknown".into()));
                }
                let elems = items.values().into_iter().zip(keys);
                Ok(if name == "partition" {
                    let (yes, no): (Vec<_>, Vec<_>) = elems.partition(|(_, k)| k.is_truthy());
                    let firsts =
                        |v: Vec<(Value, Value)>| Value::Array(v.into_iter().map(|p| p.0).collect());
                    Value::Array(vec![firsts(yes), firsts(no)])
                } else {
                    Value::Hash(
                        group_by_key(elems)
                            .into_iter()
                            .map(|(k, v)| (k, Value::Array(v)))
                            .collect(),
                    )
                })
            }
            "sort" => {
                let recv = arg(0);
                let (mut items, is_string) = match &recv {
                    Value::Array(a) => (a.clone(), false),
                    Value::String(s) => (
                        s.chars().map(|c| Value::String(c.to_string())).collect(),
                        true,
                    ),
                    other => {
                        return Err(self.error(
                            at,
                            format!("'sort' expects an Array or String, got {}", other.a_label()),
                        ))
                    }
                };
                let mut failure: Option<Flow> = None;
                if let Some(l) = lambda {
                    items = self.merge_sort(items, l, at)?;
                } else {
                    items.sort_by(|a, b| match ruby_cmp(a, b) {
                        Some(o) => o,
                        None => {
                            if failure.is_none() {
                                failure = Some(Flow::Error(super::EvalError {
                                    message: format!(
                                        "comparison of {} with {} failed",
                                        a.label(),
                                        b.label()
                                    ),
                                    at: Some(at),
                                }));
                            }
                            Ordering::Equal
                        }
                    });
                }
                if let Some(f) = failure {
                    return Err(f);
                }
                if is_string {
                    Ok(Value::String(items.iter().map(to_interpolated).collect()))
                } else {
                    Ok(Value::Array(items))
                }
            }
            "join" => {
                let sep = match arg(1) {
                    Value::String(s) => s,
                    Value::Undef => String::new(),
                    _ => return Err(self.error(at, "join expects a String separator")),
                };
                match arg(0) {
                    Value::Array(a) => {
                        fn flat(v: &[Value], out: &mut Vec<String>) {
                            for e in v {
                                match e {
                                    Value::Array(a) => flat(a, out),
                                    o => out.push(to_interpolated(o)),
                                }
                            }
                        }
                        let mut parts = Vec::new();
                        flat(&a, &mut parts);
                        Ok(Value::String(parts.join(&sep)))
                    }
                    other => Err(self.error(
                        at,
                        format!(
                            "'join' expects an Array value, got {}",
                            infer_generalized(&other)
                        ),
                    )),
                }
            }
            "split" => {
                let Value::String(s) = arg(0) else {
                    return Err(self.error(at, "'split' expects a String value"));
                };
                let re = match arg(1) {
                    Value::String(p) => Regexp::new(&p),
                    Value::Regexp(r) => r,
                    Value::Type(Type::Regexp(Some(p))) => Regexp::new(&p),
                    _ => return Err(self.error(at, "'split' expects a String or Regexp pattern")),
                };
                match ruby_split(&s, &re) {
                    Ok(parts) => Ok(Value::Array(parts.into_iter().map(Value::String).collect())),
                    Err(RegexError::Unsupported(m)) => Err(Flow::Unsupported(m)),
                    Err(RegexError::Invalid(m)) => Err(self.error(at, m)),
                }
            }
            "upcase" | "downcase" | "capitalize" | "camelcase" | "strip" | "lstrip" | "rstrip"
            | "chomp" | "chop" => {
                if n != 1 {
                    return Err(self.arity_error(name, at));
                }
                let f: &dyn Fn(&str) -> String = match name {
                    "upcase" => &|s: &str| s.to_uppercase(),
                    "downcase" => &|s: &str| s.to_lowercase(),
                    "capitalize" => &ruby_capitalize,
                    "camelcase" => &|s: &str| s.split('_').map(ruby_capitalize).collect(),
                    "strip" => &|s: &str| s.trim_matches(ruby_space).to_string(),
                    "lstrip" => &|s: &str| s.trim_start_matches(ruby_space).to_string(),
                    "rstrip" => &|s: &str| s.trim_end_matches(ruby_space).to_string(),
                    "chomp" => &ruby_chomp,
                    _ => &ruby_chop,
                };
                let v = arg(0);
                match map_strings(&v, f, matches!(name, "upcase" | "downcase")) {
                    Some(r) => Ok(r),
                    None => Err(self.error(
                        at,
                        format!(
                            "'{}' expects a String value, got {}",
                            name,
                            infer_generalized(&v)
                        ),
                    )),
                }
            }
            "sprintf" => {
                let Value::String(fmt) = arg(0) else {
                    return Err(self.error(at, "sprintf expects a format String"));
                };
                string_format::sprintf(&fmt, &args[1..])
                    .map(Value::String)
                    .map_err(|e| self.error(at, e))
            }
            "min" | "max" => {
                let mut vals = args.clone();
                if vals.len() == 1 {
                    if let Value::Array(a) = &vals[0] {
                        vals = a.clone();
                    }
                }
                if vals.is_empty() {
                    return Err(self.error(at, format!("{}() expects at least one argument", name)));
                }
                let want = if name == "min" {
                    Ordering::Less
                } else {
                    Ordering::Greater
                };
                let mut best = vals[0].clone();
                for v in vals.into_iter().skip(1) {
                    let o = if let Some(l) = lambda {
                        match self.call_lambda(l, vec![v.clone(), best.clone()], at)? {
                            Value::Integer(c) => c.cmp(&0),
                            _ => Ordering::Equal,
                        }
                    } else {
                        minmax_cmp(&v, &best)
                    };
                    if o == want {
                        best = v;
                    }
                }
                Ok(best)
            }
            "abs" => match arg(0) {
                Value::Integer(i) => i
                    .checked_abs()
                    .map(Value::Integer)
                    .ok_or_else(|| self.error(at, "integer overflow")),
                Value::Float(f) => Ok(Value::Float(f.abs())),
                // deprecated string conversion: `-?\d+\.\d+` is a Float,
                // `-?\d+` an Integer
                Value::String(s) => {
                    let body = s.strip_prefix('-').unwrap_or(&s);
                    let all_digits =
                        |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
                    match body.split_once('.') {
                        Some((i, f)) if all_digits(i) && all_digits(f) => {
                            Ok(Value::Float(to_f(body)))
                        }
                        None if all_digits(body) => body
                            .parse::<i64>()
                            .map(Value::Integer)
                            .map_err(|_| self.error(at, "abs(): integer out of range")),
                        _ => Err(self.error(
                            at,
                            "abs(): Requires float or integer to work with - was given non decimal string",
                        )),
                    }
                }
                other => Err(self.error(
                    at,
                    format!(
                        "'abs' expects a Numeric value, got {}",
                        infer_generalized(&other)
                    ),
                )),
            },
            "round" | "floor" | "ceiling" => match arg(0) {
                Value::Integer(i) => Ok(Value::Integer(i)),
                // floor and ceiling convert strings with Ruby's `Float()`
                Value::String(s) if name != "round" => {
                    match crate::values::convert::ruby_kernel_float(&s) {
                        Some(f) => {
                            let r = if name == "floor" { f.floor() } else { f.ceil() };
                            if r.is_finite() && r.abs() < 9.2e18 {
                                Ok(Value::Integer(r as i64))
                            } else {
                                Err(self.error(at, "value out of range"))
                            }
                        }
                        None => Err(self.error(
                            at,
                            format!(
                                "{}(): cannot convert given value to a floating point value.",
                                name
                            ),
                        )),
                    }
                }
                Value::Float(f) => {
                    let r = match name {
                        "round" => f.round(),
                        "floor" => f.floor(),
                        _ => f.ceil(),
                    };
                    if r.is_finite() && r.abs() < 9.2e18 {
                        Ok(Value::Integer(r as i64))
                    } else {
                        Err(self.error(at, "value out of range"))
                    }
                }
                other => Err(self.error(
                    at,
                    format!(
                        "'{}' expects a Numeric value, got {}",
                        name,
                        infer_generalized(&other)
                    ),
                )),
            },
            "dig" => {
                let mut cur = arg(0);
                for k in args.iter().skip(1) {
                    cur = match (&cur, k) {
                        (Value::Undef, _) => return Ok(Value::Undef),
                        (Value::Array(a), Value::Integer(i)) => {
                            let idx = if *i < 0 { a.len() as i64 + i } else { *i };
                            if idx < 0 {
                                Value::Undef
                            } else {
                                a.get(idx as usize).cloned().unwrap_or(Value::Undef)
                            }
                        }
                        (Value::Array(_), _) => {
                            return Err(self.error(
                                at,
                                "dig: an Array can only be digged into with an Integer",
                            ))
                        }
                        (Value::Hash(h), k) => h.get(k).cloned().unwrap_or(Value::Undef),
                        _ => {
                            return Err(self.error(
                                at,
                                format!(
                                    "The given data does not contain a Collection at {}",
                                    to_interpolated(k)
                                ),
                            ))
                        }
                    };
                }
                Ok(cur)
            }
            "get" => self.get_fn(args, lambda, at),
            "new" => match arg(0) {
                Value::Type(t) => self.new_instance(&t, args[1..].to_vec(), lambda, at),
                other => {
                    Err(self.error(at, format!("'new' expects a Type, got {}", other.a_label())))
                }
            },
            "convert_to" => match arg(1) {
                Value::Type(t) => {
                    let mut a = vec![arg(0)];
                    a.extend(args.iter().skip(2).cloned());
                    let v = self.new_instance(&t, a, None, at)?;
                    match lambda {
                        Some(l) => self.call_lambda(l, vec![v], at),
                        None => Ok(v),
                    }
                }
                _ => Err(self.error(at, "convert_to expects a Type")),
            },
            "strftime" => {
                let Value::String(fmt) = arg(1) else {
                    return match arg(0) {
                        Value::String(_) => Ok(Value::Unknown(Type::string())),
                        _ => Err(self.error(at, "strftime expects a format String")),
                    };
                };
                match arg(0) {
                    Value::Timespan(t) => t
                        .format(&fmt)
                        .map(Value::String)
                        .map_err(|e| self.error(at, e)),
                    Value::Timestamp(t) => {
                        let tz = match arg(2) {
                            Value::Undef => String::new(),
                            Value::String(tz) if tz.eq_ignore_ascii_case("current") => {
                                return Err(Flow::Unsupported(
                                    "the host's current time zone is not known statically".into(),
                                ))
                            }
                            Value::String(tz) => tz,
                            other => {
                                return Err(self.error(
                                    at,
                                    format!(
                                        "strftime expects a String time zone, got {}",
                                        other.a_label()
                                    ),
                                ))
                            }
                        };
                        t.format_in_zone(&fmt, &tz)
                            .map(Value::String)
                            .map_err(|e| self.error(at, e))
                    }
                    other => Err(self.error(
                        at,
                        format!(
                            "strftime expects a Timespan or Timestamp, got {}",
                            other.a_label()
                        ),
                    )),
                }
            }
            "match" => {
                let re = match arg(1) {
                    Value::String(p) => Regexp::new(&p),
                    Value::Regexp(r) => r,
                    Value::Type(Type::Regexp(Some(p))) => Regexp::new(&p),
                    Value::Type(Type::Pattern(ps)) if ps.len() == 1 => Regexp::new(&ps[0]),
                    _ => return Err(self.error(at, "'match' expects a String, Regexp or Pattern")),
                };
                fn one(re: &Regexp, v: &Value) -> Result<Value, RegexError> {
                    match v {
                        Value::String(s) => Ok(match re.captures(s)? {
                            Some(g) => Value::Array(
                                g.into_iter()
                                    .map(|x| x.map_or(Value::Undef, Value::String))
                                    .collect(),
                            ),
                            None => Value::Undef,
                        }),
                        Value::Array(a) => Ok(Value::Array(
                            a.iter().map(|e| one(re, e)).collect::<Result<_, _>>()?,
                        )),
                        _ => Ok(Value::Undef),
                    }
                }
                one(&re, &arg(0)).map_err(|e| match e {
                    RegexError::Unsupported(m) => Flow::Unsupported(m),
                    RegexError::Invalid(m) => self.error(at, m),
                })
            }
            "regsubst" => self.regsubst(args, at),
            "compare" => {
                let (a, b) = (arg(0), arg(1));
                let ignore_case = !matches!(arg(2), Value::Boolean(false));
                let o = match (&a, &b) {
                    (Value::String(x), Value::String(y)) if ignore_case => Some(casecmp(x, y)),
                    _ => ruby_cmp(&a, &b),
                };
                match o {
                    Some(o) => Ok(Value::Integer(o as i64)),
                    None => Err(self.error(
                        at,
                        format!(
                            "compare(): Can only compare values of the same type, got {} and {}",
                            a.label(),
                            b.label()
                        ),
                    )),
                }
            }
            "unwrap" => {
                let v = match arg(0) {
                    Value::Sensitive(v) => *v,
                    other => other,
                };
                match lambda {
                    Some(l) => self.call_lambda(l, vec![v], at),
                    None => Ok(v),
                }
            }
            _ => Ok(Value::Unknown(Type::Any)),
        }
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
        Value::String(_) => Type::String(crate::types::StringParam::Size(IntRange::exact(1))),
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

/// The built-ins this module implements.
const KNOWN: &[&str] = &[
    "notice",
    "info",
    "warning",
    "debug",
    "err",
    "alert",
    "crit",
    "emerg",
    "fail",
    "next",
    "return",
    "break",
    "type",
    "assert_type",
    "with",
    "then",
    "lest",
    "each",
    "map",
    "filter",
    "reduce",
    "any",
    "all",
    "index",
    "slice",
    "step",
    "reverse_each",
    "partition",
    "group_by",
    "tree_each",
    "size",
    "length",
    "empty",
    "keys",
    "values",
    "flatten",
    "unique",
    "sort",
    "join",
    "split",
    "upcase",
    "downcase",
    "capitalize",
    "camelcase",
    "strip",
    "lstrip",
    "rstrip",
    "chomp",
    "chop",
    "sprintf",
    "min",
    "max",
    "abs",
    "round",
    "floor",
    "ceiling",
    "dig",
    "get",
    "new",
    "convert_to",
    "strftime",
    "match",
    "regsubst",
    "compare",
    "unwrap",
];
