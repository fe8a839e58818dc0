//! `slash_comments` and `star_comments`: comments in `#` form only.

use super::Sink;
use crate::context::LintContext;
use puppet_syntax::{SyntaxKind, TextEdit, TextRange, TextSize};

/// Puppet has no `//` comments: it reads an empty regex or a division.
/// Wherever code starts with `//`, puppet-lint sees a comment up to the
/// end of the line; the fix makes it one.
pub(crate) fn slash_comments(ctx: &LintContext, sink: &mut Sink) {
    let mut previous_end = None;
    for token in &ctx.tokens {
        let range = token.text_range();
        let starts_slashes = match token.kind() {
            SyntaxKind::REGEX => token.text().starts_with("//"),
            SyntaxKind::SLASH => ctx.text[usize::from(range.end())..].starts_with('/'),
            _ => false,
        };
        // The second `/` of `//` read as two divisions belongs to the first.
        if !starts_slashes || previous_end.is_some_and(|end| end > range.start()) {
            continue;
        }
        let rest = &ctx.text[usize::from(range.start())..];
        let line_end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let comment = TextRange::at(range.start(), TextSize::from(line_end as u32));
        previous_end = Some(comment.end());
        let slashes = TextRange::at(range.start(), TextSize::from(2));
        sink.report_with_fix(
            comment,
            "// comment found",
            "Make it a # comment",
            vec![TextEdit::replace(slashes, "#")],
        );
    }
}

pub(crate) fn star_comments(ctx: &LintContext, sink: &mut Sink) {
    for token in ctx.tokens_of(SyntaxKind::BLOCK_COMMENT) {
        let range = token.text_range();
        let fix = hash_comment_lines(ctx, token.text(), range);
        match fix {
            Some(edit) => sink.report_with_fix(
                range,
                "/* */ comment found",
                "Make it # comments",
                vec![edit],
            ),
            None => sink.report(range, "/* */ comment found"),
        }
    }
}

/// The `#` lines saying what a `/* */` comment says, as puppet-lint writes
/// them: the text without its delimiters and leading `*`s, each line
/// indented like the comment. None when code follows the comment on its
/// last line (it would become part of the comment).
fn hash_comment_lines(ctx: &LintContext, text: &str, range: TextRange) -> Option<TextEdit> {
    let after = &ctx.text[usize::from(range.end())..];
    let rest_of_line = &after[..after.find(['\n', '\r']).unwrap_or(after.len())];
    if !rest_of_line.trim().is_empty() {
        return None;
    }
    let prefix = ctx.line_prefix(range.start());
    let indent = if prefix.trim().is_empty() { prefix } else { "" };
    let body = text.strip_prefix("/*")?.strip_suffix("*/")?;
    let lines: Vec<String> = body
        .trim()
        .lines()
        .map(|line| {
            let line = line.trim();
            let line = line.strip_prefix('*').unwrap_or(line).trim();
            if line.is_empty() {
                "#".to_string()
            } else {
                format!("# {line}")
            }
        })
        .collect();
    let separator = format!("\n{indent}");
    Some(TextEdit::replace(range, lines.join(&separator)))
}
