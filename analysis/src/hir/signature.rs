//! Signatures: what a definition declares (its kind, qualified name,
//! parameters with their declared types, parent class, return or aliased
//! type, documentation), without positions. The workspace index is built
//! from them, so typing inside a body never rebuilds it (equal signatures
//! stop recomputation).

use super::items::{file_items, item_green, item_key, ItemIndex, ItemKind};
use crate::db::SourceFile;
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::SyntaxNode;

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

/// One definition's signature, without positions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Signature {
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

/// The signature of item `index` of `file` (`None` for the top level).
#[salsa::tracked(returns(ref))]
pub fn item_signature(
    db: &dyn salsa::Database,
    file: SourceFile,
    index: ItemIndex,
) -> Option<Signature> {
    let (ItemKind::Definition(kind), name) = item_key(db, file, index).as_ref()? else {
        return None;
    };
    let green = item_green(db, file, index).as_ref()?;
    signature(*kind, name.clone(), &green.syntax())
}

/// The signatures of a file's definitions, in item order (item `i + 1`
/// is entry `i`). Position-free: edits that keep every signature stop
/// here, before the workspace index.
#[salsa::tracked(returns(ref))]
pub fn file_signatures(db: &dyn salsa::Database, file: SourceFile) -> Vec<(ItemIndex, Signature)> {
    file_items(db, file)
        .definitions()
        .filter_map(|(index, _)| Some((index, item_signature(db, file, index).clone()?)))
        .collect()
}

fn signature(kind: DefKind, name: String, node: &SyntaxNode) -> Option<Signature> {
    let expr = Expr::cast(node.clone())?;
    let doc = ast::doc_comment(node);
    let mut sig = Signature {
        kind,
        name,
        params: Vec::new(),
        parent: None,
        type_text: None,
        doc,
    };
    match expr {
        Expr::ClassDef(d) => {
            sig.params = params(d.params());
            sig.parent = d
                .parent()
                .and_then(|p| p.name_token())
                .map(|t| t.text().trim_start_matches("::").to_lowercase());
        }
        Expr::DefineDef(d) => sig.params = params(d.params()),
        Expr::FunctionDef(d) => {
            sig.params = params(d.params());
            sig.type_text = d
                .return_type()
                .and_then(|r| r.type_expr())
                .map(|t| normalized_text(t.syntax()));
        }
        Expr::PlanDef(d) => sig.params = params(d.params()),
        Expr::TypeAlias(a) => {
            sig.type_text = a.value().map(|v| {
                let mut text = normalized_text(v.syntax());
                if let Some(init) = a.initializer() {
                    text.push(' ');
                    text.push_str(&normalized_text(init.syntax()));
                }
                text
            });
        }
        Expr::NodeDef(_) => {}
        _ => return None,
    }
    Some(sig)
}
