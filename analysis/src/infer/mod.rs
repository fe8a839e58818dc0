//! Type inference for every expression of an item.
//!
//! A walk over an item's lowered body in flow order keeps what each
//! variable holds (a known value or only a type) and records, for every
//! expression, its [`Inferred`] type and, when it is a constant, its value.
//! Constants come from the evaluator (one implementation of Puppet's
//! semantics), run with the variables the expression reads bound to what
//! the walk knows, so `$port = 8000 + 80` is `Integer[8080, 8080]` with the
//! value `8080` and `$p + 1` with `Integer[1, 10] $p` is `Integer[2, 11]`.
//! On top of the evaluator the walk knows:
//! - declared parameter types of classes, defined types, functions, plans,
//!   lambdas and EPP templates;
//! - function return types (workspace functions' `>> T`, Puppet's
//!   signatures);
//! - lambda parameter types from the iterated value's element type;
//! - narrowing in `if $x =~ T`, `if $x`, `unless`, `case` options and
//!   selector entries;
//! - facts' types (`$facts['os']['family']` is `String`);
//! - values flowing through variables, merged after branches;
//! - variables of other classes and of the top scope, from their own
//!   items' inference (through [`class_variable_type`] and
//!   [`global_variable_type`]).
//!
//! Each item's inference is a query ([`infer_item`]) of its body: an edit
//! in one class infers that class again, and what depends on its
//! variables only if their types changed. What cannot be known stays
//! `Any`, never a guess.

mod context;
mod narrow;
mod ops;
mod validation;
mod walk;

pub(crate) use context::evaluate_type;
pub use context::{type_context, TypeContext};

use crate::db::Item;
use crate::db::{SourceFile, Workspace};
use crate::hir::body::{Body, ExprId, Name};
use crate::hir::{file_items, item_body, item_place, item_source_map};
use crate::index::{lookup, Namespace};
use crate::model::{Type, Value};
use crate::resolve::resolution::def_site_range;
use crate::resolve::scope::{item_scopes, DefSite};
use puppet_syntax::{SyntaxNode, TextRange};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// What is known of an expression: always a type, and the value when the
/// expression is a constant.
#[derive(Debug, Clone, PartialEq)]
pub struct Inferred {
    pub ty: Type,
    pub value: Option<Value>,
}

impl Inferred {
    pub fn any() -> Inferred {
        Inferred::of_type(Type::Any)
    }

    pub fn of_type(ty: Type) -> Inferred {
        Inferred { ty, value: None }
    }

    /// A known value, typed as Puppet's `type($v, 'reduced')` would.
    pub fn of_value(value: Value) -> Inferred {
        match value {
            Value::Unknown(t) => Inferred::of_type(t),
            // Kept as its type: unknowns never compare equal, and
            // inference results must (early cut-off).
            v if v.is_unknown() => Inferred::of_type(crate::types::infer::infer(&v)),
            v => Inferred {
                ty: crate::types::infer::infer(&v),
                value: Some(v),
            },
        }
    }

    /// The value as the evaluator takes it (`Unknown(type)` when not known).
    pub fn to_value(&self) -> Value {
        match &self.value {
            Some(v) => v.clone(),
            None => Value::Unknown(self.ty.clone()),
        }
    }
}

/// An item scope's variables after its last statement: what other items
/// read as its variables.
pub type FinalVars = BTreeMap<Name, Inferred>;

/// What inference knows of one item, position-free: every expression by
/// its id and every variable definition by its site.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemTypes {
    exprs: Vec<Option<Inferred>>,
    /// Parameters (of the item and its lambdas); assignment targets are
    /// expressions.
    pub defs: HashMap<DefSite, Inferred>,
}

impl Eq for ItemTypes {}

impl ItemTypes {
    fn new(body: &Body) -> ItemTypes {
        ItemTypes {
            exprs: vec![None; body.len()],
            ..ItemTypes::default()
        }
    }

    pub fn get(&self, id: ExprId) -> Option<&Inferred> {
        self.exprs.get(id.index())?.as_ref()
    }

    fn set(&mut self, id: ExprId, value: Inferred) {
        if let Some(slot) = self.exprs.get_mut(id.index()) {
            *slot = Some(value);
        }
    }

    /// What a variable definition holds.
    pub fn def(&self, site: DefSite) -> Option<&Inferred> {
        match site {
            DefSite::Target(e) => self.get(e),
            other => self.defs.get(&other),
        }
    }
}

/// How many items an inference may look through: a class reading
/// `$params::x`, where `x` is computed from another class's variable, is
/// two hops. Each level of inference reads the level below for other
/// items, so no inference ever waits for itself (classes may read each
/// other's variables); at level 0 other items are `Any`.
const HOPS: u8 = 2;

/// Infers one item (every expression's type), reading other items'
/// variables at level `HOPS - 1`: what hovers, checks and IDE features
/// read.
///
/// Kept for a bounded number of items (the largest results of the
/// database): a whole-workspace check drops them as it goes, and an
/// evicted item is inferred again when asked.
#[salsa::tracked(returns(ref), lru = 32)]
pub fn infer_item(db: &dyn salsa::Database, workspace: Workspace, item: Item) -> Arc<ItemTypes> {
    Arc::new(walk_item(db, workspace, item, HOPS).0)
}

/// An item's variables at the end of its own scope, as inference at level
/// `hops` leaves them: what other items read as its variables. Only these
/// are kept (not every expression's type), so the levels below the top
/// cost little memory, and an edit that leaves them equal stops here.
#[salsa::tracked(returns(ref))]
pub fn item_final_vars(
    db: &dyn salsa::Database,
    workspace: Workspace,
    item: Item,
    hops: u8,
) -> Arc<FinalVars> {
    Arc::new(walk_item(db, workspace, item, hops).1)
}

/// Walks one item's body, reading other items' variables at level
/// `hops - 1`.
fn walk_item(
    db: &dyn salsa::Database,
    workspace: Workspace,
    item: Item,
    hops: u8,
) -> (ItemTypes, FinalVars) {
    let body = item_body(db, item);
    let scopes = item_scopes(db, workspace, item);
    let ctx = type_context(db, workspace);
    let functions = called_functions(db, workspace, body);
    let outside = Others {
        db,
        workspace,
        hops: hops.saturating_sub(1),
        enabled: hops > 0,
    };
    walk::Walker::new(ctx, body, scopes, &outside, &functions).run()
}

/// The workspace's Puppet-language functions a body calls, directly or
/// through each other, so that calls to them evaluate (only these: an
/// edit in another function does not infer this item again).
fn called_functions(
    db: &dyn salsa::Database,
    workspace: Workspace,
    body: &Arc<Body>,
) -> Vec<(String, Arc<Body>)> {
    let mut found: Vec<(String, Arc<Body>)> = Vec::new();
    let mut pending: Vec<Arc<Body>> = vec![body.clone()];
    while let Some(body) = pending.pop() {
        for (_, expr) in body.exprs() {
            let (crate::hir::body::Expr::Call { function, .. }
            | crate::hir::body::Expr::MethodCall { function, .. }) = expr
            else {
                continue;
            };
            let key = crate::index::index_key(function);
            if found.iter().any(|(n, _)| *n == key) || found.len() >= 32 {
                continue;
            }
            let Some(resolved) = lookup(db, workspace, Namespace::Function, &key).first() else {
                continue;
            };
            if resolved.definition.kind != crate::hir::DefKind::Function {
                continue;
            }
            let callee = item_body(db, resolved.location.item);
            pending.push(callee.clone());
            found.push((key, callee.clone()));
        }
    }
    found
}

/// What the rest of the workspace tells an item's inference, one level
/// down.
struct Others<'a> {
    db: &'a dyn salsa::Database,
    workspace: Workspace,
    hops: u8,
    enabled: bool,
}

impl walk::Outside for Others<'_> {
    fn class_variable(&self, class: &str, name: &str) -> Inferred {
        if !self.enabled {
            return Inferred::any();
        }
        class_variable_type(
            self.db,
            self.workspace,
            class.to_string(),
            name.to_string(),
            self.hops,
        )
        .clone()
    }

    fn global(&self, name: &str) -> Option<Inferred> {
        if !self.enabled {
            return None;
        }
        global_variable_type(self.db, self.workspace, name.to_string(), self.hops).clone()
    }

    fn module_fact(&self, name: &str) -> Option<Type> {
        // Not another item's inference: no hop limit.
        crate::module_facts::module_facts(self.db, self.workspace)
            .get(&name.to_ascii_lowercase())
            .map(|v| v.fact_type())
    }
}

/// The type of variable `name` of `class` (or of the class it inherits
/// it from), as the class's inference at level `hops` leaves it.
#[salsa::tracked(returns(ref))]
pub fn class_variable_type(
    db: &dyn salsa::Database,
    workspace: Workspace,
    class: String,
    name: String,
    hops: u8,
) -> Inferred {
    let mut current = crate::index::index_key(&class);
    let key = crate::hir::body::name(&name);
    for _ in 0..64 {
        let found = lookup(db, workspace, Namespace::Class, &current);
        let Some(resolved) = found.first() else {
            return Inferred::any();
        };
        let vars = item_final_vars(db, workspace, resolved.location.item, hops);
        if let Some(found) = vars.get(&key) {
            return found.clone();
        }
        match &resolved.definition.parent {
            Some(parent) => current = crate::index::index_key(parent),
            None => break,
        }
    }
    // Every class has the variables the compiler sets.
    match name.as_str() {
        "title" | "name" | "module_name" | "caller_module_name" => {
            Inferred::of_type(Type::string())
        }
        _ => Inferred::any(),
    }
}

/// The type of a top- or node-scope variable: what every file assigning
/// it at top level or in a node leaves there (at level `hops`), joined
/// (which node a catalog is for is not known).
#[salsa::tracked(returns(ref))]
pub fn global_variable_type(
    db: &dyn salsa::Database,
    workspace: Workspace,
    name: String,
    hops: u8,
) -> Option<Inferred> {
    let key = crate::hir::body::name(&name);
    let files = crate::resolve::scope::workspace_globals(db, workspace).get(&key)?;
    let ev = type_context(db, workspace).evaluator();
    let ts = ev.ts();
    let mut joined: Option<Inferred> = None;
    for &file in files {
        for &item in file.items(db) {
            let global = match item.kind(db) {
                crate::hir::ItemKind::TopLevel => true,
                crate::hir::ItemKind::Definition(kind) => kind == crate::hir::DefKind::Node,
            };
            if !global {
                continue;
            }
            let vars = item_final_vars(db, workspace, item, hops);
            if let Some(found) = vars.get(&key) {
                joined = Some(match joined {
                    None => found.clone(),
                    Some(j) if j == *found => j,
                    Some(j) => Inferred::of_type(narrow::union(&ts, &j.ty, &found.ty)),
                });
            }
        }
    }
    joined
}

/// The inferred types of a file's expressions, by the range of their node,
/// plus those of variable definitions (assignment targets, parameters).
#[derive(Debug, Default)]
pub struct FileTypes {
    exprs: HashMap<TextRange, Inferred>,
    /// Assignment targets and parameters, in text order.
    definitions: Vec<(TextRange, Inferred)>,
}

impl FileTypes {
    /// What is known of the expression or variable definition at `range`.
    pub fn get(&self, range: TextRange) -> Option<&Inferred> {
        self.exprs.get(&range)
    }

    /// What is known of the innermost expression around `node` (the node
    /// itself or its closest recorded ancestor).
    pub fn enclosing(&self, node: &SyntaxNode) -> Option<(TextRange, &Inferred)> {
        node.ancestors().find_map(|n| {
            let r = n.text_range();
            self.exprs.get(&r).map(|i| (r, i))
        })
    }

    /// Every variable definition (assignment target, parameter) with what
    /// it holds, in text order: for inlay hints.
    pub fn definitions(&self) -> &[(TextRange, Inferred)] {
        &self.definitions
    }

    pub fn len(&self) -> usize {
        self.exprs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.exprs.is_empty()
    }
}

/// Infers every expression of `file` in the context of its workspace, in
/// file positions (IDE features ask [`infer_range`] for what they need).
pub fn infer_file(db: &dyn salsa::Database, workspace: Workspace, file: SourceFile) -> FileTypes {
    let mut out = FileTypes::default();
    for &item in file.items(db) {
        project(db, workspace, item, None, &mut out);
    }
    out.definitions
        .sort_by_key(|(range, _)| (range.start(), range.end()));
    out
}

/// What is known of the expressions and definitions of `file` that overlap
/// `range` (those around it included): only these are copied out, so that
/// a hover costs what it looks at, not the size of the item.
pub fn infer_range(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    range: TextRange,
) -> FileTypes {
    let mut out = FileTypes::default();
    for item in &file_items(db, file).items {
        let touches = item.range.intersect(range).is_some() || item.range.contains_range(range);
        if touches {
            project(db, workspace, item.item, Some(range), &mut out);
        }
    }
    out.definitions
        .sort_by_key(|(range, _)| (range.start(), range.end()));
    out
}

/// Adds an item's inference to `out`, in file positions: all of it, or
/// what overlaps `only`.
fn project(
    db: &dyn salsa::Database,
    workspace: Workspace,
    item: Item,
    only: Option<TextRange>,
    out: &mut FileTypes,
) {
    let wanted = |range: TextRange| only.is_none_or(|only| range.intersect(only).is_some());
    let Some(place) = item_place(db, item) else {
        return;
    };
    let map = item_source_map(db, item);
    let types = infer_item(db, workspace, item);
    let scopes = item_scopes(db, workspace, item);
    for (i, inferred) in types.exprs.iter().enumerate() {
        let Some(inferred) = inferred else { continue };
        let range = place.absolute(map.expr_range(crate::hir::body::ExprId::from_index(i)));
        if wanted(range) {
            out.exprs.entry(range).or_insert_with(|| inferred.clone());
        }
    }
    for def in &scopes.defs {
        let range = def_site_range(&map, def.site);
        let (Some(range), Some(inferred)) = (range, types.def(def.site)) else {
            continue;
        };
        let range = place.absolute(range);
        if !wanted(range) {
            continue;
        }
        out.exprs.insert(range, inferred.clone());
        out.definitions.push((range, inferred.clone()));
    }
}
