//! Small tree questions several structural features ask: the syntax of a
//! file by path, and the bracket pair that delimits a node.

use crate::Analysis;
use puppet_analysis::db::parse;
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken};
use std::path::Path;

impl Analysis {
    /// The syntax tree of a workspace file (`None` for unknown paths).
    pub(crate) fn syntax(&self, path: &Path) -> Option<SyntaxNode> {
        let file = self.file(path)?;
        Some(parse(self.db(), file).syntax_node())
    }
}

/// The closing kind for an opening bracket token kind.
fn closing(open: SyntaxKind) -> Option<SyntaxKind> {
    use SyntaxKind::*;
    match open {
        L_BRACE => Some(R_BRACE),
        L_BRACK | L_BRACK_LIST => Some(R_BRACK),
        L_PAREN | L_PAREN_WS => Some(R_PAREN),
        _ => None,
    }
}

/// The node's own opening bracket (a direct child token) and, when the
/// code has it, the last matching closing bracket after it.
pub(crate) fn bracket_pair(node: &SyntaxNode) -> Option<(SyntaxToken, Option<SyntaxToken>)> {
    let mut tokens = node.children_with_tokens().filter_map(|e| e.into_token());
    let open = tokens.find(|t| closing(t.kind()).is_some())?;
    let close_kind = closing(open.kind())?;
    let close = tokens.filter(|t| t.kind() == close_kind).last();
    Some((open, close))
}
