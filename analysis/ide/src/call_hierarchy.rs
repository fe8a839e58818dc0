//! Call hierarchy: who includes, contains, requires, inherits or declares a
//! class, declares a defined type or calls a function (incoming), and what
//! a class, defined type, function, plan or node does in turn (outgoing).
//!
//! Built on the occurrence index of references: an occurrence is a call
//! when the syntax around it uses the definition (an argument of
//! `include`/`contain`/`require`, a resource declaration's type or class
//! title, an `inherits` clause, a function's callee), not when it only
//! names it (`Class['x']` in a relationship, a type in a signature). The
//! caller is the innermost definition around the call, or the file itself
//! for top-level code such as `site.pp`.

use super::occurrences::{file_occurrences, occurrence_at, occurrences_of, Referent};
use super::targets::{index_targets, symbol_kind};
use super::{Cancellable, FilePosition, FileRange, NavigationTarget, SymbolKind};
use crate::Analysis;
use puppet_analysis::db::{parse, SourceFile, Workspace};
use puppet_analysis::hir::{file_definitions, DefKind};
use puppet_analysis::index::Namespace;
use puppet_syntax::ast::{self, AstNode};
use puppet_syntax::{NodeOrToken, SyntaxNode, TextRange, TextSize};
use std::collections::HashMap;

/// How a definition is used at a call site.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CallKind {
    Include,
    Contain,
    Require,
    Inherit,
    /// A resource declaration: `class { 'x': }` or `x::y { 'title': }`.
    Declare,
    /// A function call.
    Call,
}

/// One side of a call: the definition (or file) at the other end and the
/// ranges of the calls, in the file of the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HierarchyCall {
    pub item: NavigationTarget,
    pub ranges: Vec<TextRange>,
    pub kinds: Vec<CallKind>,
}

/// A call found in a file: where, how, and who makes it.
struct CallSite {
    range: TextRange,
    kind: CallKind,
    caller: NavigationTarget,
}

impl Analysis {
    /// The definitions a call hierarchy can start from at a position: a
    /// class, defined type, function or plan (by a reference or its own
    /// name), or a node's name (outgoing calls only).
    pub fn prepare_call_hierarchy(&self, pos: &FilePosition) -> Cancellable<Vec<NavigationTarget>> {
        self.with_db(|a| {
            let (db, workspace) = (a.db(), a.workspace());
            let Some(file) = a.file(&pos.path) else {
                return Vec::new();
            };
            if let Some(node) = definition_named_at(db, file, pos.offset)
                .filter(|target| target.kind == SymbolKind::Node)
            {
                return vec![node];
            }
            match occurrence_at(db, workspace, file, pos.offset).map(|o| o.referent) {
                Some(Referent::Definition(namespace, name)) if callable(namespace) => {
                    index_targets(db, workspace, namespace, &name)
                }
                _ => Vec::new(),
            }
        })
    }

    /// The callers of the definition whose name is at `pos` (an item
    /// [`Analysis::prepare_call_hierarchy`] gave), grouped by caller.
    pub fn incoming_calls(&self, pos: &FilePosition) -> Cancellable<Vec<HierarchyCall>> {
        self.with_db(|a| {
            let (db, workspace) = (a.db(), a.workspace());
            let Some(referent) = a.file(&pos.path).and_then(|file| {
                let target = definition_named_at(db, file, pos.offset)?;
                referent_of(&target)
            }) else {
                return Vec::new();
            };
            let sites = call_sites_of(db, workspace, &referent);
            group(
                sites
                    .into_iter()
                    .map(|site| (site.caller, site.range, site.kind)),
            )
        })
    }

    /// What the definition whose name is at `pos` calls, grouped by callee
    /// (ranges in the definition's file).
    pub fn outgoing_calls(&self, pos: &FilePosition) -> Cancellable<Vec<HierarchyCall>> {
        self.with_db(|a| {
            let (db, workspace) = (a.db(), a.workspace());
            let Some(file) = a.file(&pos.path) else {
                return Vec::new();
            };
            let Some(caller) = item_at(db, file, pos.offset) else {
                return Vec::new();
            };
            let root = parse(db, file).syntax_node();
            let calls = file_occurrences(db, workspace, file)
                .iter()
                .filter(|o| !o.declaration && caller.full_range.contains_range(o.range))
                .filter_map(|o| match &o.referent {
                    Referent::Definition(namespace, name) if callable(*namespace) => {
                        Some((*namespace, name, o.range))
                    }
                    _ => None,
                })
                // Calls made by a definition nested inside are its own.
                .filter(|(_, _, range)| caller_of(db, file, *range) == caller)
                .filter_map(|(namespace, name, range)| {
                    let kind = call_kind(&root, range)?;
                    let callee = index_targets(db, workspace, namespace, name)
                        .into_iter()
                        .next()?;
                    Some((callee, range, kind))
                });
            group(calls)
        })
    }
}

/// Where a definition is called, and how: for "included by N" lenses.
pub(crate) fn calls_of(
    db: &dyn salsa::Database,
    workspace: Workspace,
    referent: &Referent,
) -> Vec<(FileRange, CallKind)> {
    call_sites_of(db, workspace, referent)
        .into_iter()
        .map(|site| {
            let range = FileRange {
                path: site.caller.path,
                range: site.range,
            };
            (range, site.kind)
        })
        .collect()
}

/// Classes, defined types, functions and plans are called; type aliases
/// and nodes are not.
fn callable(namespace: Namespace) -> bool {
    matches!(
        namespace,
        Namespace::Class | Namespace::DefinedType | Namespace::Function
    )
}

/// The referent a definition's target stands for.
fn referent_of(target: &NavigationTarget) -> Option<Referent> {
    let namespace = match target.kind {
        SymbolKind::Class => Namespace::Class,
        SymbolKind::DefinedType => Namespace::DefinedType,
        SymbolKind::Function | SymbolKind::Plan => Namespace::Function,
        _ => return None,
    };
    Some(Referent::Definition(
        namespace,
        puppet_analysis::index::index_key(&target.name),
    ))
}

/// The definition of a file whose name is at `offset`.
fn definition_named_at(
    db: &dyn salsa::Database,
    file: SourceFile,
    offset: TextSize,
) -> Option<NavigationTarget> {
    file_definitions(db, file)
        .find(|(_, _, place)| place.name_range.contains_inclusive(offset))
        .map(|(_, def, place)| definition_target(db, file, def, place.range, place.name_range))
}

fn definition_target(
    db: &dyn salsa::Database,
    file: SourceFile,
    def: &puppet_analysis::hir::Signature,
    full_range: TextRange,
    focus_range: TextRange,
) -> NavigationTarget {
    NavigationTarget {
        path: file.path(db).clone(),
        full_range,
        focus_range,
        name: def.name.clone(),
        kind: symbol_kind(def.kind),
    }
}

/// The innermost definition (node included) around a range of a file.
fn innermost_caller(
    db: &dyn salsa::Database,
    file: SourceFile,
    range: TextRange,
) -> Option<NavigationTarget> {
    file_definitions(db, file)
        .filter(|(_, def, place)| {
            def.kind != DefKind::TypeAlias && place.range.contains_range(range)
        })
        .min_by_key(|(_, _, place)| place.range.len())
        .map(|(_, def, place)| definition_target(db, file, def, place.range, place.name_range))
}

/// The file itself as a caller, for top-level code.
fn file_caller(db: &dyn salsa::Database, file: SourceFile) -> NavigationTarget {
    let path = file.path(db).clone();
    let end = TextSize::of(file.text(db).as_ref());
    NavigationTarget {
        name: path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        path,
        full_range: TextRange::new(TextSize::new(0), end),
        focus_range: TextRange::empty(TextSize::new(0)),
        kind: SymbolKind::File,
    }
}

/// The caller a call at `range` is made by.
fn caller_of(db: &dyn salsa::Database, file: SourceFile, range: TextRange) -> NavigationTarget {
    innermost_caller(db, file, range).unwrap_or_else(|| file_caller(db, file))
}

/// The item a hierarchy request names: the definition whose name is at
/// `offset`, or the file's top level at its start.
fn item_at(
    db: &dyn salsa::Database,
    file: SourceFile,
    offset: TextSize,
) -> Option<NavigationTarget> {
    definition_named_at(db, file, offset)
        .or_else(|| (offset == TextSize::new(0)).then(|| file_caller(db, file)))
}

/// Every call of a definition in the workspace.
fn call_sites_of(
    db: &dyn salsa::Database,
    workspace: Workspace,
    referent: &Referent,
) -> Vec<CallSite> {
    let mut trees: HashMap<SourceFile, SyntaxNode> = HashMap::new();
    occurrences_of(db, workspace, referent)
        .into_iter()
        .filter(|(_, o)| !o.declaration)
        .filter_map(|(file, o)| {
            let root = trees
                .entry(file)
                .or_insert_with(|| parse(db, file).syntax_node());
            let kind = call_kind(root, o.range)?;
            let caller = caller_of(db, file, o.range);
            Some(CallSite {
                range: o.range,
                kind,
                caller,
            })
        })
        .collect()
}

/// Groups calls by the item at their other end, in the order first seen.
fn group(
    calls: impl Iterator<Item = (NavigationTarget, TextRange, CallKind)>,
) -> Vec<HierarchyCall> {
    let mut out: Vec<HierarchyCall> = Vec::new();
    for (item, range, kind) in calls {
        match out.iter_mut().find(|c| c.item == item) {
            Some(call) => {
                call.ranges.push(range);
                call.kinds.push(kind);
            }
            None => out.push(HierarchyCall {
                item,
                ranges: vec![range],
                kinds: vec![kind],
            }),
        }
    }
    for call in &mut out {
        let mut pairs: Vec<(TextRange, CallKind)> = call
            .ranges
            .iter()
            .copied()
            .zip(call.kinds.iter().copied())
            .collect();
        pairs.sort_by_key(|(r, _)| (r.start(), r.end()));
        (call.ranges, call.kinds) = pairs.into_iter().unzip();
    }
    out
}

/// How the reference at `range` uses what it names, if it is a call.
fn call_kind(root: &SyntaxNode, range: TextRange) -> Option<CallKind> {
    let start = match root.covering_element(range) {
        NodeOrToken::Node(node) => node,
        NodeOrToken::Token(token) => token.parent()?,
    };
    for node in start.ancestors() {
        if let Some(call) = ast::CallExpr::cast(node.clone()) {
            if call
                .callee()
                .is_some_and(|c| c.syntax().text_range().contains_range(range))
            {
                return Some(CallKind::Call);
            }
            return call.function_name().as_deref().and_then(class_function);
        }
        if let Some(call) = ast::StatementCall::cast(node.clone()) {
            if call
                .name_expr()
                .is_some_and(|n| n.syntax().text_range().contains_range(range))
            {
                return Some(CallKind::Call);
            }
            return call.name().as_deref().and_then(class_function);
        }
        if let Some(call) = ast::MethodCallExpr::cast(node.clone()) {
            return call
                .name_token()
                .is_some_and(|t| t.text_range().contains_range(range))
                .then_some(CallKind::Call);
        }
        if let Some(resource) = ast::ResourceExpr::cast(node.clone()) {
            let declares_type = resource
                .type_expr()
                .is_some_and(|t| t.syntax().text_range().contains_range(range));
            let declares_class = resource
                .type_expr()
                .and_then(|t| t.static_string())
                .is_some_and(|t| t.eq_ignore_ascii_case("class"))
                && resource
                    .syntax()
                    .children()
                    .filter_map(ast::ResourceBody::cast)
                    .any(|b| {
                        b.title()
                            .is_some_and(|t| t.syntax().text_range().contains_range(range))
                    });
            return (declares_type || declares_class).then_some(CallKind::Declare);
        }
        if ast::InheritsClause::can_cast(node.kind()) {
            return Some(CallKind::Inherit);
        }
        // A reference (`Class['x']`), a type, an attribute's value: a
        // name, not a use.
        if ast::AccessExpr::can_cast(node.kind())
            || ast::Attribute::can_cast(node.kind())
            || ast::Param::can_cast(node.kind())
        {
            return None;
        }
    }
    None
}

/// The functions that evaluate the classes they are given.
fn class_function(name: &str) -> Option<CallKind> {
    match name.trim_start_matches("::") {
        "include" => Some(CallKind::Include),
        "contain" => Some(CallKind::Contain),
        "require" => Some(CallKind::Require),
        _ => None,
    }
}
