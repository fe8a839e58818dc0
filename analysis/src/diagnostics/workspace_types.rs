//! Declared types (of parameters, of function signatures) resolved the way
//! Puppet resolves them: with the workspace's type aliases, as inference
//! evaluates them ([`crate::infer::type_context`]), so that
//! `Webapp::Port $port` is checked like `Integer[1, 65535] $port`.
//!
//! What cannot be resolved (an alias of a module that is not in the
//! workspace, an alias cycle with no real type, a type the evaluator does
//! not support) is no type at all: the checks using it stay silent.

use super::types::{evaluate_as, is_constant};
use crate::db::Workspace;
use crate::infer::{evaluate_type, type_context};
use crate::model::{Type, Value};
use crate::types::alias::expand_aliases;
use crate::types::TypeSystem;
use puppet_syntax::ast::AstNode;

/// A declared type's text, interned so that its resolution is memoized.
#[salsa::interned(debug)]
struct TypeText<'db> {
    #[returns(ref)]
    text: String,
}

/// A resolved type; equal when the types are (for early cutoff).
#[derive(Debug, Clone, PartialEq)]
struct Resolved(Option<Type>);

impl Eq for Resolved {}

/// A type text naming workspace names, evaluated once per workspace
/// revision however many items declare it (building the workspace's
/// evaluator is the costly part).
#[salsa::tracked(returns(ref))]
fn resolve_type_text<'db>(
    db: &'db dyn salsa::Database,
    workspace: Workspace,
    text: TypeText<'db>,
) -> Resolved {
    let mut ev = type_context(db, workspace).evaluator();
    Resolved(evaluate_type(&mut ev, text.text(db)))
}

/// The workspace's view of declared types, for one item's checks.
pub(super) struct WorkspaceTypes<'a> {
    db: &'a dyn salsa::Database,
    workspace: Workspace,
}

impl<'a> WorkspaceTypes<'a> {
    pub fn new(db: &'a dyn salsa::Database, workspace: Workspace) -> Self {
        WorkspaceTypes { db, workspace }
    }

    /// The type a declaration's text denotes, `None` when it cannot be
    /// resolved. Built-in types alone need no workspace.
    pub fn resolve(&self, text: &str) -> Option<Type> {
        let parse = puppet_syntax::parse(text, puppet_syntax::SourceKind::Manifest);
        let expr = parse.tree().statements().next()?;
        if !parse.errors().is_empty() {
            return None;
        }
        if is_constant(expr.syntax()) {
            return match evaluate_as(&expr, self.target())? {
                Ok(Value::Type(t)) => Some(t),
                _ => None,
            };
        }
        let text = TypeText::new(self.db, text.to_string());
        resolve_type_text(self.db, self.workspace, text).0.clone()
    }

    /// The Puppet the workspace is checked for.
    pub fn target(&self) -> crate::target::Target {
        self.workspace.target(self.db)
    }

    fn types(&self) -> TypeSystem<'a> {
        TypeSystem::new(type_context(self.db, self.workspace).aliases())
    }

    /// Whether Puppet would reject `value` for type `t`: only a sure "no"
    /// counts (not an undecidable pattern or unknown alias).
    pub fn rejects(&self, t: &Type, value: &Value) -> bool {
        self.types().instance_of(t, value) == Some(false)
    }

    /// Whether two types contradict each other: neither contains the
    /// other (`Integer` and `String`; not `String` and `String[1]`).
    pub fn contradict(&self, a: &Type, b: &Type) -> bool {
        let types = self.types();
        !types.assignable(a, b) && !types.assignable(b, a)
    }

    /// The type as written, then what its aliases stand for when it has
    /// any: `Webapp::Port (Integer[1, 65535])`. Aliases in aliases are
    /// expanded too unless that makes the text long (`Stdlib::Host`'s
    /// patterns): then one level only.
    pub fn describe(&self, t: &Type) -> String {
        const LONG: usize = 160;
        let resolver = type_context(self.db, self.workspace).aliases();
        let mut expanded = expand_aliases(t, resolver, usize::MAX);
        if expanded == *t {
            return t.to_string();
        }
        if expanded.to_string().len() > LONG {
            expanded = expand_aliases(t, resolver, 1);
        }
        format!("{t} ({expanded})")
    }
}
