//! Lossless, resilient syntax for the Puppet language.
//!
//! `parse` turns any text into a rowan tree whose text is exactly the input,
//! plus a list of errors; it never fails and never panics. `validate` adds
//! the static checks Puppet runs on a parsed program. The `ast` module gives
//! typed access to the tree. Nothing here knows about analysis or LSP.

pub mod ast;
mod lexer;
pub mod line_index;
mod parser;
mod reparsing;
mod syntax_kind;
pub mod validation;

pub use lexer::{is_name, lex, Lexed, SourceKind, Token};
pub use reparsing::{ReparseStrategy, TextEdit};

/// A file's text, shared by the editor's document, the analysis and its
/// snapshots: a `String` behind the `Arc` (not a `str`) so that an edit
/// makes the new text with one copy of the old, however big the file.
pub type SharedText = std::sync::Arc<String>;
pub use rowan::{GreenNode, GreenNodeData, NodeOrToken, TextRange, TextSize, WalkEvent};
pub use syntax_kind::{PuppetLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken};

pub use puppet_codes::{Code, Severity};

/// A problem in the source text: lexing, parsing or validation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    pub range: TextRange,
    pub message: String,
    /// Stable identifier, e.g. `syntax-error`, `unclosed-quote`.
    pub code: Code,
    pub severity: Severity,
}

impl SyntaxError {
    pub fn error(range: TextRange, message: impl Into<String>, code: Code) -> SyntaxError {
        debug_assert!(
            code.reported().allows(Severity::Error),
            "{code} is not an error"
        );
        SyntaxError {
            range,
            message: message.into(),
            code,
            severity: Severity::Error,
        }
    }

    pub fn warning(range: TextRange, message: impl Into<String>, code: Code) -> SyntaxError {
        debug_assert!(
            code.reported().allows(Severity::Warning),
            "{code} is not a warning"
        );
        SyntaxError {
            range,
            message: message.into(),
            code,
            severity: Severity::Warning,
        }
    }
}

/// The result of parsing: a green tree (cheap to clone, shareable across
/// threads) and the lexing and parsing errors, in text order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parse {
    green: rowan::GreenNode,
    errors: Vec<SyntaxError>,
    kind: SourceKind,
    /// See `Lexed::pending_regex_start`.
    pending_regex_start: Option<TextSize>,
}

impl Parse {
    pub fn syntax_node(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    pub fn green(&self) -> &rowan::GreenNode {
        &self.green
    }

    pub fn tree(&self) -> ast::SourceFile {
        use ast::AstNode;
        ast::SourceFile::cast(self.syntax_node()).expect("the root is always a SOURCE_FILE")
    }

    /// Lexing and parsing errors (validation is separate: see `validate`).
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    pub fn source_kind(&self) -> SourceKind {
        self.kind
    }

    /// The tree in an indented, one-node-or-token-per-line form, for tests
    /// and `puppet-ls parse --tree`.
    pub fn debug_tree(&self) -> String {
        debug_tree(&self.syntax_node())
    }
}

/// Parses `text` as a manifest (`.pp`) or a template (`.epp`).
pub fn parse(text: &str, kind: SourceKind) -> Parse {
    let lexed = lexer::lex(text, kind);
    let (green, mut errors) = parser::parse(text, &lexed, kind);
    let pending_regex_start = lexed
        .pending_regex_start
        .map(|at| TextSize::from(at as u32));
    errors.extend(lexed.errors);
    errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    Parse {
        green,
        errors,
        kind,
        pending_regex_start,
    }
}

/// Lexing, parsing and validation errors together, in text order.
pub fn parse_and_validate(text: &str, kind: SourceKind) -> (Parse, Vec<SyntaxError>) {
    let parse = parse(text, kind);
    let mut all = parse.errors().to_vec();
    all.extend(validation::validate(&parse.syntax_node(), kind));
    all.sort_by_key(|e| (e.range.start(), e.range.end()));
    (parse, all)
}

/// Renders a tree with one element per line: `KIND@start..end "text"`.
pub fn debug_tree(node: &SyntaxNode) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut indent = 0usize;
    for event in node.preorder_with_tokens() {
        match event {
            rowan::WalkEvent::Enter(element) => {
                let _ = write!(
                    out,
                    "{:indent$}{:?}@{:?}",
                    "",
                    element.kind(),
                    element.text_range()
                );
                if let rowan::NodeOrToken::Token(token) = &element {
                    let _ = write!(out, " {:?}", token.text());
                }
                out.push('\n');
                indent += 2;
            }
            rowan::WalkEvent::Leave(_) => indent -= 2,
        }
    }
    out
}

/// The innermost node covering `range` of the tree under `root` (a
/// token's parent when the range is inside one token); `None` when the
/// range lies outside the tree.
pub fn covering_node(root: &SyntaxNode, range: TextRange) -> Option<SyntaxNode> {
    if !root.text_range().contains_range(range) {
        return None;
    }
    let element = root.covering_element(range);
    element
        .as_node()
        .cloned()
        .or_else(|| element.as_token().and_then(|t| t.parent()))
}

/// A run of a file's top-level elements as a file of its own (a
/// `SOURCE_FILE` root), so a part of a file can be read without the rest:
/// the statements keep their parent's kind, and heredoc headers pair with
/// the bodies inside the run.
pub fn top_level_run(elements: &[SyntaxElement]) -> GreenNode {
    let children = elements.iter().map(|element| match element {
        NodeOrToken::Node(node) => NodeOrToken::Node(node.green().into_owned()),
        NodeOrToken::Token(token) => NodeOrToken::Token(token.green().to_owned()),
    });
    GreenNode::new(rowan::SyntaxKind(SyntaxKind::SOURCE_FILE as u16), children)
}
