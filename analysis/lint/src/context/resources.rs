//! The `ResourceBody` view of a file, computed once per lint run and shared by the checks that read it.

use super::LintContext;
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken};

/// One body of a resource declaration: `title: attributes`.
pub(crate) struct ResourceBody {
    pub body: SyntaxNode,
    /// The resource type as written (`file`, `@@nagios_host`'s
    /// `nagios_host`), or `class` for `class { 'x': }`.
    pub type_name: String,
    pub title: Option<SyntaxNode>,
    /// The attributes, in order (`* => $hash` included), read once for
    /// the several checks that look at them.
    attributes: Vec<Attribute>,
}

impl ResourceBody {
    fn new(body: SyntaxNode, type_name: String) -> ResourceBody {
        let mut title = None;
        let mut attributes = Vec::new();
        for child in body.children() {
            if child.kind() == SyntaxKind::ATTRIBUTE {
                attributes.extend(Attribute::new(child));
            } else if title.is_none() && attributes.is_empty() {
                title = Some(child);
            }
        }
        ResourceBody {
            body,
            type_name,
            title,
            attributes,
        }
    }

    pub fn title(&self) -> Option<SyntaxNode> {
        self.title.clone()
    }

    pub fn attributes(&self) -> impl Iterator<Item = &Attribute> {
        self.attributes.iter()
    }
}

/// `name => value` of a resource.
pub(crate) struct Attribute {
    pub node: SyntaxNode,
    pub name: SyntaxToken,
}

impl Attribute {
    fn new(node: SyntaxNode) -> Option<Attribute> {
        let name = node.first_token()?;
        Some(Attribute { node, name })
    }

    pub fn is_named(&self, name: &str) -> bool {
        self.name.text() == name
    }

    /// The value expression, after `=>` or `+>`.
    pub fn value(&self) -> Option<SyntaxNode> {
        self.node.children().last()
    }
}

/// Every resource body of the file, in text order.
pub(crate) fn resource_bodies(ctx: &LintContext) -> Vec<ResourceBody> {
    ctx.nodes(SyntaxKind::RESOURCE_EXPR)
        .flat_map(|resource| {
            let type_name = resource
                .children_with_tokens()
                .filter(|e| {
                    !e.kind().is_trivia() && !matches!(e.kind(), SyntaxKind::AT | SyntaxKind::ATAT)
                })
                .map(|e| match e {
                    puppet_syntax::NodeOrToken::Node(n) => n.text().to_string(),
                    puppet_syntax::NodeOrToken::Token(t) => t.text().to_string(),
                })
                .next()
                .unwrap_or_default();
            resource
                .children()
                .filter(|n| n.kind() == SyntaxKind::RESOURCE_BODY)
                .map(move |body| ResourceBody::new(body, type_name.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// What puppet-lint sees as a value: its first token.
pub(crate) enum ValueToken {
    Variable,
    Undef,
    FunctionCall,
    /// A quoted string's text (up to its first interpolation).
    Quoted(String),
    Number(String),
    BareWord(String),
    Other(String),
}

pub(crate) fn value_token(value: &SyntaxNode) -> ValueToken {
    if value.kind() == SyntaxKind::CALL_EXPR {
        return ValueToken::FunctionCall;
    }
    let Some(first) = value
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| !t.kind().is_trivia())
    else {
        return ValueToken::Other(String::new());
    };
    match first.kind() {
        SyntaxKind::VARIABLE => ValueToken::Variable,
        SyntaxKind::UNDEF_KW => ValueToken::Undef,
        SyntaxKind::NUMBER => ValueToken::Number(first.text().to_string()),
        SyntaxKind::NAME | SyntaxKind::WORD => ValueToken::BareWord(first.text().to_string()),
        SyntaxKind::SQ_STRING => ValueToken::Quoted(single_quoted_content(first.text())),
        SyntaxKind::DQUOTE => {
            let text = first
                .next_sibling_or_token()
                .and_then(|e| e.into_token())
                .filter(|t| t.kind() == SyntaxKind::STRING_TEXT)
                .map_or(String::new(), |t| t.text().to_string());
            ValueToken::Quoted(text)
        }
        _ => ValueToken::Other(first.text().to_string()),
    }
}

/// The text between the quotes of `'...'`, escapes left as written.
pub(crate) fn single_quoted_content(text: &str) -> String {
    let inner = text.strip_prefix('\'').unwrap_or(text);
    inner.strip_suffix('\'').unwrap_or(inner).to_string()
}
