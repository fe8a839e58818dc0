//! The semantic model of Puppet code, lowered from syntax: the items of
//! each file ([`items`]), what each definition declares ([`signature`]),
//! and each item's body ([`body`], lowered by [`lower`]). Everything here
//! is position-free except where it says so (item ranges, source maps), so
//! that an edit recomputes only the items it touches.

pub mod body;
pub mod items;
pub mod lower;
pub mod render;
pub mod resolution;
pub mod scope;
pub mod signature;

pub use body::{Body, BodySourceMap, ExprId, LambdaId, Name};
pub use items::{
    file_items, item_green, item_in_class, item_key, item_node, FileItems, ItemData, ItemGreen,
    ItemId, ItemIndex, ItemKind,
};
pub use signature::{
    file_signatures, item_signature, normalized_text, DefKind, ParamSummary, Signature,
};

use crate::db::SourceFile;
use std::sync::Arc;

/// An item's body with its source map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoweredItem {
    pub body: Arc<Body>,
    pub source_map: Arc<BodySourceMap>,
}

#[salsa::tracked(returns(ref))]
pub fn lowered_item(
    db: &dyn salsa::Database,
    file: SourceFile,
    index: ItemIndex,
) -> Option<LoweredItem> {
    let green = item_green(db, file, index).as_ref()?;
    let (body, source_map) = lower::lower_item(&green.syntax(), *file.kind(db));
    Some(LoweredItem {
        body: Arc::new(body),
        source_map: Arc::new(source_map),
    })
}

/// An item's body, position-free: unchanged by edits that only move it or
/// change its comments and spacing.
#[salsa::tracked(returns(ref))]
pub fn item_body(
    db: &dyn salsa::Database,
    file: SourceFile,
    index: ItemIndex,
) -> Option<Arc<Body>> {
    lowered_item(db, file, index)
        .as_ref()
        .map(|l| l.body.clone())
}

/// Where an item's expressions are, relative to the item's start.
pub fn item_source_map(
    db: &dyn salsa::Database,
    file: SourceFile,
    index: ItemIndex,
) -> Option<Arc<BodySourceMap>> {
    lowered_item(db, file, index)
        .as_ref()
        .map(|l| l.source_map.clone())
}
