//! puppet-lint's control comments: `# lint:ignore:NAME` ... `# lint:endignore`
//! silences NAME on the lines in between (both included), a
//! `# lint:ignore:NAME` after code on a line silences it on that line, and
//! one comment may name several checks (`# lint:ignore:80chars
//! lint:ignore:140chars reason`). Names of checks puppet-ls does not have
//! (puppet-lint plugins) are accepted and change nothing.

use crate::context::LintContext;
use puppet_syntax::{SyntaxKind, TextEdit, TextRange, TextSize};
use std::collections::{HashMap, HashSet};
use std::ops::RangeInclusive;

/// The lines on which each check is silenced.
#[derive(Debug, Default)]
pub(crate) struct IgnoredLines {
    lines: HashMap<String, HashSet<u32>>,
    blocks: HashMap<String, Vec<RangeInclusive<u32>>>,
}

impl IgnoredLines {
    pub fn is_ignored(&self, check: &str, line: u32) -> bool {
        self.lines
            .get(check)
            .is_some_and(|lines| lines.contains(&line))
            || self
                .blocks
                .get(check)
                .is_some_and(|blocks| blocks.iter().any(|b| b.contains(&line)))
    }

    pub fn from_context(ctx: &LintContext) -> IgnoredLines {
        let mut ignored = IgnoredLines::default();
        // Each block comment opens a group of checks; `endignore` closes the
        // most recent group.
        let mut open_groups: Vec<Vec<(u32, String)>> = Vec::new();
        let comments = ctx.tokens.iter().filter(|t| {
            matches!(t.kind(), SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT)
                && t.text().contains("lint:")
        });
        for token in comments {
            let Some(text) = comment_text(token.kind(), token.text()) else {
                continue;
            };
            let start = token.text_range().start();
            let line = ctx.line_of(start);
            let prefix = ctx.line_prefix(start);
            let after_code = !(prefix.is_empty() || (line > 1 && prefix.trim().is_empty()));
            let mut group = Vec::new();
            for command in control_words(&text) {
                match command {
                    Control::Ignore(check) if after_code => {
                        ignored.lines.entry(check).or_default().insert(line);
                    }
                    Control::Ignore(check) => group.push((line, check)),
                    Control::EndIgnore => {
                        for (from, check) in open_groups.pop().unwrap_or_default() {
                            ignored.blocks.entry(check).or_default().push(from..=line);
                        }
                    }
                }
            }
            if !group.is_empty() {
                open_groups.push(group);
            }
        }
        ignored
    }
}

/// The text of a comment as puppet-lint keeps it: without `#`, or without
/// `/*`, `*/` and the `*` starting each line.
fn comment_text(kind: SyntaxKind, text: &str) -> Option<String> {
    match kind {
        SyntaxKind::COMMENT => Some(text.strip_prefix('#').unwrap_or(text).to_string()),
        SyntaxKind::BLOCK_COMMENT => {
            let inner = text.strip_prefix("/*")?.strip_suffix("*/").unwrap_or(text);
            let lines: Vec<&str> = inner
                .lines()
                .map(|line| {
                    let stripped = line.trim_start_matches(' ');
                    stripped.strip_prefix('*').unwrap_or(line)
                })
                .collect();
            Some(lines.join("\n"))
        }
        _ => None,
    }
}

enum Control {
    Ignore(String),
    EndIgnore,
}

/// The control words at the start of a comment (the rest is the reason).
fn control_words(text: &str) -> Vec<Control> {
    let text = text.trim();
    let is_control = text.starts_with("lint:endignore")
        || text
            .strip_prefix("lint:ignore:")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
    if !is_control {
        return Vec::new();
    }
    text.split_whitespace()
        .take_while(|word| word.starts_with("lint:ignore") || word.starts_with("lint:endignore"))
        .filter_map(|word| {
            let mut parts = word.split(':');
            match parts.nth(1) {
                Some("ignore") => parts.next().map(|check| Control::Ignore(check.to_string())),
                _ => Some(Control::EndIgnore),
            }
        })
        .collect()
}

/// The edits that silence `check` on the line holding `offset` with
/// control comments: `# lint:ignore:CHECK` after the line's code (added to
/// a control comment already there, or put at the start of a plain
/// comment, whose text becomes the reason); a comment-only line, which a
/// control comment cannot follow, goes between `# lint:ignore:CHECK` and
/// `# lint:endignore` lines. `None` when the line ends inside a string or
/// heredoc, where a comment would be text.
pub fn ignore_on_line(
    root: &puppet_syntax::SyntaxNode,
    check: &str,
    offset: TextSize,
) -> Option<Vec<TextEdit>> {
    let text = root.text().to_string();
    let at = usize::from(offset).min(text.len());
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..line_end];
    let code_end = line_start + line.trim_end().len();
    if code_end == line_start || !line_break_is_trivia(root, line_end) {
        return None;
    }
    // The token holding the line's last character.
    let last = root.token_at_offset(size(code_end - 1)?).right_biased()?;
    if usize::from(last.text_range().end()) > line_end || last.kind() == SyntaxKind::HEREDOC_END {
        return None;
    }
    let word = format!("lint:ignore:{check}");
    let insert = |at: TextSize, text: String| TextEdit::replace(TextRange::empty(at), text);
    if last.kind() != SyntaxKind::COMMENT {
        return Some(vec![insert(size(code_end)?, format!(" # {word}"))]);
    }
    let comment_start = usize::from(last.text_range().start());
    if text[line_start..comment_start].trim().is_empty() {
        // Only a comment: a block around the line.
        let indent = &line[..line.len() - line.trim_start().len()];
        return Some(vec![
            insert(size(line_start)?, format!("{indent}# {word}\n")),
            insert(size(line_end)?, format!("\n{indent}# lint:endignore")),
        ]);
    }
    let body = last.text().strip_prefix('#')?;
    let start = comment_start + 1 + (body.len() - body.trim_start().len());
    let controls = control_words(body).len();
    if controls == 0 {
        return Some(vec![insert(size(start)?, format!("{word} "))]);
    }
    // After the control words, before the reason.
    let words: usize = body.split_whitespace().take(controls).map(str::len).sum();
    Some(vec![insert(
        size(start + words + controls - 1)?,
        format!(" {word}"),
    )])
}

/// Whether the line break at `offset` (or the end of the text) is outside
/// every string and heredoc.
fn line_break_is_trivia(root: &puppet_syntax::SyntaxNode, offset: usize) -> bool {
    let Some(at) = size(offset) else {
        return false;
    };
    if at >= root.text_range().end() {
        return true;
    }
    root.token_at_offset(at)
        .right_biased()
        .is_some_and(|t| t.kind() == SyntaxKind::WHITESPACE)
}

fn size(offset: usize) -> Option<TextSize> {
    TextSize::try_from(offset).ok()
}
