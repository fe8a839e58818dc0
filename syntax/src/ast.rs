//! Typed access to the syntax tree.

use crate::syntax_kind::{SyntaxKind, SyntaxNode};

/// The root of every tree.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SourceFile(SyntaxNode);

impl SourceFile {
    pub fn cast(node: SyntaxNode) -> Option<SourceFile> {
        (node.kind() == SyntaxKind::SOURCE_FILE).then_some(SourceFile(node))
    }
    pub fn syntax(&self) -> &SyntaxNode {
        &self.0
    }
}
