//! The semantic model of Puppet code, lowered from syntax: the items of
//! each file ([`items`]) and what each definition declares
//! ([`signature`]). Everything here is position-free except where it says
//! so (item ranges), so that an edit recomputes only the items it touches.

pub mod items;
pub mod signature;

pub use items::{
    file_items, item_green, item_key, item_node, FileItems, ItemData, ItemGreen, ItemId, ItemIndex,
    ItemKind,
};
pub use signature::{
    file_signatures, item_signature, normalized_text, DefKind, ParamSummary, Signature,
};
