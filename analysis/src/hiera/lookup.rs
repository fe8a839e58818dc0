//! Hiera's lookup for one node, as `puppet lookup` does it: the
//! environment's levels then the module's (the key's namespace), each path
//! interpolated with the node's facts, values interpolated
//! (`%{facts.x}`, `%{lookup('k')}`, `%{alias('k')}`, ...), merged by the
//! strategy the caller gives or the key's `lookup_options` (first found,
//! unique, hash, deep with Puppet's deep-merge options), and dotted
//! sub-keys dug into (`lookup('ntp::settings.port')`).
//!
//! The global layer is read when the user configures it
//! (`workspace::add_global_hiera`). Custom backends are skipped
//! (their data cannot be read statically).

use super::config::{Backend, PathSpec};
use super::data::{data_document, LOOKUP_OPTIONS};
use super::interpolation::{interpolations, split_key, Expression, Method};
use super::layers::{hiera_layers, Layer, LayerKind, Level};
use super::value::plain_value;
use crate::db::{DataFile, Workspace};
use crate::model::{OrderedHash, Value};
use crate::values::format::ruby_to_s;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What a lookup knows of the node: its certificate name and its facts.
#[derive(Debug, Clone, Default)]
pub struct Node {
    pub name: String,
    pub facts: OrderedHash,
    /// The environment's name (`$environment`).
    pub environment: String,
}

/// How the values found at several levels are combined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Strategy {
    First,
    Unique,
    Hash,
    Deep(DeepOptions),
}

/// The options of the `deep` strategy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeepOptions {
    pub knockout_prefix: Option<String>,
    pub sort_merged_arrays: bool,
    pub merge_hash_arrays: bool,
}

impl Strategy {
    /// A strategy as written in a call or in `lookup_options`: a name or
    /// a hash with `strategy` and options.
    pub fn from_value(value: &Value) -> Result<Strategy, String> {
        let (name, options) = match value {
            Value::String(name) => (name.as_str(), None),
            Value::Hash(h) => match h.get(&Value::string("strategy")) {
                Some(Value::String(name)) => (name.as_str(), Some(h)),
                _ => return Err("a merge hash needs a `strategy`".into()),
            },
            other => return Err(format!("invalid merge {}", ruby_to_s(other))),
        };
        let option = |key: &str| options.and_then(|h| h.get(&Value::string(key)));
        let flag = |key: &str| matches!(option(key), Some(Value::Boolean(true)));
        Ok(match name {
            "first" | "default" => Strategy::First,
            "unique" => Strategy::Unique,
            "hash" => Strategy::Hash,
            "deep" => Strategy::Deep(DeepOptions {
                knockout_prefix: match option("knockout_prefix") {
                    Some(Value::String(p)) => Some(p.clone()),
                    _ => None,
                },
                sort_merged_arrays: flag("sort_merged_arrays"),
                merge_hash_arrays: flag("merge_hash_arrays"),
            }),
            other => return Err(format!("unknown merge strategy '{other}'")),
        })
    }

    pub fn from_name(name: &str) -> Result<Strategy, String> {
        Strategy::from_value(&Value::string(name))
    }
}

/// Why a lookup gave no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LookupError {
    NotFound,
    /// Puppet fails the lookup (a bad interpolation, a merge of values it
    /// cannot merge, a recursive alias).
    Failed(String),
}

/// A value found, with the files it came from (in lookup order).
#[derive(Debug, Clone)]
pub struct Found {
    pub value: Value,
    pub sources: Vec<DataFile>,
}

/// A lookup's result with what it looked at, in order: for each level,
/// the files it read and whether they had the key (`--explain`).
#[derive(Debug, Clone)]
pub struct Explained {
    pub result: Result<Found, LookupError>,
    pub steps: Vec<Step>,
}

/// One file a level named for the node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The key looked up (lookups inside interpolations show too).
    pub key: String,
    pub level: String,
    pub path: PathBuf,
    pub found: bool,
}

/// Looks a key up for a node: the global layer when configured, the
/// workspace's first environment, and the module layer of the key's
/// namespace.
pub fn lookup(
    db: &dyn salsa::Database,
    workspace: Workspace,
    node: &Node,
    key: &str,
    merge: Option<Strategy>,
) -> Result<Found, LookupError> {
    Resolver::new(db, workspace, node).lookup(key, merge)
}

/// [`lookup`], with the files it read.
pub fn explain(
    db: &dyn salsa::Database,
    workspace: Workspace,
    node: &Node,
    key: &str,
    merge: Option<Strategy>,
) -> Explained {
    let resolver = Resolver::new(db, workspace, node);
    let result = resolver.lookup(key, merge);
    Explained {
        result,
        steps: resolver.steps.into_inner(),
    }
}

/// Keys a lookup may go through before it is considered runaway.
const MAX_DEPTH: usize = 32;

struct Resolver<'a> {
    db: &'a dyn salsa::Database,
    layers: &'a [Layer],
    node: &'a Node,
    files: HashMap<&'a Path, DataFile>,
    /// Keys being looked up (for interpolations), to refuse recursion.
    stack: RefCell<Vec<String>>,
    steps: RefCell<Vec<Step>>,
}

/// One place a value was found.
struct Variant {
    value: Value,
    file: DataFile,
}

impl<'a> Resolver<'a> {
    fn new(db: &'a dyn salsa::Database, workspace: Workspace, node: &'a Node) -> Self {
        let files = workspace
            .data_files(db)
            .iter()
            .map(|&f| (f.path(db).as_path(), f))
            .collect();
        Resolver {
            db,
            layers: hiera_layers(db, workspace),
            node,
            files,
            stack: RefCell::new(Vec::new()),
            steps: RefCell::new(Vec::new()),
        }
    }

    fn lookup(&self, key: &str, merge: Option<Strategy>) -> Result<Found, LookupError> {
        let mut segments = split_key(key)
            .ok_or_else(|| LookupError::Failed(format!("syntax error in the key '{key}'")))?;
        let root = segments.remove(0);
        if root == LOOKUP_OPTIONS {
            return Err(LookupError::NotFound);
        }
        if self.stack.borrow().contains(&root) || self.stack.borrow().len() > MAX_DEPTH {
            return Err(LookupError::Failed(format!(
                "recursive lookup detected in [{}]",
                self.stack.borrow().join(", ")
            )));
        }
        self.stack.borrow_mut().push(root.clone());
        let result = self.lookup_root(&root, &segments, merge);
        self.stack.borrow_mut().pop();
        result
    }

    fn lookup_root(
        &self,
        root: &str,
        segments: &[String],
        merge: Option<Strategy>,
    ) -> Result<Found, LookupError> {
        let options = self.options_for(root)?;
        let strategy = match merge {
            Some(strategy) => strategy,
            None => match options.as_ref().and_then(|o| match o {
                Value::Hash(h) => h.get(&Value::string("merge")),
                _ => None,
            }) {
                Some(value) => Strategy::from_value(value).map_err(LookupError::Failed)?,
                None => Strategy::First,
            },
        };
        let layers = self.layers_for(root);
        // A first-found lookup reads no file after the one that answers:
        // what those files hold (even a failing interpolation) is never
        // seen by Puppet.
        let first_only = matches!(strategy, Strategy::First);
        let regular = layers.iter().flat_map(|l| l.levels.iter());
        let mut variants = self.variants(root, segments, regular, first_only)?;
        if variants.is_empty() {
            let defaults = layers.iter().flat_map(|l| l.default_levels.iter());
            variants = self.variants(root, segments, defaults, first_only)?;
        }
        if variants.is_empty() {
            return Err(LookupError::NotFound);
        }
        let sources = variants.iter().map(|v| v.file).collect();
        let value = merge_variants(&strategy, variants)?;
        Ok(Found { value, sources })
    }

    /// The global layer, the environment layer, then the layer of the
    /// key's module.
    fn layers_for(&self, root: &str) -> Vec<&'a Layer> {
        let global = self.layers.iter().find(|l| l.kind == LayerKind::Global);
        let environment = self
            .layers
            .iter()
            .find(|l| l.kind == LayerKind::Environment);
        let module = self
            .layers
            .iter()
            .find(|l| matches!(l.kind, LayerKind::Module(_)) && l.answers(root));
        global
            .into_iter()
            .chain(environment)
            .chain(module)
            .collect()
    }

    /// Every value of the key the levels give, in order, interpolated and
    /// dug into (only the first when `first_only`).
    fn variants<'l>(
        &self,
        root: &str,
        segments: &[String],
        levels: impl Iterator<Item = &'l Level>,
        first_only: bool,
    ) -> Result<Vec<Variant>, LookupError> {
        let mut out = Vec::new();
        for level in levels {
            for file in self.level_files(level)? {
                let raw = self.raw_value(file, root);
                self.steps.borrow_mut().push(Step {
                    key: root.to_string(),
                    level: level.name.clone(),
                    path: file.path(self.db).clone(),
                    found: raw.is_some(),
                });
                let Some(raw) = raw else {
                    continue;
                };
                let value = self.interpolate(&raw)?;
                if let Some(value) = dig(value, segments)? {
                    out.push(Variant { value, file });
                    if first_only {
                        return Ok(out);
                    }
                }
            }
        }
        Ok(out)
    }

    /// The files a level reads for this node, in order.
    fn level_files(&self, level: &Level) -> Result<Vec<DataFile>, LookupError> {
        if matches!(level.backend, Backend::Other(_)) {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for path in &level.paths {
            let templates: Vec<String> = match &path.spec {
                PathSpec::Path(t) | PathSpec::Glob(t) => vec![t.clone()],
                PathSpec::Mapped { var, key, template } => self.mapped_paths(var, key, template)?,
                PathSpec::Uri(_) => Vec::new(),
            };
            for template in templates {
                let relative = self.interpolate_path(&template)?;
                let relative = relative.trim_start_matches('/');
                if let PathSpec::Glob(_) = path.spec {
                    let Ok(glob) = globset::GlobBuilder::new(relative)
                        .literal_separator(true)
                        .build()
                    else {
                        continue;
                    };
                    let matcher = glob.compile_matcher();
                    let mut matched: Vec<(&Path, DataFile)> = self
                        .files
                        .iter()
                        .filter(|(p, _)| {
                            p.strip_prefix(&path.datadir)
                                .is_ok_and(|r| matcher.is_match(r))
                        })
                        .map(|(p, f)| (*p, *f))
                        .collect();
                    matched.sort_by_key(|(p, _)| *p);
                    out.extend(matched.into_iter().map(|(_, f)| f));
                } else {
                    let full: PathBuf = path.datadir.join(relative);
                    if let Some(&file) = self.files.get(full.as_path()) {
                        out.push(file);
                    }
                }
            }
        }
        Ok(out)
    }

    /// `mapped_paths: [var, key, template]`: the template once per
    /// element of `var`, the element bound to `key`.
    fn mapped_paths(
        &self,
        var: &str,
        key: &str,
        template: &str,
    ) -> Result<Vec<String>, LookupError> {
        let segments = split_key(var).unwrap_or_default();
        let elements = match self.variable(&segments)? {
            Some(Value::Array(items)) => items,
            Some(Value::Undef) | None => Vec::new(),
            Some(other) => vec![other],
        };
        elements
            .iter()
            .map(|element| {
                let text = match element {
                    Value::String(s) => s.clone(),
                    other => ruby_to_s(other),
                };
                let mut out = String::new();
                let mut rest = 0;
                for i in interpolations(template) {
                    out.push_str(&template[rest..i.range.start]);
                    match &i.expression {
                        Ok(Expression::Variable(v)) if v.len() == 1 && v[0] == key => {
                            out.push_str(&text)
                        }
                        _ => out.push_str(&self.interpolate_path(&template[i.range.clone()])?),
                    }
                    rest = i.range.end;
                }
                out.push_str(&template[rest..]);
                Ok(out)
            })
            .collect()
    }

    fn raw_value(&self, file: DataFile, root: &str) -> Option<Value> {
        let doc = data_document(self.db, file);
        let (_, node) = doc
            .root
            .as_ref()?
            .entries()
            .iter()
            .find(|(k, _)| k.as_str() == Some(root))?;
        Some(plain_value(node))
    }

    /// The key's `lookup_options` for this node: the environment's and
    /// the module's, hash-merged (the environment's win).
    fn options_for(&self, root: &str) -> Result<Option<Value>, LookupError> {
        let mut merged: Vec<Variant> = Vec::new();
        for layer in self.layers_for(root) {
            for level in &layer.levels {
                for file in self.level_files(level)? {
                    if let Some(value) = self.raw_value(file, LOOKUP_OPTIONS) {
                        merged.push(Variant { value, file });
                    }
                }
            }
        }
        if merged.is_empty() {
            return Ok(None);
        }
        let all = merge_variants(&Strategy::Hash, merged)?;
        let Value::Hash(options) = all else {
            return Err(LookupError::Failed(
                "value of lookup_options must be a hash".into(),
            ));
        };
        if let Some(found) = options.get(&Value::string(root)) {
            return Ok(Some(found.clone()));
        }
        for (pattern, value) in options.iter() {
            if let Value::String(p) = pattern {
                if p.starts_with('^') && regex::Regex::new(p).is_ok_and(|re| re.is_match(root)) {
                    return Ok(Some(value.clone()));
                }
            }
        }
        Ok(None)
    }

    /// Interpolates a hierarchy path (only variables are allowed there).
    fn interpolate_path(&self, template: &str) -> Result<String, LookupError> {
        self.interpolate_string(template, false).map(|v| match v {
            Value::String(s) => s,
            other => ruby_to_s(&other),
        })
    }

    /// Interpolates every string of a value (hash keys too).
    fn interpolate(&self, value: &Value) -> Result<Value, LookupError> {
        Ok(match value {
            Value::String(s) if s.contains("%{") => self.interpolate_string(s, true)?,
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|v| self.interpolate(v))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Hash(h) => {
                let mut out = OrderedHash::new();
                for (k, v) in h.iter() {
                    out.insert(self.interpolate(k)?, self.interpolate(v)?);
                }
                Value::Hash(out)
            }
            other => other.clone(),
        })
    }

    fn interpolate_string(&self, text: &str, allow_methods: bool) -> Result<Value, LookupError> {
        let mut out = String::new();
        let mut rest = 0;
        for found in interpolations(text) {
            out.push_str(&text[rest..found.range.start]);
            rest = found.range.end;
            let expression = found.expression.clone().map_err(LookupError::Failed)?;
            let value = match expression {
                Expression::Empty => None,
                Expression::Variable(segments) => self.variable(&segments)?,
                Expression::Call { method, argument } => {
                    if !allow_methods {
                        return Err(LookupError::Failed(
                            "interpolation using method syntax is not allowed in this context"
                                .into(),
                        ));
                    }
                    match method {
                        Method::Literal => Some(Value::String(argument)),
                        Method::Scope => {
                            let segments = split_key(&argument).ok_or_else(|| {
                                LookupError::Failed(format!("syntax error in string: {text}"))
                            })?;
                            self.variable(&segments)?
                        }
                        Method::Alias => {
                            if found.range != (0..text.len()) {
                                return Err(LookupError::Failed(
                                    "'alias' interpolation is only permitted if the expression is equal to the entire string".into(),
                                ));
                            }
                            return self.lookup(&argument, None).map(|f| f.value);
                        }
                        Method::Lookup | Method::Hiera => {
                            Some(self.lookup(&argument, None).map(|f| f.value)?)
                        }
                    }
                }
            };
            match value {
                None | Some(Value::Undef) => {}
                Some(Value::String(s)) => out.push_str(&s),
                Some(other) => out.push_str(&ruby_to_s(&other)),
            }
        }
        out.push_str(&text[rest..]);
        Ok(Value::String(out))
    }

    /// A variable of the node's scope: `facts`, `trusted`, or a top-scope
    /// fact; `None` when it does not exist (interpolated as nothing).
    fn variable(&self, segments: &[String]) -> Result<Option<Value>, LookupError> {
        let Some((name, rest)) = segments.split_first() else {
            return Ok(None);
        };
        let name = name.strip_prefix("::").unwrap_or(name);
        let value = match name {
            "facts" => Value::Hash(self.node.facts.clone()),
            "trusted" => Value::Hash(self.trusted()),
            "clientcert" | "certname" => Value::string(self.node.name.clone()),
            "environment" => Value::string(self.node.environment.clone()),
            _ => match self.node.facts.get(&Value::string(name)) {
                Some(v) => v.clone(),
                None => return Ok(None),
            },
        };
        dig(value, rest)
    }

    /// `$trusted` of a node whose certificate names it.
    fn trusted(&self) -> OrderedHash {
        let (hostname, domain) = self
            .node
            .name
            .split_once('.')
            .unwrap_or((&self.node.name, ""));
        OrderedHash::from_pairs([
            (Value::string("authenticated"), Value::string("remote")),
            (
                Value::string("certname"),
                Value::string(self.node.name.clone()),
            ),
            (Value::string("domain"), Value::string(domain)),
            (Value::string("extensions"), Value::Hash(OrderedHash::new())),
            (Value::string("hostname"), Value::string(hostname)),
        ])
    }
}

/// Digs sub-keys into a value: `None` when a key or index is missing.
fn dig(mut value: Value, segments: &[String]) -> Result<Option<Value>, LookupError> {
    for segment in segments {
        value = match value {
            Value::Undef => return Ok(None),
            Value::Array(items) => {
                let Ok(index) = segment.parse::<usize>() else {
                    return Err(type_mismatch("Array", segment));
                };
                match items.into_iter().nth(index) {
                    Some(v) => v,
                    None => return Ok(None),
                }
            }
            Value::Hash(h) => match h.get(&Value::string(segment.clone())) {
                Some(v) => v.clone(),
                None => return Ok(None),
            },
            Value::String(_) => return Err(type_mismatch("String", segment)),
            other => return Err(type_mismatch(&ruby_to_s(&other), segment)),
        };
    }
    Ok(Some(value))
}

fn type_mismatch(what: &str, segment: &str) -> LookupError {
    LookupError::Failed(format!(
        "Data Provider type mismatch: got {what} when a hash-like object was expected to access value using '{segment}'"
    ))
}

/// Merges the values found, highest priority first.
fn merge_variants(strategy: &Strategy, variants: Vec<Variant>) -> Result<Value, LookupError> {
    let mut values = variants.into_iter().map(|v| v.value);
    let Some(first) = values.next() else {
        return Err(LookupError::NotFound);
    };
    if *strategy == Strategy::First {
        return Ok(first);
    }
    let rest: Vec<Value> = values.collect();
    // A single value is not merged, so not asserted either.
    if rest.is_empty() {
        return Ok(match (strategy, first) {
            (Strategy::Unique, Value::Array(items)) => Value::Array(unique(items)),
            (_, value) => value,
        });
    }
    let mut memo = check_mergeable(strategy, &first).map(|_| convert(strategy, first))?;
    for value in rest {
        check_mergeable(strategy, &value)?;
        memo = match strategy {
            // Returned above.
            Strategy::First => memo,
            Strategy::Unique => {
                let mut items = as_array(memo);
                items.extend(as_array(value));
                Value::Array(unique(items))
            }
            Strategy::Hash => match (memo, value) {
                (Value::Hash(higher), Value::Hash(mut lower)) => {
                    for (k, v) in higher.iter() {
                        lower.insert(k.clone(), v.clone());
                    }
                    Value::Hash(lower)
                }
                (memo, _) => memo,
            },
            Strategy::Deep(options) => deep_merge(memo, value, options),
        };
    }
    Ok(memo)
}

/// What each strategy accepts (Puppet asserts it on every value merged).
fn check_mergeable(strategy: &Strategy, value: &Value) -> Result<(), LookupError> {
    let ok = match strategy {
        Strategy::Hash => {
            matches!(value, Value::Hash(h) if h.keys().all(|k| matches!(k, Value::String(_))))
        }
        Strategy::Unique => !matches!(value, Value::Hash(_)),
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        let expects = match strategy {
            Strategy::Hash => "Hash[String, Data]",
            _ => "Variant[Scalar, Array[Data]]",
        };
        Err(LookupError::Failed(format!(
            "the value merged by the '{}' strategy expects {expects}, got {}",
            strategy_name(strategy),
            ruby_to_s(value)
        )))
    }
}

fn strategy_name(strategy: &Strategy) -> &'static str {
    match strategy {
        Strategy::First => "first",
        Strategy::Unique => "unique",
        Strategy::Hash => "hash",
        Strategy::Deep(_) => "deep",
    }
}

fn convert(strategy: &Strategy, value: Value) -> Value {
    match strategy {
        Strategy::Unique => Value::Array(as_array(value)),
        _ => value,
    }
}

/// A value as the unique strategy sees it: arrays flattened, a scalar
/// alone.
fn as_array(value: Value) -> Vec<Value> {
    match value {
        Value::Array(items) => {
            let mut out = Vec::new();
            for item in items {
                match item {
                    Value::Array(_) => out.extend(as_array(item)),
                    other => out.push(other),
                }
            }
            out
        }
        other => vec![other],
    }
}

/// Elements in order, each once (Ruby's `uniq`, by `eql?`).
fn unique(items: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for item in items {
        if !out.iter().any(|o| o.strict_eq(&item)) {
            out.push(item);
        }
    }
    out
}

/// The `deep_merge` gem's `deep_merge!(source, dest)` as Puppet calls it:
/// `source` is the higher-priority value, `dest` the lower.
fn deep_merge(source: Value, dest: Value, options: &DeepOptions) -> Value {
    let knockout = options.knockout_prefix.as_deref();
    match source {
        Value::Undef => dest,
        Value::Hash(source) => match dest {
            Value::Hash(mut dest) => {
                for (k, v) in source.iter() {
                    let merged = match dest.get(k) {
                        Some(existing) if existing.is_truthy() => {
                            deep_merge(v.clone(), existing.clone(), options)
                        }
                        _ => deep_merge(v.clone(), v.clone(), options),
                    };
                    dest.insert(k.clone(), merged);
                }
                Value::Hash(dest)
            }
            _ => overwrite(Value::Hash(source), knockout),
        },
        Value::Array(mut source) => {
            let mut dest = dest;
            if let Some(prefix) = knockout {
                if let Some(i) = source.iter().position(|v| v == &Value::string(prefix)) {
                    source.remove(i);
                    dest = match dest {
                        Value::Array(_) => Value::Array(Vec::new()),
                        Value::Hash(_) => Value::Hash(OrderedHash::new()),
                        Value::String(_) => Value::string(""),
                        _ => Value::Undef,
                    };
                }
            }
            match dest {
                Value::Array(mut dest) => {
                    if let Some(prefix) = knockout {
                        source.retain(|item| match item {
                            Value::String(s) if s.starts_with(prefix) => {
                                let stripped = Value::string(&s[prefix.len()..]);
                                dest.retain(|d| !d.strict_eq(&stripped) && !d.strict_eq(item));
                                false
                            }
                            _ => true,
                        });
                    }
                    let all_hashes =
                        |items: &[Value]| items.iter().all(|i| matches!(i, Value::Hash(_)));
                    let merged =
                        if options.merge_hash_arrays && all_hashes(&source) && all_hashes(&dest) {
                            let mut list: Vec<Value> = dest
                                .iter()
                                .enumerate()
                                .map(|(i, d)| {
                                    let s = source
                                        .get(i)
                                        .cloned()
                                        .unwrap_or_else(|| Value::Hash(OrderedHash::new()));
                                    deep_merge(s, d.clone(), options)
                                })
                                .collect();
                            list.extend(source.iter().skip(dest.len()).cloned());
                            list
                        } else {
                            let mut union = unique(dest);
                            for item in source {
                                if !union.iter().any(|u| u.strict_eq(&item)) {
                                    union.push(item);
                                }
                            }
                            union
                        };
                    let mut merged = merged;
                    if options.sort_merged_arrays {
                        merged.sort_by_key(ruby_to_s);
                    }
                    Value::Array(merged)
                }
                _ => overwrite(Value::Array(source), knockout),
            }
        }
        other => overwrite(other, knockout),
    }
}

/// The gem's `overwrite_unmergeables`: the source wins, unless it carries
/// the knockout prefix (then the destination is emptied).
fn overwrite(source: Value, knockout: Option<&str>) -> Value {
    let Some(prefix) = knockout else {
        return source;
    };
    match source {
        Value::String(s) => match s.strip_prefix(prefix) {
            Some(_) => Value::string(""),
            None => Value::String(s),
        },
        Value::Array(items) => {
            let kept: Vec<Value> = items
                .iter()
                .filter(|i| !matches!(i, Value::String(s) if s.starts_with(prefix)))
                .cloned()
                .collect();
            if kept.len() == items.len() {
                Value::Array(items)
            } else {
                Value::string("")
            }
        }
        other => other,
    }
}

/// The facts of a node from a YAML or JSON file (`puppet facts` output or
/// a plain hash; a `values:` wrapper is unwrapped).
pub fn facts_from_text(text: &str) -> Result<OrderedHash, String> {
    let doc = super::yaml::parse(text);
    if let Some(error) = doc.errors.first() {
        return Err(error.message.clone());
    }
    match doc.root.as_ref().map(plain_value) {
        Some(Value::Hash(h)) => match h.get(&Value::string("values")) {
            Some(Value::Hash(values)) => Ok(values.clone()),
            _ => Ok(h),
        },
        _ => Err("the facts must be a hash".into()),
    }
}
