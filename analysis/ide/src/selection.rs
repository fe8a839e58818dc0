//! Selection ranges ("expand selection"): from the token at the cursor out
//! through the nodes that contain it. Strings first select their content
//! without the quotes, and bracketed lists their items without the
//! brackets.

use super::tree_helpers::bracket_pair;
use super::Cancellable;
use crate::Analysis;
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use std::path::Path;

impl Analysis {
    /// For each offset, the ranges to select, innermost first, each
    /// strictly containing the one before. Offsets past the end are
    /// clamped; an unknown file gives empty lists.
    pub fn selection_ranges(
        &self,
        path: &Path,
        offsets: &[TextSize],
    ) -> Cancellable<Vec<Vec<TextRange>>> {
        self.with_db(|a| {
            let root = a.syntax(path);
            offsets
                .iter()
                .map(|&offset| {
                    root.as_ref()
                        .map(|root| selection_at(root, offset))
                        .unwrap_or_default()
                })
                .collect()
        })
    }
}

fn selection_at(root: &SyntaxNode, offset: TextSize) -> Vec<TextRange> {
    let offset = offset.min(root.text_range().end());
    let mut candidates = root.token_at_offset(offset);
    let token = match (candidates.next(), candidates.next()) {
        (None, _) => return vec![root.text_range()],
        (Some(t), None) => t,
        (Some(left), Some(right)) => preferred(left, right),
    };
    let mut ranges = Vec::new();
    let mut push = |range: TextRange| {
        // Each range must grow: skip equal or narrower ones.
        if ranges
            .last()
            .is_none_or(|last: &TextRange| range.contains_range(*last) && range != *last)
        {
            ranges.push(range);
        }
    };
    if token.kind() != SyntaxKind::WHITESPACE {
        if let Some(inner) = string_content(&token) {
            push(inner);
        }
        push(token.text_range());
    }
    for node in token.parent_ancestors() {
        if let Some(inner) = inner_range(&node) {
            if inner.contains_inclusive(offset) {
                push(inner);
            }
        }
        push(node.text_range());
    }
    ranges
}

/// Between two tokens, the one worth selecting: not whitespace, and a
/// name rather than punctuation.
fn preferred(left: SyntaxToken, right: SyntaxToken) -> SyntaxToken {
    let rank = |t: &SyntaxToken| match t.kind() {
        SyntaxKind::WHITESPACE => 0,
        k if is_word(k) => 2,
        _ => 1,
    };
    if rank(&right) > rank(&left) {
        right
    } else {
        left
    }
}

fn is_word(kind: SyntaxKind) -> bool {
    use SyntaxKind::*;
    matches!(
        kind,
        NAME | WORD | TYPE_REF | VARIABLE | NUMBER | SQ_STRING | STRING_TEXT | REGEX
    ) || kind.is_keyword()
}

/// A single-quoted string's or regex's text without its delimiters.
fn string_content(token: &SyntaxToken) -> Option<TextRange> {
    let delimiter = match token.kind() {
        SyntaxKind::SQ_STRING => '\'',
        SyntaxKind::REGEX => '/',
        _ => return None,
    };
    let text = token.text();
    let range = token.text_range();
    let start = range.start() + TextSize::of(delimiter);
    let end = if text.len() >= 2 && text.ends_with(delimiter) {
        range.end() - TextSize::of(delimiter)
    } else {
        range.end()
    };
    (start <= end).then(|| TextRange::new(start, end))
}

/// The inside of a double-quoted string, or of a bracketed list or block,
/// from its first to its last significant element.
fn inner_range(node: &SyntaxNode) -> Option<TextRange> {
    if node.kind() == SyntaxKind::DQ_STRING_EXPR {
        let mut quotes = node
            .children_with_tokens()
            .filter(|e| e.kind() == SyntaxKind::DQUOTE);
        let open = quotes.next()?;
        let close = quotes.next()?;
        return Some(TextRange::new(
            open.text_range().end(),
            close.text_range().start(),
        ));
    }
    let (open, close) = bracket_pair(node)?;
    let close = close?;
    let inside: Vec<_> = node
        .children_with_tokens()
        .skip_while(|e| e.as_token() != Some(&open))
        .skip(1)
        .take_while(|e| e.as_token() != Some(&close))
        .filter(|e| !e.kind().is_trivia())
        .collect();
    let first = inside.first()?;
    let last = inside.last()?;
    Some(TextRange::new(
        first.text_range().start(),
        last.text_range().end(),
    ))
}
