//! The workspace definition index: every class, defined type, function,
//! type alias, plan and node of the workspace by name. Built only from the
//! position-free signatures, so it is rebuilt only when a file's set
//! of definitions (or their signatures) changes.

use crate::db::Item;
use crate::db::{SourceFile, Workspace};
use crate::hir::{item_place, DefKind, Signature};
use puppet_syntax::TextRange;
use std::collections::BTreeMap;

/// Where a definition is: its item and the item's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DefLocation {
    pub file: SourceFile,
    pub item: Item,
}

impl DefLocation {
    /// The whole definition and its name, in the file's current text.
    pub fn ranges(&self, db: &dyn salsa::Database) -> Option<(TextRange, TextRange)> {
        let place = item_place(db, self.item)?;
        Some((place.range, place.name_range))
    }
}

/// Classes and defined types share a namespace in Puppet (both are
/// resource types), as do functions and plans; type aliases and nodes have
/// their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Namespace {
    Class,
    DefinedType,
    Function,
    Type,
    Node,
}

impl Namespace {
    pub fn of(kind: DefKind) -> Namespace {
        match kind {
            DefKind::Class => Namespace::Class,
            DefKind::DefinedType => Namespace::DefinedType,
            DefKind::Function | DefKind::Plan => Namespace::Function,
            DefKind::TypeAlias => Namespace::Type,
            DefKind::Node => Namespace::Node,
        }
    }
}

/// Names are looked up case-insensitively, as Puppet's loaders do.
pub fn index_key(name: &str) -> String {
    name.trim_start_matches("::").to_lowercase()
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DefinitionIndex {
    entries: BTreeMap<(Namespace, String), Vec<DefLocation>>,
}

impl DefinitionIndex {
    /// All definitions of a name (more than one is a duplicate).
    pub fn lookup(&self, namespace: Namespace, name: &str) -> &[DefLocation] {
        self.entries
            .get(&(namespace, index_key(name)))
            .map_or(&[], Vec::as_slice)
    }

    pub fn iter(&self) -> impl Iterator<Item = (Namespace, &str, &[DefLocation])> {
        self.entries
            .iter()
            .map(|((ns, name), locations)| (*ns, name.as_str(), locations.as_slice()))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[salsa::tracked(returns(ref))]
pub fn definition_index(db: &dyn salsa::Database, workspace: Workspace) -> DefinitionIndex {
    let mut index = DefinitionIndex::default();
    for &file in workspace.files(db) {
        for &item in file.items(db) {
            let Some(def) = item.signature(db) else {
                continue;
            };
            index
                .entries
                .entry((Namespace::of(def.kind), index_key(&def.name)))
                .or_default()
                .push(DefLocation { file, item });
        }
    }
    index
}

/// A name to look up in one namespace, interned so that lookups can be
/// memoized per name.
#[salsa::interned(debug)]
pub struct DefName<'db> {
    pub namespace: Namespace,
    #[returns(ref)]
    pub name: String,
}

/// A definition found by name: where it is and what it says.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Resolved {
    pub location: DefLocation,
    pub definition: Signature,
}

/// The definitions of a name. Each name is its own query: when a
/// definition changes, only the analyses that looked up that name are
/// recomputed (the others see an equal result and stop).
#[salsa::tracked(returns(ref))]
pub fn resolve<'db>(
    db: &'db dyn salsa::Database,
    workspace: Workspace,
    name: DefName<'db>,
) -> Vec<Resolved> {
    definition_index(db, workspace)
        .lookup(*name.namespace(db), name.name(db))
        .iter()
        .filter_map(|&location| {
            Some(Resolved {
                location,
                definition: definition(db, location)?.clone(),
            })
        })
        .collect()
}

/// Looks a name up (interning it).
pub fn lookup<'db>(
    db: &'db dyn salsa::Database,
    workspace: Workspace,
    namespace: Namespace,
    name: &str,
) -> &'db [Resolved] {
    resolve(db, workspace, DefName::new(db, namespace, index_key(name)))
}

/// The signature of the definition a location points at.
pub fn definition(db: &dyn salsa::Database, location: DefLocation) -> Option<&Signature> {
    location.item.signature(db).as_ref()
}
