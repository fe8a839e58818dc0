//! Per-file summaries: what a file defines (classes, defined types,
//! functions, type aliases, nodes, plans) with their parameters and declared
//! types, and nothing about positions. Equal summaries stop recomputation
//! (early cutoff), so typing inside a body never rebuilds the workspace
//! index. Positions live apart, in the file's `SourceMap`.

use crate::db::{parse, SourceFile};
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{SyntaxNode, TextRange};

/// The kinds of things a Puppet file can define.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DefKind {
    Class,
    DefinedType,
    Function,
    TypeAlias,
    Node,
    Plan,
}

impl DefKind {
    pub fn describe(self) -> &'static str {
        match self {
            DefKind::Class => "class",
            DefKind::DefinedType => "defined type",
            DefKind::Function => "function",
            DefKind::TypeAlias => "type alias",
            DefKind::Node => "node",
            DefKind::Plan => "plan",
        }
    }
}

/// A declared parameter: name, the type as written, whether it has a default.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParamSummary {
    pub name: String,
    /// The type expression's text with whitespace normalised, e.g.
    /// `Optional[String]`.
    pub type_text: Option<String>,
    pub has_default: bool,
    /// The default value's text (normalised), shown on hover.
    pub default_text: Option<String>,
    /// `*$rest`: takes all remaining arguments.
    pub captures_rest: bool,
}

/// One definition, without positions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Definition {
    pub kind: DefKind,
    /// Fully qualified, lower-cased for classes, defines, functions and
    /// plans; as written for type aliases; the matcher text for nodes.
    pub name: String,
    pub params: Vec<ParamSummary>,
    /// `inherits` of a class.
    pub parent: Option<String>,
    /// The aliased type (type aliases) or return type (functions).
    pub type_text: Option<String>,
    pub doc: Option<String>,
}

/// Everything a file defines, in text order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct FileSummary {
    pub definitions: Vec<Definition>,
}

/// Where a file's definitions are: parallel to `FileSummary::definitions`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// The range of each definition's name (or its keyword if unnamed).
    pub name_ranges: Vec<TextRange>,
    /// The whole definition.
    pub full_ranges: Vec<TextRange>,
}

#[salsa::tracked(returns(ref))]
pub fn file_summary(db: &dyn salsa::Database, file: SourceFile) -> FileSummary {
    let root = parse(db, file).syntax_node();
    let mut summary = FileSummary::default();
    for (node, _) in definition_nodes(&root) {
        if let Some(def) = summarize(&node) {
            summary.definitions.push(def);
        }
    }
    summary
}

#[salsa::tracked(returns(ref))]
pub fn source_map(db: &dyn salsa::Database, file: SourceFile) -> SourceMap {
    let root = parse(db, file).syntax_node();
    let mut map = SourceMap::default();
    for (node, name_range) in definition_nodes(&root) {
        if summarize(&node).is_some() {
            map.name_ranges.push(name_range);
            map.full_ranges.push(node.text_range());
        }
    }
    map
}

/// Definition nodes with the range of their name, in text order. Nested
/// classes get their enclosing class's name as a prefix (as Puppet does).
fn definition_nodes(root: &SyntaxNode) -> Vec<(SyntaxNode, TextRange)> {
    root.descendants()
        .filter(|n| Expr::can_cast(n.kind()))
        .filter_map(|n| {
            let expr = Expr::cast(n.clone())?;
            let name_range = match &expr {
                Expr::ClassDef(d) => d.name_token().map(|t| t.text_range()),
                Expr::DefineDef(d) => d.name_token().map(|t| t.text_range()),
                Expr::FunctionDef(d) => d.name_token().map(|t| t.text_range()),
                Expr::PlanDef(d) => d.name_token().map(|t| t.text_range()),
                Expr::TypeAlias(a) => a.name_expr().map(|e| e.syntax().text_range()),
                Expr::NodeDef(d) => d.matchers().next().map(|m| m.syntax().text_range()),
                _ => return None,
            };
            let range = name_range.unwrap_or_else(|| n.text_range());
            Some((n, range))
        })
        .collect()
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

fn params(list: Option<ast::ParamList>) -> Vec<ParamSummary> {
    let Some(list) = list else {
        return Vec::new();
    };
    list.params()
        .filter_map(|p| {
            Some(ParamSummary {
                name: p.name()?,
                type_text: p.type_expr().map(|t| normalized_text(t.syntax())),
                has_default: p.default_value().is_some(),
                default_text: p.default_value().map(|d| normalized_text(d.syntax())),
                captures_rest: p.captures_rest(),
            })
        })
        .collect()
}

/// The qualified name of a class, define or plan: nested classes are
/// prefixed with their enclosing classes' names.
fn qualified_name(node: &SyntaxNode, name: &str) -> String {
    let name = name.trim_start_matches("::").to_lowercase();
    let mut prefix = Vec::new();
    for ancestor in node.ancestors().skip(1) {
        if let Some(class) = ast::ClassDef::cast(ancestor) {
            if let Some(outer) = class.name() {
                prefix.push(outer.to_lowercase());
            }
        }
    }
    if prefix.is_empty() {
        return name;
    }
    prefix.reverse();
    let outer = prefix.join("::");
    if name.starts_with(&format!("{outer}::")) {
        name
    } else {
        format!("{outer}::{name}")
    }
}

fn summarize(node: &SyntaxNode) -> Option<Definition> {
    let expr = Expr::cast(node.clone())?;
    let def = match expr {
        Expr::ClassDef(d) => Definition {
            kind: DefKind::Class,
            name: qualified_name(node, &d.name()?),
            params: params(d.params()),
            parent: d
                .parent()
                .and_then(|p| p.name_token())
                .map(|t| t.text().trim_start_matches("::").to_lowercase()),
            type_text: None,
            doc: d.doc_comment(),
        },
        Expr::DefineDef(d) => Definition {
            kind: DefKind::DefinedType,
            name: qualified_name(node, &d.name()?),
            params: params(d.params()),
            parent: None,
            type_text: None,
            doc: d.doc_comment(),
        },
        Expr::FunctionDef(d) => Definition {
            kind: DefKind::Function,
            name: d.name()?.to_lowercase(),
            params: params(d.params()),
            parent: None,
            type_text: d
                .return_type()
                .and_then(|r| r.type_expr())
                .map(|t| normalized_text(t.syntax())),
            doc: d.doc_comment(),
        },
        Expr::PlanDef(d) => Definition {
            kind: DefKind::Plan,
            name: d.name()?.to_lowercase(),
            params: params(d.params()),
            parent: None,
            type_text: None,
            doc: d.doc_comment(),
        },
        Expr::TypeAlias(a) => Definition {
            kind: DefKind::TypeAlias,
            name: a.name()?,
            params: Vec::new(),
            parent: None,
            type_text: a.value().map(|v| {
                let mut text = normalized_text(v.syntax());
                if let Some(init) = a.initializer() {
                    text.push(' ');
                    text.push_str(&normalized_text(init.syntax()));
                }
                text
            }),
            doc: ast::doc_comment(node),
        },
        Expr::NodeDef(d) => Definition {
            kind: DefKind::Node,
            name: d
                .matchers()
                .map(|m| normalized_text(m.syntax()))
                .collect::<Vec<_>>()
                .join(", "),
            params: Vec::new(),
            parent: None,
            type_text: None,
            doc: ast::doc_comment(node),
        },
        _ => return None,
    };
    Some(def)
}
