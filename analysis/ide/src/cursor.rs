//! Choosing what the cursor is on. A cursor is a position between two
//! characters: `$x|,` touches both `$x` and `,`. Every feature asks the same
//! question ("which named thing is at this offset?"), answered here once:
//! prefer a range the offset is strictly inside, then one starting at the
//! offset, then one ending there (the identifier just typed).

use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};

/// The item whose range best matches `offset` (see the module doc), or
/// `None` when no range touches it. Never panics, for any offset.
pub fn pick<T>(
    items: impl IntoIterator<Item = T>,
    offset: TextSize,
    range: impl Fn(&T) -> TextRange,
) -> Option<T> {
    items
        .into_iter()
        .filter_map(|item| {
            let r = range(&item);
            let rank = if r.start() < offset && offset < r.end() {
                0
            } else if r.start() == offset && !r.is_empty() {
                1
            } else if r.end() == offset {
                2
            } else {
                return None;
            };
            Some((rank, r.len(), item))
        })
        .min_by_key(|(rank, len, _)| (*rank, *len))
        .map(|(_, _, item)| item)
}

/// The token at a cursor: between two tokens, the one that is not trivia,
/// preferring names and literals over punctuation. `None` past the end.
pub fn token_at(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    if offset > root.text_range().end() {
        return None;
    }
    let rank = |t: &SyntaxToken| {
        let k = t.kind();
        if k.is_trivia() {
            2
        } else if is_word_like(k) {
            0
        } else {
            1
        }
    };
    root.token_at_offset(offset).min_by_key(rank)
}

/// Names, variables and literals: what a cursor touching them means.
fn is_word_like(kind: SyntaxKind) -> bool {
    use SyntaxKind::*;
    matches!(kind, NAME | VARIABLE | WORD | NUMBER | SQ_STRING) || kind.is_keyword()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(a: u32, b: u32) -> TextRange {
        TextRange::new(a.into(), b.into())
    }

    #[test]
    fn prefers_inside_then_start_then_end() {
        let items = [("a", r(0, 2)), ("b", r(2, 4)), ("c", r(6, 8))];
        let at = |o: u32| pick(items, o.into(), |i| i.1).map(|i| i.0);
        assert_eq!(at(1), Some("a"));
        assert_eq!(at(2), Some("b"));
        assert_eq!(at(4), Some("b"));
        assert_eq!(at(5), None);
        assert_eq!(at(8), Some("c"));
        assert_eq!(at(1000), None);
    }
}
