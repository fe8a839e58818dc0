//! The items of a file: its top level and every definition in it (class,
//! defined type, function, type alias, node, plan), each with its own
//! green trees, collected from the syntax tree.
//!
//! The semantic crate keeps each item as an input of its database and,
//! after an edit, collects the file's items again (walking only the
//! top-level statements and class bodies, reusing unchanged definitions
//! through [`ItemCache`]) and sets an item's content only when it changed.
//! Green trees carry no offsets: what derives from them is position-free;
//! where an item is lives apart, in [`FilePlaces`].

use super::body::SegmentRange;
use super::DefKind;
use puppet_syntax::ast::{AstNode, Expr};
use puppet_syntax::{
    NodeOrToken, SourceKind, SyntaxElement, SyntaxKind, SyntaxNode, TextRange, TextSize,
};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Arc;

/// An item's index in its file's list; 0 is the file's top level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ItemIndex(pub u32);

impl ItemIndex {
    /// The file's own top level (statements outside definitions).
    pub const TOP_LEVEL: ItemIndex = ItemIndex(0);
}

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemKind {
    /// The statements of a manifest outside definitions, or a template.
    TopLevel,
    Definition(DefKind),
}

/// Where an item is in its file's current text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemPlace {
    /// The whole item (its doc comment included).
    pub range: TextRange,
    /// The item's name (or its keyword when unnamed).
    pub name_range: TextRange,
    /// The item it is nested in (a class in a class), else the top level.
    pub parent: ItemIndex,
    /// Where each segment of its content is, relative to the item's start:
    /// moving the item leaves them as they are.
    segments: Arc<[TextRange]>,
}

impl ItemPlace {
    /// `segments` are where the segments are in the file.
    pub fn new(
        range: TextRange,
        name_range: TextRange,
        parent: ItemIndex,
        segments: &[TextRange],
    ) -> ItemPlace {
        let start = range.start();
        let segments = segments
            .iter()
            .map(|s| s.checked_sub(start).unwrap_or_default())
            .collect();
        ItemPlace {
            range,
            name_range,
            parent,
            segments,
        }
    }

    /// Where each segment is in the file.
    pub fn segments(&self) -> impl Iterator<Item = TextRange> + '_ {
        self.segments.iter().map(|s| *s + self.range.start())
    }

    /// A range within a segment, placed in the file.
    pub fn absolute(&self, range: SegmentRange) -> TextRange {
        let start = self
            .segments
            .get(range.segment as usize)
            .map_or(TextSize::default(), |s| s.start());
        range.range + start + self.range.start()
    }

    /// The place with its ranges mapped by `f` (the item moved as a whole).
    pub fn moved(&self, f: impl Fn(TextRange) -> TextRange) -> ItemPlace {
        ItemPlace {
            range: f(self.range),
            name_range: f(self.name_range),
            parent: self.parent,
            segments: self.segments.clone(),
        }
    }

    /// A file range within one of the segments, relative to it.
    pub fn relative(&self, range: TextRange) -> Option<SegmentRange> {
        let index = self.segments().position(|s| s.contains_range(range))?;
        let start = self.segments().nth(index)?.start();
        Some(SegmentRange::new(index as u32, range - start))
    }
}

/// The positions of a file's items, parallel to its item list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FilePlaces {
    pub items: Vec<ItemPlace>,
}

/// One item as collected from a file's tree.
#[derive(Debug, Clone)]
pub struct CollectedItem {
    pub kind: ItemKind,
    /// Fully qualified and lower-cased for classes, defines, functions and
    /// plans (nested classes carry their enclosing classes' names); as
    /// written for type aliases; the matchers' text for nodes; empty for
    /// the top level.
    pub name: Arc<str>,
    pub content: ItemContent,
    /// Directly in a class's body.
    pub in_class: bool,
    pub place: ItemPlace,
}

/// Collects the items of a file's tree: the top level first, then the
/// definitions in text order.
pub fn collect_items(root: &SyntaxNode, source: SourceKind) -> Vec<CollectedItem> {
    ItemCache::default().collect(root, source)
}

/// The items of a file's top-level definitions from the previous
/// collection, by tree identity: the reparser shares unchanged subtrees, so
/// a definition whose tree is the same allocation as last time holds the
/// same items, only moved. Collecting after a keystroke then costs the
/// edited definition and a step per top-level statement.
#[derive(Default)]
pub struct ItemCache {
    definitions: HashMap<usize, CachedDefinition>,
    /// Counts collections: a definition not seen in the latest one is
    /// dropped from the cache.
    generation: u64,
}

struct CachedDefinition {
    /// The collection that last saw it.
    generation: u64,
    /// Keeps the allocation the key is the address of alive, so that the
    /// address cannot name another tree.
    _green: puppet_syntax::GreenNode,
    /// The definition then its nested definitions, with ranges relative to
    /// the definition's start and parents relative to the first (the
    /// first's parent being the top level). Empty when the node is not a
    /// definition after all (a class without a name).
    items: Vec<CollectedItem>,
}

impl ItemCache {
    /// [`collect_items`], reusing what the previous call collected. The
    /// top level is walked on its green tree (no cursor per statement), so
    /// that a keystroke in a file of thousands of definitions costs little
    /// more than the definition it is in.
    pub fn collect(&mut self, root: &SyntaxNode, source: SourceKind) -> Vec<CollectedItem> {
        self.generation += 1;
        let generation = self.generation;
        let mut items = Vec::new();
        let mut params = None;
        let mut statements = Vec::new();
        let mut segments = Vec::new();
        let green = root.green();
        let mut offset = root.text_range().start();
        // Statements before this offset belong to the last run of code.
        let mut run_end = offset;
        for child in green.children() {
            let start = offset;
            offset += child.text_len();
            let NodeOrToken::Node(child) = child else {
                continue;
            };
            let kind = SyntaxKind::from_raw(child.kind().0);
            let range = TextRange::new(start, offset);
            if start < run_end {
                continue;
            }
            if kind == SyntaxKind::EPP_PARAMS {
                params = Some(ItemGreen(child.to_owned()));
                segments.insert(0, range);
                continue;
            }
            if is_definition_kind(kind) {
                let key = child as *const puppet_syntax::GreenNodeData as usize;
                let cached = match self.definitions.entry(key) {
                    Entry::Occupied(entry) => Some(entry.into_mut()),
                    Entry::Vacant(entry) => child_node(root, range, child).map(|node| {
                        entry.insert(CachedDefinition {
                            generation,
                            _green: child.to_owned(),
                            items: definition_items(&node),
                        })
                    }),
                };
                if let Some(cached) = cached {
                    cached.generation = generation;
                    let found = &cached.items;
                    if let Some(first) = found.first() {
                        if let ItemKind::Definition(kind) = first.kind {
                            let name = first.name.clone();
                            statements.push(TopStatement::Definition { kind, name });
                        }
                        let base = items.len() as u32 + 1;
                        items.extend(found.iter().enumerate().map(|(k, item)| {
                            let mut item = item.clone();
                            item.place = item.place.moved(|r| r + start);
                            if k > 0 {
                                item.place.parent = ItemIndex(item.place.parent.0 + base);
                            }
                            item
                        }));
                        continue;
                    }
                }
            }
            if !Expr::can_cast(kind) {
                continue;
            }
            let Some(first) = child_node(root, range, child) else {
                continue;
            };
            let run = code_run(first);
            let run_range = TextRange::new(
                run[0].text_range().start(),
                run[run.len() - 1].text_range().end(),
            );
            run_end = run_range.end();
            segments.push(run_range);
            statements.push(TopStatement::Code(ItemGreen(puppet_syntax::top_level_run(
                &run,
            ))));
        }
        self.definitions
            .retain(|_, cached| cached.generation == generation);
        let top = CollectedItem {
            kind: ItemKind::TopLevel,
            name: Arc::from(""),
            content: ItemContent::TopLevel {
                source,
                params,
                statements,
            },
            in_class: false,
            place: ItemPlace::new(
                root.text_range(),
                TextRange::empty(root.text_range().start()),
                ItemIndex::TOP_LEVEL,
                &segments,
            ),
        };
        items.insert(0, top);
        items
    }
}

/// A top-level definition and the definitions nested in it, placed
/// relative to its start (see [`CachedDefinition::items`]).
fn definition_items(node: &SyntaxNode) -> Vec<CollectedItem> {
    let mut found = Vec::new();
    let Some(expr) = Expr::cast(node.clone()) else {
        return found;
    };
    collect_definition(node, &expr, ItemIndex::TOP_LEVEL, &[], &mut found);
    let start = node.text_range().start();
    for item in &mut found {
        item.place = item.place.moved(|r| r - start);
    }
    found
}

/// A node of one of the kinds that define something.
pub fn is_definition_node(node: &SyntaxNode) -> bool {
    is_definition_kind(node.kind())
}

fn is_definition_kind(kind: SyntaxKind) -> bool {
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

/// The root's child at `range` whose green tree is `green`.
fn child_node(
    root: &SyntaxNode,
    range: TextRange,
    green: &puppet_syntax::GreenNodeData,
) -> Option<SyntaxNode> {
    let node = root.child_or_token_at_range(range)?.into_node()?;
    std::ptr::eq(&*node.green(), green).then_some(node)
}

/// A run of top-level code starting with the statement `first`: the
/// statement, and when it opens heredocs, everything up to their bodies,
/// which the parser places after the line.
fn code_run(first: SyntaxNode) -> Vec<SyntaxElement> {
    let count = |node: &SyntaxNode, kind: SyntaxKind| {
        node.descendants().filter(|n| n.kind() == kind).count()
    };
    let headers = |node: &SyntaxNode| count(node, SyntaxKind::HEREDOC_EXPR);
    let bodies = |node: &SyntaxNode| count(node, SyntaxKind::HEREDOC_BODY);
    let mut open = headers(&first).saturating_sub(bodies(&first));
    let mut next = first.next_sibling_or_token();
    let mut run = vec![SyntaxElement::Node(first)];
    let mut last_node = 1;
    while open > 0 {
        let Some(element) = next else {
            break;
        };
        if let Some(node) = element.as_node() {
            if is_definition_node(node) {
                break;
            }
            open = (open + headers(node)).saturating_sub(bodies(node));
            last_node = run.len() + 1;
        }
        next = element.next_sibling_or_token();
        run.push(element);
    }
    run.truncate(last_node);
    run
}

/// The definitions among a class body's statements.
fn collect(list: &SyntaxNode, parent: ItemIndex, outer: &[String], items: &mut Vec<CollectedItem>) {
    for node in list.children() {
        if let Some(expr) = Expr::cast(node.clone()) {
            collect_definition(&node, &expr, parent, outer, items);
        }
    }
}

/// A definition (when `node` is one) and, for a class, the classes and
/// defines in its body (the only place Puppet allows definitions besides
/// the top level); `outer` are the names of the enclosing classes.
fn collect_definition(
    node: &SyntaxNode,
    expr: &Expr,
    parent: ItemIndex,
    outer: &[String],
    items: &mut Vec<CollectedItem>,
) {
    let Some((kind, name, name_range)) = describe(expr, outer) else {
        return;
    };
    let index = ItemIndex(items.len() as u32);
    items.push(CollectedItem {
        kind: ItemKind::Definition(kind),
        name: Arc::from(name.as_str()),
        content: ItemContent::Definition(ItemGreen(node.green().into_owned())),
        in_class: !outer.is_empty(),
        place: ItemPlace::new(
            node.text_range(),
            name_range.unwrap_or_else(|| node.text_range()),
            parent,
            &[node.text_range()],
        ),
    });
    if let Expr::ClassDef(class) = expr {
        if let Some(body) = class.body() {
            let mut outer = outer.to_vec();
            outer.push(name);
            collect(body.syntax(), index, &outer, items);
        }
    }
}

/// Where a definition's name is in its own tree: what its place's
/// `name_range` is in the file, relative to the definition.
pub fn definition_name_range(node: &SyntaxNode) -> TextRange {
    Expr::cast(node.clone())
        .and_then(|expr| describe(&expr, &[]))
        .and_then(|(_, _, range)| range)
        .unwrap_or_else(|| node.text_range())
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
    let Some(prefix) = outer.last() else {
        return name;
    };
    if name.starts_with(&format!("{prefix}::")) {
        name
    } else {
        format!("{prefix}::{name}")
    }
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
    /// The tree as a root of its own (offsets relative to its start).
    pub fn syntax(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.0.clone())
    }
}

/// A statement of a file's top level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopStatement {
    /// Code outside definitions: its own tree (a segment of the top level).
    Code(ItemGreen),
    /// A definition, an item of its own.
    Definition { kind: DefKind, name: Arc<str> },
}

/// What an item's body is made of. Its trees are segments: positions in
/// the body are relative to the start of a segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemContent {
    /// A definition's node (one segment).
    Definition(ItemGreen),
    /// A file's top level: a template's parameter header (the first
    /// segment, when there is one), then its statements in order, code
    /// statements being the following segments. Editing inside a
    /// definition leaves it equal.
    TopLevel {
        source: SourceKind,
        params: Option<ItemGreen>,
        statements: Vec<TopStatement>,
    },
}

impl ItemContent {
    /// The trees of the content, in segment order.
    pub fn segments(&self) -> Vec<SyntaxNode> {
        match self {
            ItemContent::Definition(green) => vec![green.syntax()],
            ItemContent::TopLevel {
                params, statements, ..
            } => params
                .iter()
                .map(ItemGreen::syntax)
                .chain(statements.iter().filter_map(|s| match s {
                    TopStatement::Code(green) => Some(green.syntax()),
                    TopStatement::Definition { .. } => None,
                }))
                .collect(),
        }
    }
}

impl ItemContent {
    /// A top level's code statements in order, with their segments.
    pub fn top_level_code(&self) -> Vec<(u32, Expr)> {
        let ItemContent::TopLevel {
            params, statements, ..
        } = self
        else {
            return Vec::new();
        };
        let mut segment = u32::from(params.is_some());
        let mut out = Vec::new();
        for statement in statements {
            if let TopStatement::Code(green) = statement {
                out.extend(
                    puppet_syntax::ast::children::<Expr>(&green.syntax()).map(|e| (segment, e)),
                );
                segment += 1;
            }
        }
        out
    }
}

/// Text of an expression with runs of whitespace (and comments) squeezed,
/// so that reformatting does not change a summary.
pub fn normalized_text(node: &SyntaxNode) -> String {
    let mut out = String::new();
    let mut pending_space = false;
    for token in node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        if token.kind().is_trivia() {
            pending_space = !out.is_empty();
            continue;
        }
        let text = token.text();
        let glue = text.starts_with([',', ']', ')']) || out.ends_with(['[', '(']);
        if pending_space && !glue {
            out.push(' ');
        }
        pending_space = false;
        out.push_str(text);
    }
    out
}
