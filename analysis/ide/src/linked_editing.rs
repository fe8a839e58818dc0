//! Linked editing: a heredoc's tag in its header (`@("EOT":json)`) and on
//! its end line (`| EOT`) change together, so renaming one keeps the
//! heredoc closed.

use super::Cancellable;
use crate::Analysis;
use puppet_syntax::ast::{AstNode, HeredocBody, HeredocExpr};
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use std::path::Path;

/// The ranges edited together, and the characters a tag may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedRanges {
    pub ranges: Vec<TextRange>,
    /// A regular expression for what the ranges may become.
    pub word_pattern: &'static str,
}

/// What Puppet accepts in a tag: no `)`, `:`, `/`, quote or line break.
const TAG_PATTERN: &str = r#"[^)(:/"\s]+"#;

impl Analysis {
    /// The header and end tag of the heredoc whose tag is at `offset`.
    pub fn linked_editing_ranges(
        &self,
        path: &Path,
        offset: TextSize,
    ) -> Cancellable<Option<LinkedRanges>> {
        self.with_db(|a| {
            let root = a.syntax(path)?;
            let token = root.token_at_offset(offset).find(|t| {
                matches!(
                    t.kind(),
                    SyntaxKind::HEREDOC_HEADER | SyntaxKind::HEREDOC_END
                )
            })?;
            let (header, end) = match token.kind() {
                SyntaxKind::HEREDOC_HEADER => {
                    let heredoc = HeredocExpr::cast(token.parent()?)?;
                    let end = heredoc.body()?.end_token()?;
                    (token, end)
                }
                _ => {
                    let body = HeredocBody::cast(token.parent()?)?;
                    (header_of(&root, &body)?, token)
                }
            };
            let tag = HeredocExpr::cast(header.parent()?)?.info()?.tag;
            let ranges = vec![tag_in(&header, &tag, false)?, tag_in(&end, &tag, true)?];
            ranges
                .iter()
                .any(|r| r.contains_inclusive(offset))
                .then_some(LinkedRanges {
                    ranges,
                    word_pattern: TAG_PATTERN,
                })
        })
    }
}

/// The header token of a heredoc body (headers and bodies pair up in
/// text order).
fn header_of(root: &SyntaxNode, body: &HeredocBody) -> Option<SyntaxToken> {
    let index = root
        .descendants()
        .filter_map(HeredocBody::cast)
        .position(|b| b == *body)?;
    root.descendants()
        .filter_map(HeredocExpr::cast)
        .nth(index)?
        .header_token()
}

/// The range of `tag` in a header (its first occurrence after `@(`) or an
/// end line (its last).
fn tag_in(token: &SyntaxToken, tag: &str, last: bool) -> Option<TextRange> {
    if tag.is_empty() {
        return None;
    }
    let text = token.text();
    let at = if last {
        text.rfind(tag)?
    } else {
        2 + text.get(2..)?.find(tag)?
    };
    let start = token.text_range().start() + TextSize::try_from(at).ok()?;
    Some(TextRange::at(start, TextSize::of(tag)))
}
