//! Definitions of the index as navigation targets, shared by navigation,
//! symbols, call hierarchies and module metadata.

use super::{NavigationTarget, SymbolKind};
use puppet_analysis::db::Workspace;
use puppet_analysis::hir::DefKind;
use puppet_analysis::index::{lookup, Namespace};

/// The kind shown for a definition.
pub(crate) fn symbol_kind(kind: DefKind) -> SymbolKind {
    match kind {
        DefKind::Class => SymbolKind::Class,
        DefKind::DefinedType => SymbolKind::DefinedType,
        DefKind::Function => SymbolKind::Function,
        DefKind::Plan => SymbolKind::Plan,
        DefKind::TypeAlias => SymbolKind::TypeAlias,
        DefKind::Node => SymbolKind::Node,
    }
}

/// The definitions of a name in the index, as navigation targets.
pub(crate) fn index_targets(
    db: &dyn salsa::Database,
    workspace: Workspace,
    namespace: Namespace,
    name: &str,
) -> Vec<NavigationTarget> {
    lookup(db, workspace, namespace, name)
        .iter()
        .filter_map(|resolved| {
            let (full_range, focus_range) = resolved.location.ranges(db)?;
            Some(NavigationTarget {
                path: resolved.location.file.path(db).clone(),
                full_range,
                focus_range,
                name: resolved.definition.name.clone(),
                kind: symbol_kind(resolved.definition.kind),
            })
        })
        .collect()
}
