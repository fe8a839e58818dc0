//! The resolver's answers for a whole file, with file positions: what
//! navigation, completion, hover and semantic highlighting need. Built
//! from each item's position-free [`ItemScopes`] and source map; the
//! positions make it change with every edit, so nothing position-free
//! depends on it.

use super::scope::{
    item_scopes, DefSite, Failure, ScopeKind, ScopeOrigin, Target, VariableDefKind,
};
use crate::db::{SourceFile, Workspace};
use crate::hir::body::SegmentRange;
use crate::hir::{file_items, item_node, item_place, item_source_map, BodySourceMap, Name};
use crate::index::{lookup, Namespace};
use puppet_syntax::ast::{self, AstNode};
use puppet_syntax::{TextRange, TextSize};
use std::collections::BTreeSet;

/// One scope of the file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Scope {
    pub kind: ScopeKind,
    /// The whole construct (class, lambda...) or the file.
    pub range: TextRange,
    /// The enclosing scope in the text (even for scopes that do not see it).
    pub parent: Option<usize>,
    /// The qualified, lower-cased name of a class or define.
    pub name: Option<String>,
    /// See [`super::scope::ScopeData::dynamic_reads`].
    pub dynamic_reads: bool,
}

/// A variable definition in the file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VariableDef {
    /// Without `$`.
    pub name: String,
    /// The variable token of the parameter or assignment target.
    pub range: TextRange,
    pub kind: VariableDefKind,
    /// Index into [`Resolution::scopes`].
    pub scope: usize,
    /// Some reference of the file resolves to it.
    pub used: bool,
}

/// A reference's target, with local definitions as indices into
/// [`Resolution::definitions`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VariableRef {
    /// As written, without `$` (`::x` keeps its `::`).
    pub name: String,
    /// The variable token.
    pub range: TextRange,
    /// Index into [`Resolution::scopes`].
    pub scope: usize,
    pub target: FileTarget,
}

/// [`Target`] with local definitions as file-wide indices.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FileTarget {
    Local(Vec<usize>),
    Other(Target),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reassignment {
    pub name: String,
    /// The variable token of the second assignment.
    pub range: TextRange,
    /// The earlier definition; `None` for a variable the compiler sets.
    pub previous: Option<TextRange>,
    pub fails: Failure,
}

/// The variables of one file: scopes, definitions, references resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Resolution {
    pub scopes: Vec<Scope>,
    pub definitions: Vec<VariableDef>,
    /// In text order.
    pub references: Vec<VariableRef>,
    pub reassignments: Vec<Reassignment>,
}

impl Resolution {
    /// The reference whose token contains `offset`.
    pub fn reference_at(&self, offset: TextSize) -> Option<&VariableRef> {
        self.references
            .iter()
            .find(|r| r.range.contains_inclusive(offset))
    }

    /// The innermost scope whose construct contains `offset`.
    pub fn scope_at(&self, offset: TextSize) -> Option<usize> {
        self.scopes
            .iter()
            .enumerate()
            .filter(|(_, s)| s.range.contains_inclusive(offset))
            .min_by_key(|(_, s)| s.range.len())
            .map(|(i, _)| i)
    }

    /// The local definitions visible at `offset` (for completion), nearest
    /// scope first, one per name: those of the innermost scope and of the
    /// scopes it extends (lambdas see their enclosing scope), defined
    /// before `offset`. Also returns the scope where the walk stopped (a
    /// class, define... or the file's top scope), whose inherited, global
    /// and built-in variables the caller adds. Branches are not considered:
    /// a variable of an `else` arm is offered in the `if` arm after it.
    pub fn visible_at(&self, offset: TextSize) -> (Vec<&VariableDef>, Option<&Scope>) {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        let mut current = self.scope_at(offset);
        let mut terminal = None;
        while let Some(index) = current {
            let Some(scope) = self.scopes.get(index) else {
                break;
            };
            for def in self.definitions.iter().filter(|d| d.scope == index) {
                if def.range.end() <= offset
                    && !def.range.contains_inclusive(offset)
                    && seen.insert(def.name.as_str())
                {
                    out.push(def);
                }
            }
            terminal = Some(scope);
            if !scope.kind.extends_enclosing() {
                break;
            }
            current = scope.parent;
        }
        (out, terminal)
    }

    /// The definition whose token contains `offset`.
    pub fn definition_at(&self, offset: TextSize) -> Option<(usize, &VariableDef)> {
        self.definitions
            .iter()
            .enumerate()
            .find(|(_, d)| d.range.contains_inclusive(offset))
    }

    /// The definition ranges in this file a reference resolves to.
    pub fn definition_ranges(&self, reference: &VariableRef) -> Vec<TextRange> {
        match &reference.target {
            FileTarget::Local(defs) => defs
                .iter()
                .filter_map(|&d| self.definitions.get(d).map(|d| d.range))
                .collect(),
            FileTarget::Other(_) => Vec::new(),
        }
    }

    /// Every reference resolving to definition `def`.
    pub fn references_to(&self, def: usize) -> impl Iterator<Item = &VariableRef> {
        self.references
            .iter()
            .filter(move |r| matches!(&r.target, FileTarget::Local(defs) if defs.contains(&def)))
    }
}

/// The resolution of every item of a file, in file positions.
#[salsa::tracked(returns(ref))]
pub fn variable_resolution(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Resolution {
    let items = file_items(db, file);
    let places = file.places(db);
    let mut out = Resolution::default();
    // The scope of each item's body, to parent nested items' scopes.
    let mut body_scopes: Vec<Option<usize>> = vec![None; items.items.len()];
    for (i, (item, place)) in items.items.iter().zip(&places.items).enumerate() {
        let scopes = item_scopes(db, workspace, item.item);
        let map = item_source_map(db, item.item);
        let scope_base = out.scopes.len();
        let def_base = out.definitions.len();
        let name = match item.kind {
            crate::hir::ItemKind::Definition(
                crate::hir::DefKind::Class | crate::hir::DefKind::DefinedType,
            ) => Some(item.name.clone()),
            _ => None,
        };
        for scope in &scopes.scopes {
            let range = match scope.origin {
                ScopeOrigin::Body => item.range,
                ScopeOrigin::Lambda(l) => place.absolute(map.lambda_range(l)),
                ScopeOrigin::Apply(e) => place.absolute(map.expr_range(e)),
            };
            let parent = match scope.parent {
                Some(p) => Some(scope_base + p.0 as usize),
                None if i == 0 => None,
                None => body_scopes.get(item.parent.0 as usize).copied().flatten(),
            };
            out.scopes.push(Scope {
                kind: scope.kind,
                range,
                parent,
                name: (scope.origin == ScopeOrigin::Body)
                    .then(|| name.clone())
                    .flatten(),
                dynamic_reads: scope.dynamic_reads,
            });
        }
        body_scopes[i] = (!scopes.scopes.is_empty()).then_some(scope_base);
        for def in &scopes.defs {
            let range = def_site_range(&map, def.site).map(|r| place.absolute(r));
            out.definitions.push(VariableDef {
                name: def.name.to_string(),
                range: range.unwrap_or_default(),
                kind: def.kind,
                scope: scope_base + def.scope.0 as usize,
                used: def.used,
            });
        }
        for reference in &scopes.refs {
            out.references.push(VariableRef {
                name: reference.name.to_string(),
                range: place.absolute(map.expr_range(reference.expr)),
                scope: scope_base + reference.scope.0 as usize,
                target: match &reference.target {
                    Target::Local(defs) => {
                        FileTarget::Local(defs.iter().map(|d| def_base + d.0 as usize).collect())
                    }
                    other => FileTarget::Other(other.clone()),
                },
            });
        }
        for r in &scopes.reassignments {
            let def_range = |d: super::scope::VarDefId| {
                out.definitions
                    .get(def_base + d.0 as usize)
                    .map(|d| d.range)
            };
            let Some(range) = def_range(r.def) else {
                continue;
            };
            out.reassignments.push(Reassignment {
                name: scopes.def(r.def).name.to_string(),
                range,
                previous: r.previous.and_then(def_range),
                fails: r.fails,
            });
        }
    }
    out.references.sort_by_key(|r| r.range.start());
    out
}

/// Where a class variable is defined: the file and the range of its
/// parameter or first class-scope assignment (for go-to-definition on
/// inherited and qualified references).
pub fn class_variable_definition(
    db: &dyn salsa::Database,
    workspace: Workspace,
    class: &str,
    name: &str,
) -> Option<(SourceFile, TextRange)> {
    let found = lookup(db, workspace, Namespace::Class, class);
    let resolved = found.first()?;
    let file = resolved.location.file;
    let item = resolved.location.item;
    let class_def = item_node(db, item).and_then(ast::ClassDef::cast)?;
    for param in class_def.params().iter().flat_map(|p| p.params()) {
        if param.name().as_deref() == Some(name) {
            return Some((file, param.variable_token()?.text_range()));
        }
    }
    // The first class-scope assignment (outside lambdas) of the name.
    let scopes = item_scopes(db, workspace, item);
    let map = item_source_map(db, item);
    let place = item_place(db, item)?;
    let wanted: Name = crate::hir::body::name(name);
    scopes
        .defs
        .iter()
        .find(|d| d.name == wanted && d.kind == VariableDefKind::Assignment && d.scope.0 == 0)
        .and_then(|d| match d.site {
            DefSite::Target(e) => Some((file, place.absolute(map.expr_range(e)))),
            _ => None,
        })
}

/// Where a definition site is, in its item's segments.
pub fn def_site_range(map: &BodySourceMap, site: DefSite) -> Option<SegmentRange> {
    match site {
        DefSite::Param(p) => map.param_range(p as usize),
        DefSite::LambdaParam(l, p) => map.lambda_param_range(l, p as usize),
        DefSite::Target(e) => Some(map.expr_range(e)),
    }
}
