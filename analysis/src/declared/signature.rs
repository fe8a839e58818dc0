//! Signatures: what a definition declares (its kind, qualified name,
//! parameters with their declared types, parent class, return or aliased
//! type), without positions, and apart from it what a definition says
//! for people ([`Documentation`]). The workspace index is built
//! from them, so typing inside a body never rebuilds it (equal signatures
//! stop recomputation).

use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::SyntaxNode;

pub use puppet_runtime::hir::DefKind;

/// A declared parameter: name, the type as written, whether it has a default.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParamSummary {
    pub name: String,
    /// The type expression's text with whitespace normalised, e.g.
    /// `Optional[String]`.
    pub type_text: Option<String>,
    pub has_default: bool,
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
}

/// What a definition says for people: its doc comment and its parameters'
/// default values as written (hover, completion, signature help). Kept
/// apart from the signature: typing in a comment or a default value
/// changes nothing the workspace checks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Documentation {
    pub doc: Option<String>,
    /// The doc comment's puppet-strings tags.
    pub strings: super::DocStrings,
    /// `(parameter, default value's text, normalised)`.
    pub defaults: Vec<(String, String)>,
}

impl Documentation {
    /// The doc comment as Markdown: puppet-strings tags rendered, plain
    /// text as it is.
    pub fn markdown(&self) -> Option<String> {
        let doc = self.doc.as_ref()?;
        Some(if self.strings.is_tagged() {
            self.strings.to_markdown()
        } else {
            doc.clone()
        })
    }

    /// A parameter's `@param` text.
    pub fn param_doc(&self, param: &str) -> Option<&str> {
        self.strings
            .param(param)
            .map(|p| p.text.as_str())
            .filter(|t| !t.is_empty())
    }

    /// The default value of a parameter as written.
    pub fn default_of(&self, param: &str) -> Option<&str> {
        self.defaults
            .iter()
            .find(|(name, _)| name == param)
            .map(|(_, text)| text.as_str())
    }
}

/// The documentation of a definition's node.
pub fn documentation(node: &SyntaxNode) -> Documentation {
    let list = Expr::cast(node.clone()).and_then(|expr| match expr {
        Expr::ClassDef(d) => d.params(),
        Expr::DefineDef(d) => d.params(),
        Expr::FunctionDef(d) => d.params(),
        Expr::PlanDef(d) => d.params(),
        _ => None,
    });
    let defaults = list
        .into_iter()
        .flat_map(|list| list.params())
        .filter_map(|p| Some((p.name()?, normalized_text(p.default_value()?.syntax()))))
        .collect();
    let doc = ast::doc_comment(node);
    Documentation {
        strings: doc
            .as_deref()
            .map(super::DocStrings::parse)
            .unwrap_or_default(),
        doc,
        defaults,
    }
}

pub use puppet_runtime::hir::items::normalized_text;

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
                captures_rest: p.captures_rest(),
            })
        })
        .collect()
}

/// What a definition's node declares (computed by the host when it
/// collects a file's items).
pub fn signature(kind: DefKind, name: String, node: &SyntaxNode) -> Option<Signature> {
    let expr = Expr::cast(node.clone())?;
    let mut sig = Signature {
        kind,
        name,
        params: Vec::new(),
        parent: None,
        type_text: None,
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
