//! Declared types (of parameters, of function signatures) resolved the way
//! Puppet resolves them: with the workspace's type aliases, as inference
//! evaluates them ([`crate::infer::type_context`]), so that
//! `Webapp::Port $port` is checked like `Integer[1, 65535] $port`.
//!
//! What cannot be resolved (an alias of a module that is not in the
//! workspace, an alias cycle with no real type, a type the evaluator does
//! not support) is no type at all: the checks using it stay silent.

use crate::db::Workspace;
use crate::eval::Evaluator;
use crate::infer::{evaluate_type, type_context};
use crate::types::alias::expand_aliases;
use crate::types::Type;
use crate::values::Value;
use std::cell::RefCell;
use std::collections::HashMap;

/// The workspace's type evaluator, built on first use (most items never
/// need it), with the types it resolved.
pub(super) struct WorkspaceTypes<'a> {
    db: &'a dyn salsa::Database,
    workspace: Workspace,
    evaluator: RefCell<Option<Evaluator>>,
    resolved: RefCell<HashMap<String, Option<Type>>>,
}

impl<'a> WorkspaceTypes<'a> {
    pub fn new(db: &'a dyn salsa::Database, workspace: Workspace) -> Self {
        WorkspaceTypes {
            db,
            workspace,
            evaluator: RefCell::new(None),
            resolved: RefCell::new(HashMap::new()),
        }
    }

    fn with_evaluator<R>(&self, f: impl FnOnce(&mut Evaluator) -> R) -> R {
        let mut evaluator = self.evaluator.borrow_mut();
        let ev = evaluator.get_or_insert_with(|| type_context(self.db, self.workspace).evaluator());
        f(ev)
    }

    /// The type a declaration's text denotes, `None` when it cannot be
    /// resolved.
    pub fn resolve(&self, text: &str) -> Option<Type> {
        if let Some(t) = self.resolved.borrow().get(text) {
            return t.clone();
        }
        let t = self.with_evaluator(|ev| evaluate_type(ev, text));
        self.resolved
            .borrow_mut()
            .insert(text.to_string(), t.clone());
        t
    }

    /// Whether Puppet would reject `value` for type `t`: only a sure "no"
    /// counts (not an undecidable pattern or unknown alias).
    pub fn rejects(&self, t: &Type, value: &Value) -> bool {
        self.with_evaluator(|ev| ev.ts().instance_of(t, value) == Some(false))
    }

    /// The type as written, then what its aliases stand for when it has
    /// any: `Webapp::Port (Integer[1, 65535])`. Aliases in aliases are
    /// expanded too unless that makes the text long (`Stdlib::Host`'s
    /// patterns): then one level only.
    pub fn describe(&self, t: &Type) -> String {
        const LONG: usize = 160;
        self.with_evaluator(|ev| {
            let resolver = ev.ts().resolver();
            let mut expanded = expand_aliases(t, resolver, usize::MAX);
            if expanded == *t {
                return t.to_string();
            }
            if expanded.to_string().len() > LONG {
                expanded = expand_aliases(t, resolver, 1);
            }
            format!("{t} ({expanded})")
        })
    }
}
