//! The items of a file: its top level and every definition in it (class,
//! defined type, function, type alias, node, plan), each with its own
//! green tree.
//!
//! `file_items` runs after every edit, but it only walks the file's
//! top-level statements and class bodies. Everything downstream asks for
//! one item at a time ([`item_green`], [`item_key`]): an item whose green
//! tree is the same (the incremental reparser reuses unchanged subtrees)
//! gives an equal answer, so its signature, body, inference and
//! diagnostics are not computed again. Green trees carry no offsets, so
//! what is derived from them is position-free.

use super::signature::{normalized_text, DefKind};
use crate::db::{parse, SourceFile};
use puppet_syntax::ast::{AstNode, Expr};
use puppet_syntax::{SyntaxKind, SyntaxNode, TextRange, TextSize};

/// An item's index in its file's [`FileItems`]; 0 is the file's top level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ItemIndex(pub u32);

impl ItemIndex {
    /// The file's own top level (statements outside definitions).
    pub const TOP_LEVEL: ItemIndex = ItemIndex(0);
}

/// An item of the workspace: a file and an item in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ItemId {
    pub file: SourceFile,
    pub index: ItemIndex,
}

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// The statements of a manifest outside definitions, or a template.
    TopLevel,
    Definition(DefKind),
}

/// A green tree compared by identity first: the reparser shares unchanged
/// subtrees, so equal trees are usually the same allocation.
#[derive(Debug, Clone)]
pub struct ItemGreen(pub puppet_syntax::GreenNode);

impl PartialEq for ItemGreen {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq::<puppet_syntax::GreenNodeData>(&*self.0, &*other.0) || self.0 == other.0
    }
}

impl Eq for ItemGreen {}

impl ItemGreen {
    /// The item's tree as a root of its own (offsets relative to the item).
    pub fn syntax(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.0.clone())
    }
}

/// One item, with where it is in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemData {
    pub kind: ItemKind,
    /// Fully qualified and lower-cased for classes, defines, functions and
    /// plans (nested classes carry their enclosing classes' names); as
    /// written for type aliases; the matchers' text for nodes; empty for
    /// the top level.
    pub name: String,
    pub green: ItemGreen,
    /// The whole item (its doc comment included).
    pub range: TextRange,
    /// The item's name (or its keyword when unnamed).
    pub name_range: TextRange,
    /// The item it is nested in (a class in a class), else the top level.
    pub parent: ItemIndex,
}

/// The items of a file, the top level first, then definitions in text order.
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
}

#[salsa::tracked(returns(ref))]
pub fn file_items(db: &dyn salsa::Database, file: SourceFile) -> FileItems {
    items_of(&parse(db, file).syntax_node())
}

/// The items of a tree's root (for code outside the database, such as the
/// evaluator of a lone text).
pub fn items_of(root: &SyntaxNode) -> FileItems {
    let mut items = vec![ItemData {
        kind: ItemKind::TopLevel,
        name: String::new(),
        green: ItemGreen(root.green().into_owned()),
        range: root.text_range(),
        name_range: TextRange::empty(root.text_range().start()),
        parent: ItemIndex::TOP_LEVEL,
    }];
    collect(root, ItemIndex::TOP_LEVEL, &[], &mut items);
    FileItems { items }
}

/// The definitions among a statement list; class bodies are searched for
/// nested classes and defines (the only place Puppet allows definitions
/// besides the top level).
fn collect(list: &SyntaxNode, parent: ItemIndex, outer: &[String], items: &mut Vec<ItemData>) {
    for node in list.children() {
        let Some(expr) = Expr::cast(node.clone()) else {
            continue;
        };
        let Some((kind, name, name_range)) = describe(&expr, outer) else {
            continue;
        };
        let index = ItemIndex(items.len() as u32);
        items.push(ItemData {
            kind: ItemKind::Definition(kind),
            name: name.clone(),
            green: ItemGreen(node.green().into_owned()),
            range: node.text_range(),
            name_range: name_range.unwrap_or_else(|| node.text_range()),
            parent,
        });
        if let Expr::ClassDef(class) = &expr {
            if let Some(body) = class.body() {
                let mut outer = outer.to_vec();
                outer.push(name);
                collect(body.syntax(), index, &outer, items);
            }
        }
    }
}

/// A definition's kind, name and name range.
fn describe(expr: &Expr, outer: &[String]) -> Option<(DefKind, String, Option<TextRange>)> {
    let token_range = |t: Option<puppet_syntax::SyntaxToken>| t.map(|t| t.text_range());
    Some(match expr {
        Expr::ClassDef(d) => (
            DefKind::Class,
            qualified(outer, &d.name()?),
            token_range(d.name_token()),
        ),
        Expr::DefineDef(d) => (
            DefKind::DefinedType,
            qualified(outer, &d.name()?),
            token_range(d.name_token()),
        ),
        Expr::FunctionDef(d) => (
            DefKind::Function,
            d.name()?.to_lowercase(),
            token_range(d.name_token()),
        ),
        Expr::PlanDef(d) => (
            DefKind::Plan,
            d.name()?.to_lowercase(),
            token_range(d.name_token()),
        ),
        Expr::TypeAlias(a) => (
            DefKind::TypeAlias,
            a.name()?,
            a.name_expr().map(|e| e.syntax().text_range()),
        ),
        Expr::NodeDef(d) => (
            DefKind::Node,
            d.matchers()
                .map(|m| normalized_text(m.syntax()))
                .collect::<Vec<_>>()
                .join(", "),
            d.matchers().next().map(|m| m.syntax().text_range()),
        ),
        _ => return None,
    })
}

/// A class or define name inside classes `outer`: Puppet prefixes the
/// enclosing classes' names unless the name already starts with them.
fn qualified(outer: &[String], name: &str) -> String {
    let name = name.trim_start_matches("::").to_lowercase();
    if outer.is_empty() {
        return name;
    }
    let prefix = outer.last().map(String::as_str).unwrap_or_default();
    if name.starts_with(&format!("{prefix}::")) {
        name
    } else {
        format!("{prefix}::{name}")
    }
}

/// An item's green tree: equal across edits elsewhere in the file, so the
/// queries reading it are not recomputed.
#[salsa::tracked(returns(ref))]
pub fn item_green(
    db: &dyn salsa::Database,
    file: SourceFile,
    index: ItemIndex,
) -> Option<ItemGreen> {
    file_items(db, file)
        .get(index)
        .map(|item| item.green.clone())
}

/// An item's kind and name (position-free).
#[salsa::tracked(returns(ref))]
pub fn item_key(
    db: &dyn salsa::Database,
    file: SourceFile,
    index: ItemIndex,
) -> Option<(ItemKind, String)> {
    file_items(db, file)
        .get(index)
        .map(|item| (item.kind, item.name.clone()))
}

/// Whether an item stands directly in a class's body (rather than at the
/// top level): what validating it on its own needs to know.
#[salsa::tracked]
pub fn item_in_class(db: &dyn salsa::Database, file: SourceFile, index: ItemIndex) -> bool {
    let items = file_items(db, file);
    index != ItemIndex::TOP_LEVEL
        && items
            .get(index)
            .and_then(|item| items.get(item.parent))
            .is_some_and(|parent| parent.kind == ItemKind::Definition(DefKind::Class))
}

/// The item's syntax node within the file's tree (with absolute offsets).
pub fn item_node(
    db: &dyn salsa::Database,
    file: SourceFile,
    index: ItemIndex,
) -> Option<SyntaxNode> {
    let item = file_items(db, file).get(index)?;
    let root = parse(db, file).syntax_node();
    if index == ItemIndex::TOP_LEVEL {
        return Some(root);
    }
    let node = puppet_syntax::covering_node(&root, item.range)?;
    node.ancestors()
        .find(|n| n.text_range() == item.range && is_definition(n.kind()))
}

fn is_definition(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        SyntaxKind::CLASS_DEF
            | SyntaxKind::DEFINE_DEF
            | SyntaxKind::FUNCTION_DEF
            | SyntaxKind::PLAN_DEF
            | SyntaxKind::TYPE_ALIAS
            | SyntaxKind::NODE_DEF
    )
}

/// The typed definition node of an item's own tree.
pub fn definition_expr(green: &ItemGreen) -> Option<Expr> {
    Expr::cast(green.syntax()).filter(|e| is_definition(e.syntax().kind()))
}
