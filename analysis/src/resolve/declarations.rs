//! Where classes are declared: `include`, `contain` and `require` calls and
//! resource-like `class { 'x': }` declarations (each item's, read by
//! `declared/published.rs` into the item's published input). Reading
//! `$cls::x` fails under Puppet 8 (and warns under Puppet 7) when class
//! `cls` has not been evaluated yet; puppet-ls proves that only when nothing
//! could have declared it before the read: no declaration earlier in the
//! reading body, none in any other item of the workspace, and no
//! declaration whose class is computed (`include $role`,
//! `lookup('classes').include`), which could be any class.

use crate::db::{Item, Workspace};
use std::collections::BTreeMap;

/// Every class the workspace declares, with the items declaring it; and
/// whether some item declares classes by a computed name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkspaceDeclarations {
    pub declarers: BTreeMap<String, Vec<Item>>,
    pub computed: bool,
}

/// Reads only what items publish, so that typing in a body that declares
/// the same classes re-runs nothing that reads this.
#[salsa::tracked(returns(ref))]
pub fn workspace_declarations(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> WorkspaceDeclarations {
    let mut out = WorkspaceDeclarations::default();
    for &file in workspace.files(db) {
        for &item in file.items(db) {
            let published = item.published(db);
            out.computed |= published.declares_computed_classes;
            for class in &published.declared_classes {
                out.declarers.entry(class.clone()).or_default().push(item);
            }
        }
    }
    out
}

/// The classes the workspace declares resource-like (`class { 'x': }`),
/// and whether some resource-like declaration may declare any class (its
/// class or type computed, `create_resources('class', ...)`): an
/// include-like declaration of such a class may come after one that gives
/// its parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResourceLikeDeclarations {
    pub classes: std::collections::BTreeSet<String>,
    pub computed: bool,
}

impl ResourceLikeDeclarations {
    /// Whether `class` (lower case, without a leading `::`) may be
    /// declared resource-like somewhere.
    pub fn may_declare(&self, class: &str) -> bool {
        self.computed || self.classes.contains(class)
    }
}

#[salsa::tracked(returns(ref))]
pub fn resource_like_declarations(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> ResourceLikeDeclarations {
    let mut out = ResourceLikeDeclarations::default();
    for &file in workspace.files(db) {
        for &item in file.items(db) {
            let published = item.published(db);
            out.computed |= published.declares_computed_resource_like;
            out.classes
                .extend(published.resource_like_classes.iter().cloned());
        }
    }
    out
}
