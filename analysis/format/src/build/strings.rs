//! Double-quoted strings: single quotes when nothing needs double ones.
//!
//! The style guide (and puppet-lint's `double_quoted_strings`) wants
//! single quotes for strings without interpolation or escapes. A string
//! is requoted only when puppet-lint's own test finds no escape in it and
//! the single-quoted reading of the same characters gives the same value
//! (`"a\.b"` is `a\.b` either way, `"\r"` is not). Interpolated strings
//! are printed exactly as written.

use super::Builder;
use crate::doc::DocId;
use puppet_syntax::ast::{unescape_double_quoted, unescape_single_quoted};
use puppet_syntax::SyntaxKind::*;
use puppet_syntax::{NodeOrToken, SyntaxNode};

pub fn double_quoted(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    let text = b.source(node.text_range());
    let first = node.first_token();
    let last = node.last_token();
    let (Some(first), Some(last)) = (first, last) else {
        return b.docs.text(text);
    };
    let requoted = plain_text(node).and_then(single_quoted);
    let leading = b.trivia.take_leading(&first);
    let trailing = b.trivia.take_trailing(&last);
    let mut docs = b.leading_comments(leading);
    docs.push(match requoted {
        Some(single) => b.docs.text(single),
        None => b.docs.text(text),
    });
    docs.extend(b.trailing_comments(trailing));
    b.docs.concat(docs)
}

/// The text between the quotes of a string without interpolation.
fn plain_text(node: &SyntaxNode) -> Option<String> {
    let mut text = String::new();
    let mut quotes = 0;
    for element in node.children_with_tokens() {
        match element {
            NodeOrToken::Token(token) if token.kind() == DQUOTE => quotes += 1,
            NodeOrToken::Token(token) if token.kind() == STRING_TEXT => text.push_str(token.text()),
            _ => return None,
        }
    }
    (quotes == 2).then_some(text)
}

/// `'inner'` when single quotes keep the value and puppet-lint sees no
/// escape in `inner`.
fn single_quoted(inner: String) -> Option<String> {
    const LINT_ESCAPES: &[&str] = &[
        "\\$", "\\\"", "\\'", "'", "\r", "\t", "\\t", "\\s", "\n", "\\n", "\\\\",
    ];
    if LINT_ESCAPES.iter().any(|escape| inner.contains(escape)) {
        return None;
    }
    if unescape_single_quoted(&inner) != unescape_double_quoted(&inner) {
        return None;
    }
    Some(format!("'{inner}'"))
}

#[cfg(test)]
mod tests {
    use super::single_quoted;

    #[test]
    fn only_strings_with_the_same_value_are_requoted() {
        assert_eq!(single_quoted("plain".into()).as_deref(), Some("'plain'"));
        assert_eq!(single_quoted("a\\.b".into()).as_deref(), Some("'a\\.b'"));
        assert_eq!(single_quoted(String::new()).as_deref(), Some("''"));
        for kept in ["it's", "a\\nb", "\\$x", "\\r", "\\u263A", "tab\\t", "\\\\"] {
            assert_eq!(single_quoted(kept.into()), None, "{kept}");
        }
    }
}
