//! Parsing a fragment of a file on its own (for incremental reparsing): a
//! `{ ... }` block, a hash, or a resource expression, whose text is known to
//! be one complete node.

use super::{expressions, resources, Parser};
use crate::lexer::Lexed;
use crate::syntax_kind::SyntaxKind::{self, *};
use crate::SyntaxError;
use rowan::GreenNode;

/// Parses `text` as one node of `kind` (`BLOCK`, `HASH_EXPR`, or a resource
/// kind). `None` unless the whole text became exactly one node of that kind.
pub(crate) fn parse_fragment(
    text: &str,
    lexed: &Lexed,
    kind: SyntaxKind,
) -> Option<(GreenNode, Vec<SyntaxError>)> {
    let offsets = super::token_offsets(lexed);
    let mut p = Parser::for_whole(text, lexed, &offsets);
    // A wrapper root, so that whatever the parser builds, `finish` succeeds.
    p.builder.start_node(SOURCE_FILE.into());
    match kind {
        BLOCK => expressions::block(&mut p, "for the block"),
        HASH_EXPR if p.at(L_BRACE) => {
            expressions::hash(&mut p);
        }
        RESOURCE_EXPR | RESOURCE_DEFAULTS | RESOURCE_OVERRIDE => {
            resources::resource(&mut p);
        }
        _ => return None,
    }
    let consumed_all = p.at(EOF) && p.emitted == p.range.end;
    p.flush_trivia_to(p.range.end);
    p.builder.finish_node();
    let root = p.builder.finish();
    let mut children = root.children();
    let (Some(rowan::NodeOrToken::Node(node)), None) = (children.next(), children.next()) else {
        return None;
    };
    (consumed_all && node.kind() == kind.into()).then(|| (node.to_owned(), p.errors))
}
