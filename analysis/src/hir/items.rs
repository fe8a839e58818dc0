//! The items of a file as the database keeps them: each item is an input
//! ([`crate::db::Item`]) set by the host from what
//! [`puppet_runtime::hir::items`] collects; an item being edited gets a
//! low durability, so that everything deriving from an unchanged item is
//! known valid without being looked at, and a keystroke costs what it
//! touches, not the size of the file.

pub use puppet_runtime::hir::items::*;

use crate::db::{Item, SourceFile};
use puppet_syntax::{SyntaxNode, TextRange, TextSize};

/// One item of a file, as IDE features see it (with positions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemData {
    pub item: Item,
    pub kind: ItemKind,
    pub name: String,
    pub range: TextRange,
    pub name_range: TextRange,
    pub parent: ItemIndex,
}

/// The items of a file with where they are (changes with every edit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileItems {
    pub items: Vec<ItemData>,
}

impl FileItems {
    pub fn get(&self, index: ItemIndex) -> Option<&ItemData> {
        self.items.get(index.0 as usize)
    }

    /// The definitions (every item but the top level) with their indices.
    pub fn definitions(&self) -> impl Iterator<Item = (ItemIndex, &ItemData)> {
        self.items
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, item)| (ItemIndex(i as u32), item))
    }

    /// The innermost item whose range contains `offset` (the top level
    /// when no definition does).
    pub fn item_at(&self, offset: TextSize) -> ItemIndex {
        self.definitions()
            .filter(|(_, item)| item.range.contains_inclusive(offset))
            .min_by_key(|(_, item)| item.range.len())
            .map_or(ItemIndex::TOP_LEVEL, |(index, _)| index)
    }

    /// The index of an item of this file.
    pub fn index_of(&self, item: Item) -> Option<ItemIndex> {
        self.items
            .iter()
            .position(|d| d.item == item)
            .map(|i| ItemIndex(i as u32))
    }
}

#[salsa::tracked(returns(ref))]
pub fn file_items(db: &dyn salsa::Database, file: SourceFile) -> FileItems {
    let places = file.places(db);
    let items = file
        .items(db)
        .iter()
        .zip(&places.items)
        .map(|(&item, place)| ItemData {
            item,
            kind: item.kind(db),
            name: item.name(db).clone(),
            range: place.range,
            name_range: place.name_range,
            parent: place.parent,
        })
        .collect();
    FileItems { items }
}

/// Where an item is in its file now.
pub fn item_place(db: &dyn salsa::Database, item: Item) -> Option<ItemPlace> {
    let file = item.file(db);
    let index = file.items(db).iter().position(|&i| i == item)?;
    file.places(db).items.get(index).cloned()
}

/// The item's syntax node within the file's tree (with absolute offsets).
pub fn item_node(db: &dyn salsa::Database, item: Item) -> Option<SyntaxNode> {
    let file = item.file(db);
    let root = crate::db::parse(db, file).syntax_node();
    if item.kind(db) == ItemKind::TopLevel {
        return Some(root);
    }
    let place = item_place(db, item)?;
    let node = puppet_syntax::covering_node(&root, place.range)?;
    node.ancestors().find(|n| {
        n.text_range() == place.range && puppet_runtime::hir::items::is_definition_node(n)
    })
}

/// A file's definitions with their signatures and places.
pub fn file_definitions(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> impl Iterator<Item = (Item, &super::Signature, &ItemPlace)> {
    file.items(db)
        .iter()
        .zip(&file.places(db).items)
        .filter_map(move |(&item, place)| Some((item, item.signature(db).as_ref()?, place)))
}
