//! Typed access to the syntax tree.
//!
//! Each node type is a thin wrapper over a `SyntaxNode` of one kind, with
//! accessors that return `Option` because trees of broken code are partial.
//! `Expr` is the sum of everything that can stand as an expression.
//! Values of literals (numbers, strings with escapes, heredoc text) are
//! computed here, since they are facts of the syntax.

mod literals;
mod nodes;
mod static_literal;

pub use literals::{
    escape_double_quoted, escape_heredoc, escape_single_quoted, heredoc_text,
    unescape_double_quoted, unescape_single_quoted, HeredocInfo, MappedText, Number, NumberError,
    TextOrigin,
};
pub use nodes::*;
pub use static_literal::StaticLiteral;

use crate::syntax_kind::{SyntaxKind, SyntaxNode, SyntaxToken};

/// A typed view of a syntax node.
pub trait AstNode: Sized {
    fn can_cast(kind: SyntaxKind) -> bool;
    fn cast(node: SyntaxNode) -> Option<Self>;
    fn syntax(&self) -> &SyntaxNode;
}

/// Children of a node that cast to `N`.
pub fn children<N: AstNode>(node: &SyntaxNode) -> impl Iterator<Item = N> {
    node.children().filter_map(N::cast)
}

/// The first child of a node that casts to `N`.
pub fn child<N: AstNode>(node: &SyntaxNode) -> Option<N> {
    children(node).next()
}

/// The first token of the node with the given kind (direct children only).
pub fn token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| t.kind() == kind)
}

/// The first direct child token that is not trivia.
pub fn first_significant_token(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| !t.kind().is_trivia())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse, SourceKind};

    #[test]
    fn doc_comments_are_the_block_right_above() {
        let text = "# License\n\n# Manages nginx.\n#   Second line.\nclass nginx { }\n";
        let parse = parse(text, SourceKind::Manifest);
        let class = parse
            .tree()
            .statements()
            .find_map(|s| match s {
                Expr::ClassDef(c) => Some(c),
                _ => None,
            })
            .unwrap();
        assert_eq!(
            class.doc_comment().as_deref(),
            Some("Manages nginx.\n  Second line.")
        );
        assert_eq!(class.name().as_deref(), Some("nginx"));
    }
}
