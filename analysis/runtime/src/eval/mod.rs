//! A bounded constant evaluator over the lowered model ([`crate::hir`]).
//!
//! The evaluator computes what a piece of Puppet code evaluates to when that
//! is knowable from the source alone, so that type inference, hover and
//! `puppet-ls eval` share one implementation of Puppet's semantics. Values that
//! depend on the catalog or the node (facts, `$trusted`, unknown functions,
//! resources) evaluate to [`Value::Unknown`] carrying their type, never to an
//! error. Constructs this implementation cannot compute (Ruby-only regexps,
//! exceeding the [`Limits`]) end evaluation with [`Outcome::unsupported`],
//! which is not a user error.
//!
//! Sub-modules: [`scope`] (variables and match variables), `expr`
//! (expressions), `matching` (case/selector matching), `call` (function
//! calls, lambdas, Puppet-language functions), `blocks` (how built-ins call
//! their lambda), `builtins` (the pure built-in functions), `tree` (the walk
//! of `tree_each`), `new` (calls to types: `Integer('0xFF')`),
//! `string_format` (Puppet's string converter for `String(v, format)` and
//! `sprintf`, which picks formats by the values' types),
//! `type_strings` (the built-in tables' types, read by this evaluator:
//! [`parse_type`]), and [`record`] (the per-case record shared by
//! `puppet-ls eval --jsonl` and the conformance test).

mod blocks;
mod builtins;
mod call;
mod expr;
mod matching;
mod new;
pub mod record;
pub mod scope;
mod string_format;
#[cfg(test)]
mod tests;
mod tree;
mod type_strings;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use puppet_syntax::SourceKind;

use crate::hir::body::{Body, BodyKind, ExprId};
use crate::hir::lower::{lower_file, LoweredDefinition, LoweredFile};
use crate::hir::DefKind;

use crate::model::{Type, Value};
use crate::target::{PuppetVersion, Target};
use crate::types::{TypeAliases, TypeSystem};
pub use blocks::{chosen_block_count, LambdaArity};
use scope::Scopes;
pub use type_strings::parse_type;

/// Bounds that keep evaluation finite and cheap; exceeding one makes the
/// outcome "cannot evaluate" rather than hanging or exhausting memory.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Maximum number of expression evaluations.
    pub max_steps: u64,
    /// Maximum nesting of expression evaluation and calls.
    pub max_depth: usize,
    /// Maximum number of elements in a produced collection or iteration.
    pub max_collection: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 200_000,
            max_depth: 150,
            max_collection: 100_000,
        }
    }
}

/// A user-visible evaluation error: what Puppet would raise, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    /// The message (informative, close to Puppet's).
    pub message: String,
    /// The expression that failed, in the body evaluation started in (an
    /// error inside a called function is placed at the call); `None` for
    /// a syntax or validation error of an evaluated text.
    pub at: Option<ExprId>,
}

/// Why evaluation of an expression did not produce a value normally.
///
/// Besides errors this carries Puppet's non-local control flow (`next`,
/// `break`, `return`), which unwinds through expression evaluation.
#[derive(Clone, Debug)]
pub enum Flow {
    /// Puppet raises an error.
    Error(EvalError),
    /// The result cannot be computed statically (not a user error).
    Unsupported(String),
    /// `next(value)` in a lambda or function body.
    Next(Value),
    /// `break()` in an iteration.
    Break,
    /// `return(value)` in a function.
    Return(Value),
}

/// The result of evaluating a source text.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The value of the last statement (`None` on error or when unsupported).
    pub value: Option<Value>,
    /// The error Puppet would raise.
    pub error: Option<EvalError>,
    /// Set when the evaluator cannot compute the result statically.
    pub unsupported: Option<String>,
    /// Warnings Puppet would log (e.g. string-to-number coercions).
    pub warnings: Vec<String>,
}

/// A constant evaluator. Create one per evaluation context; definitions
/// (functions, type aliases) are loaded from the evaluated source.
pub struct Evaluator {
    limits: Limits,
    steps: u64,
    depth: usize,
    pub aliases: TypeAliases,
    alias_names: Arc<HashSet<String>>,
    pub alias_display: Arc<Vec<String>>,
    /// Puppet-language functions, by lower-case name.
    functions: HashMap<String, Arc<Body>>,
    /// The body whose expressions are being evaluated.
    pub body: Arc<Body>,
    pub scopes: Scopes,
    warnings: Vec<String>,
    /// Resource types and classes known to exist (lower-case names).
    resource_types: Arc<HashSet<String>>,
    /// Whether this evaluator published its aliases for printing alias
    /// values on this thread (cleared again on drop).
    sets_display_aliases: bool,
    /// Whether the evaluated source is all there is (no modules): calls to
    /// functions that are neither defined nor Puppet's own are errors.
    pub closed_world: bool,
    /// Declared return types of functions defined outside the evaluated
    /// source (workspace functions), so their calls have a type.
    return_types: Arc<HashMap<String, Type>>,
    /// The Puppet evaluated as: its built-ins, and what `strict` makes
    /// fail.
    pub target: Target,
}

/// What an evaluator knows of a workspace (its resource types and classes,
/// type aliases and functions' return types), shared by the evaluators of
/// one workspace revision without copying: inference makes one evaluator
/// per item, and the workspace may have thousands of names.
#[derive(Debug, Clone)]
pub struct WorkspaceTables {
    aliases: TypeAliases,
    alias_names: Arc<HashSet<String>>,
    alias_display: Arc<Vec<String>>,
    resource_types: Arc<HashSet<String>>,
    return_types: Arc<HashMap<String, Type>>,
    target: Target,
}

impl WorkspaceTables {
    /// The workspace's aliases by name, for type checks that need no
    /// evaluator.
    pub fn aliases(&self) -> &TypeAliases {
        &self.aliases
    }
}

impl Default for WorkspaceTables {
    /// What a fresh evaluator knows: Puppet's own resource types.
    fn default() -> Self {
        WorkspaceTables {
            aliases: TypeAliases::default(),
            alias_names: Arc::default(),
            alias_display: Arc::default(),
            resource_types: core_resource_types(),
            return_types: Arc::default(),
            target: Target::default(),
        }
    }
}

impl Drop for Evaluator {
    fn drop(&mut self) {
        if self.sets_display_aliases {
            crate::types::alias::set_display_aliases(None);
        }
    }
}

/// The resource types built into Puppet (names Puppet resolves without modules).
const CORE_RESOURCE_TYPES: &[&str] = &[
    "augeas",
    "component",
    "computer",
    "cron",
    "exec",
    "file",
    "filebucket",
    "group",
    "host",
    "interface",
    "k5login",
    "macauthorization",
    "mailalias",
    "maillist",
    "mcx",
    "mount",
    "nagios_command",
    "notify",
    "package",
    "resources",
    "router",
    "schedule",
    "scheduled_task",
    "selboolean",
    "selmodule",
    "service",
    "ssh_authorized_key",
    "sshkey",
    "stage",
    "tidy",
    "user",
    "vlan",
    "whit",
    "yumrepo",
    "zfs",
    "zone",
    "zpool",
    "node",
];

/// The core resource types as a set, built once.
fn core_resource_types() -> Arc<HashSet<String>> {
    static CORE: std::sync::OnceLock<Arc<HashSet<String>>> = std::sync::OnceLock::new();
    CORE.get_or_init(|| Arc::new(CORE_RESOURCE_TYPES.iter().map(|s| s.to_string()).collect()))
        .clone()
}

/// Whether a type alias named `name` would redefine a type Puppet already
/// has: a built-in type or one of its own resource types.
fn is_builtin_type_name(version: PuppetVersion, name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let builtins = crate::builtins::builtins_for(version);
    Type::NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
        || (builtins.resource_type(&lower).is_some() && !builtins.is_vendored_core_type(&lower))
        || matches!(
            lower.as_str(),
            "node" | "component" | "whit" | "stage" | "annotation"
        )
}

impl Evaluator {
    /// A fresh evaluator with an empty top scope.
    pub fn new(limits: Limits) -> Self {
        Evaluator {
            limits,
            steps: 0,
            depth: 0,
            aliases: TypeAliases::new(),
            alias_names: Arc::default(),
            alias_display: Arc::default(),
            functions: HashMap::new(),
            body: Arc::new(Body::new(BodyKind::Manifest)),
            scopes: Scopes::new(),
            warnings: Vec::new(),
            resource_types: core_resource_types(),
            sets_display_aliases: false,
            closed_world: false,
            return_types: Arc::default(),
            target: Target::default(),
        }
    }

    /// Parses, validates and evaluates `text` as a manifest; the value is the
    /// last statement's.
    pub fn eval_source(&mut self, text: &str) -> Outcome {
        let (parse, errors) = puppet_syntax::parse_and_validate(text, SourceKind::Manifest);
        if let Some(e) = errors
            .iter()
            .find(|e| e.severity == puppet_syntax::Severity::Error)
        {
            return Outcome {
                error: Some(EvalError {
                    message: e.message.clone(),
                    at: None,
                }),
                ..Outcome::default()
            };
        }
        let file = lower_file(&parse.syntax_node(), SourceKind::Manifest);
        self.eval_file(&file)
    }

    /// Evaluates a lowered file: loads its definitions, then runs its
    /// statements in the top scope.
    pub fn eval_file(&mut self, file: &LoweredFile) -> Outcome {
        let result = self.load_definitions(file).and_then(|_| {
            self.body = file.top.clone();
            let statements = file.top.body.clone();
            self.eval_statements(&statements)
        });
        self.finish(result)
    }

    /// Evaluates one expression of `body` in the current scope (for hover
    /// and inference: set variables first with [`Evaluator::set_variable`]).
    pub fn eval_expression(&mut self, body: &Arc<Body>, expr: ExprId) -> Outcome {
        let saved = std::mem::replace(&mut self.body, body.clone());
        let result = self.eval(expr);
        self.body = saved;
        self.finish(result)
    }

    /// Starts a fresh step budget, for a caller that evaluates many
    /// independent expressions with one evaluator (type inference).
    pub fn reset_budget(&mut self) {
        self.steps = 0;
        self.depth = 0;
        self.warnings.clear();
    }

    /// An evaluator that knows a workspace's names (see [`Evaluator::tables`]).
    pub fn with_tables(limits: Limits, tables: &WorkspaceTables) -> Self {
        let mut ev = Evaluator::new(limits);
        ev.aliases = tables.aliases.clone();
        ev.alias_names = tables.alias_names.clone();
        ev.alias_display = tables.alias_display.clone();
        ev.resource_types = tables.resource_types.clone();
        ev.return_types = tables.return_types.clone();
        ev.target = tables.target;
        if !ev.aliases.is_empty() {
            crate::types::alias::set_display_aliases(Some(ev.aliases.clone()));
            ev.sets_display_aliases = true;
        }
        ev
    }

    /// What this evaluator knows of the workspace, to share with others.
    pub fn tables(&self) -> WorkspaceTables {
        WorkspaceTables {
            aliases: self.aliases.clone(),
            alias_names: self.alias_names.clone(),
            alias_display: self.alias_display.clone(),
            resource_types: self.resource_types.clone(),
            return_types: self.return_types.clone(),
            target: self.target,
        }
    }

    /// Treats the evaluated source as the whole program, as `puppet apply -e`
    /// without modules: unknown functions become errors instead of unknown
    /// values.
    pub fn set_closed_world(&mut self, closed: bool) {
        self.closed_world = closed;
    }

    /// Binds a variable in the current scope (e.g. a parameter as
    /// `Value::Unknown(type)`).
    pub fn set_variable(&mut self, name: &str, value: Value) {
        self.scopes.set(name, value);
    }

    /// Registers a resource type or class name as existing (so references
    /// such as `Apache::Vhost` evaluate instead of failing).
    pub fn add_resource_type(&mut self, name: &str) {
        Arc::make_mut(&mut self.resource_types)
            .insert(name.trim_start_matches("::").to_ascii_lowercase());
    }

    /// Makes type aliases defined elsewhere (the workspace's `types/`)
    /// known: first every name is declared, so definitions may refer to
    /// each other, then `define` evaluates each definition.
    pub fn add_aliases(
        &mut self,
        names: &[String],
        mut define: impl FnMut(&mut Self, &str) -> Option<Type>,
    ) {
        for name in names {
            if !self.is_alias(name) {
                Arc::make_mut(&mut self.alias_names).insert(name.to_ascii_lowercase());
                Arc::make_mut(&mut self.alias_display).push(name.clone());
            }
        }
        for name in names {
            let t = define(self, name).unwrap_or(Type::Any);
            self.aliases.insert(name, t);
        }
        crate::types::alias::set_display_aliases(Some(self.aliases.clone()));
        self.sets_display_aliases = true;
    }

    /// The declared return type of a function defined outside the
    /// evaluated source; its calls evaluate to an unknown of that type.
    pub fn set_function_return_type(&mut self, name: &str, t: Type) {
        Arc::make_mut(&mut self.return_types)
            .insert(name.trim_start_matches("::").to_ascii_lowercase(), t);
    }

    /// The type of the value a call to a function that cannot be evaluated
    /// returns: its declared return type, or Puppet's signature for `n`
    /// arguments.
    pub fn return_type_of(&self, key: &str, n: usize) -> Type {
        if let Some(t) = self.return_types.get(key) {
            return t.clone();
        }
        let builtins = crate::builtins::builtins_for(self.target.version);
        let Some(f) = builtins.function(key) else {
            return Type::Any;
        };
        let returns: Vec<Type> = f
            .signatures
            .iter()
            .filter(|s| s.accepts_arg_count(n))
            .map(|s| s.return_type())
            .collect();
        match returns.split_first() {
            Some((first, rest)) if *first != Type::Any && rest.iter().all(|t| t == first) => {
                first.clone()
            }
            _ => crate::builtins::functions::undeclared_return_type_text(key)
                .map_or(Type::Any, parse_type),
        }
    }

    /// Makes a Puppet-language function callable by name.
    pub fn add_function(&mut self, name: &str, body: Arc<Body>) {
        self.functions
            .insert(name.trim_start_matches("::").to_ascii_lowercase(), body);
    }

    /// Loads a file's functions, type aliases and resource types (Puppet
    /// loads them before evaluating).
    pub fn load_definitions(&mut self, file: &LoweredFile) -> Result<(), Flow> {
        let mut alias_defs = Vec::new();
        for def in &file.definitions {
            match def.kind {
                DefKind::Function => {
                    if self.functions.contains_key(&def.name) {
                        return Err(Flow::Error(EvalError {
                            message: format!("Attempt to redefine entity 'function {}'", def.name),
                            at: None,
                        }));
                    }
                    self.functions.insert(def.name.clone(), def.body.clone());
                }
                DefKind::TypeAlias => {
                    let defined_here = alias_defs
                        .iter()
                        .any(|d: &&LoweredDefinition| d.name.eq_ignore_ascii_case(&def.name));
                    if defined_here || is_builtin_type_name(self.target.version, &def.name) {
                        return Err(Flow::Error(EvalError {
                            message: format!(
                                "Attempt to redefine entity 'http://puppet.com/2016.1/runtime/type/{}'",
                                def.name.to_ascii_lowercase()
                            ),
                            at: None,
                        }));
                    }
                    Arc::make_mut(&mut self.alias_names).insert(def.name.to_ascii_lowercase());
                    Arc::make_mut(&mut self.alias_display).push(def.name.clone());
                    alias_defs.push(def);
                }
                DefKind::Class | DefKind::DefinedType => self.add_resource_type(&def.name),
                DefKind::Node | DefKind::Plan => {}
            }
        }
        for def in alias_defs {
            let t = match def.body.return_type {
                Some(value) => {
                    let saved = std::mem::replace(&mut self.body, def.body.clone());
                    let v = self.eval(value);
                    self.body = saved;
                    match v? {
                        Value::Type(t) => t,
                        other => {
                            return Err(Flow::Error(EvalError {
                                message: format!(
                                    "The type alias '{}' must be a Type, got {}",
                                    def.name,
                                    other.a_label()
                                ),
                                at: None,
                            }))
                        }
                    }
                }
                None => Type::Any,
            };
            self.aliases.insert(&def.name, t);
            crate::types::alias::set_display_aliases(Some(self.aliases.clone()));
            self.sets_display_aliases = true;
        }
        Ok(())
    }

    fn finish(&mut self, result: Result<Value, Flow>) -> Outcome {
        let warnings = std::mem::take(&mut self.warnings);
        match result {
            Ok(v) => Outcome {
                value: Some(v),
                warnings,
                ..Outcome::default()
            },
            Err(Flow::Error(e)) => Outcome {
                error: Some(e),
                warnings,
                ..Outcome::default()
            },
            Err(Flow::Unsupported(m)) => Outcome {
                unsupported: Some(m),
                warnings,
                ..Outcome::default()
            },
            Err(Flow::Return(_)) => Outcome {
                error: Some(EvalError {
                    message: "return() from context where this is illegal".into(),
                    at: None,
                }),
                warnings,
                ..Outcome::default()
            },
            Err(Flow::Next(v)) => Outcome {
                value: Some(v),
                warnings,
                ..Outcome::default()
            },
            Err(Flow::Break) => Outcome {
                error: Some(EvalError {
                    message: "break() from context where this is illegal".into(),
                    at: None,
                }),
                warnings,
                ..Outcome::default()
            },
        }
    }

    /// A type system bound to this evaluator's aliases.
    pub fn ts(&self) -> TypeSystem<'_> {
        TypeSystem::new(&self.aliases)
    }

    pub fn error(&self, at: ExprId, message: impl Into<String>) -> Flow {
        Flow::Error(EvalError {
            message: message.into(),
            at: Some(at),
        })
    }

    pub fn warn(&mut self, message: impl Into<String>) {
        self.warnings.push(message.into());
    }

    /// Counts one step; fails when the step budget is spent.
    pub fn step(&mut self) -> Result<(), Flow> {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(Flow::Unsupported(
                "cannot evaluate: step limit exceeded".into(),
            ));
        }
        Ok(())
    }

    /// Fails when a collection of `n` elements would exceed the size limit.
    pub fn check_size(&self, n: u128) -> Result<(), Flow> {
        if n > self.limits.max_collection as u128 {
            return Err(Flow::Unsupported(
                "cannot evaluate: collection too large".into(),
            ));
        }
        Ok(())
    }

    pub fn enter(&mut self) -> Result<(), Flow> {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            self.depth -= 1;
            return Err(Flow::Unsupported(
                "cannot evaluate: nesting too deep".into(),
            ));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    pub fn is_alias(&self, name: &str) -> bool {
        self.alias_names.contains(&name.to_ascii_lowercase())
    }
}
