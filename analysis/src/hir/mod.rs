//! The semantic model of Puppet code, lowered from syntax: the items of
//! each file ([`items`]), what each definition declares ([`signature`]),
//! and each item's body ([`body`], lowered by [`lower`]). Everything here
//! is position-free except where it says so (item ranges, source maps), so
//! that an edit recomputes only the items it touches.

pub mod items;
pub use puppet_runtime::hir::{body, inline_template, lower};
pub mod render;

pub use crate::declared::{
    normalized_text, DefKind, Documentation, ParamSummary, Published, Signature,
};
pub use crate::declared::{published, signature};
pub use body::{Body, BodySourceMap, ExprId, LambdaId, Name};
pub use items::{
    file_definitions, file_items, item_node, item_place, FileItems, ItemContent, ItemData,
    ItemGreen, ItemIndex, ItemKind, ItemPlace,
};

use crate::db::Item;
use std::sync::Arc;

/// An item's body with its source map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoweredItem {
    pub body: Arc<Body>,
    pub source_map: Arc<BodySourceMap>,
}

/// Kept for a bounded number of items, like inference: a body is lowered
/// again from the item's tree when asked after it was dropped, so a large
/// workspace does not hold every body at once.
#[salsa::tracked(returns(ref), lru = 512)]
pub fn lowered_item(db: &dyn salsa::Database, item: Item) -> LoweredItem {
    let (body, source_map) = lower::lower_item(item.content(db));
    LoweredItem {
        body: Arc::new(body),
        source_map: Arc::new(source_map),
    }
}

/// An item's body, position-free: unchanged by edits that only move it or
/// change its comments and spacing.
#[salsa::tracked(returns(ref), lru = 512)]
pub fn item_body(db: &dyn salsa::Database, item: Item) -> Arc<Body> {
    lowered_item(db, item).body.clone()
}

/// Where an item's expressions are, relative to its segments' starts.
pub fn item_source_map(db: &dyn salsa::Database, item: Item) -> Arc<BodySourceMap> {
    lowered_item(db, item).source_map.clone()
}

/// A definition's doc comment and default values as written (empty for the
/// top level). Only the IDE features read it, so it is derived when first
/// asked rather than kept for every item of the workspace.
#[salsa::tracked(returns(ref))]
pub fn item_documentation(db: &dyn salsa::Database, item: Item) -> Documentation {
    match item.content(db) {
        ItemContent::Definition(green) => signature::documentation(&green.syntax()),
        _ => Documentation::default(),
    }
}

/// The signature of an item (`None` for the top level).
pub fn item_signature(db: &dyn salsa::Database, item: Item) -> Option<&Signature> {
    item.signature(db).as_ref()
}
