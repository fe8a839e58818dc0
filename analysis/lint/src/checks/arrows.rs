//! `arrow_alignment` and `space_before_arrow`: the blanks around `=>` in a
//! resource body and the hashes and selectors inside it.
//!
//! Both follow puppet-lint's reading of a body: the tokens after the
//! title's colon, where each `{` opens a level (a hash, a selector) whose
//! arrows are aligned among themselves. `+>` is not an arrow here.

use super::Sink;
use crate::context::{LintContext, Tok};
use puppet_syntax::{SyntaxKind, TextEdit, TextRange, TextSize};

/// The code tokens of a resource body after its title's colon.
fn body_tokens<'c>(
    ctx: &'c LintContext,
    body: &puppet_syntax::SyntaxNode,
) -> Vec<(usize, &'c Tok<'c>)> {
    let range = body.text_range();
    let colon_end = body
        .children_with_tokens()
        .find(|e| e.kind() == SyntaxKind::COLON)
        .map_or(range.start(), |colon| colon.text_range().end());
    let first = ctx
        .tokens
        .partition_point(|t| t.text_range().start() < colon_end);
    ctx.tokens[first..]
        .iter()
        .enumerate()
        .map(|(i, t)| (first + i, t))
        .take_while(|(_, t)| t.text_range().end() <= range.end())
        .filter(|(_, t)| !t.kind().is_trivia())
        .collect()
}

/// A resource body with at least one arrow.
struct ArrowBody<'c> {
    /// Its code tokens after the title's colon, as `body_tokens` gives them.
    tokens: Vec<(usize, &'c Tok<'c>)>,
    /// Whether its first and last arrows stand on one line: then
    /// `space_before_arrow` reads it, else `arrow_alignment`.
    one_line: bool,
}

impl<'c> ArrowBody<'c> {
    fn arrows(&self) -> impl Iterator<Item = &(usize, &'c Tok<'c>)> {
        self.tokens
            .iter()
            .filter(|(_, t)| t.kind() == SyntaxKind::FAT_ARROW)
    }
}

/// The resource bodies that have an arrow.
fn arrow_bodies<'c, 'a>(
    ctx: &'c LintContext<'a>,
) -> impl Iterator<Item = ArrowBody<'c>> + use<'c, 'a> {
    ctx.resources().iter().filter_map(move |resource| {
        let mut body = ArrowBody {
            tokens: body_tokens(ctx, &resource.body),
            one_line: false,
        };
        let mut lines = body
            .arrows()
            .map(|(_, arrow)| ctx.line_of(arrow.text_range().start()));
        let first = lines.next()?;
        body.one_line = lines.last().is_none_or(|last| last == first);
        Some(body)
    })
}

/// The key before an arrow: the previous code token, or the whole string
/// when it closes a double-quoted string.
fn key_range(ctx: &LintContext, arrow_index: usize) -> Option<TextRange> {
    let (_, key) = ctx.prev_code(arrow_index)?;
    if key.kind() == SyntaxKind::DQUOTE {
        if let Some(string) = ctx
            .syntax_token(key)
            .and_then(|t| t.parent())
            .filter(|p| p.kind() == SyntaxKind::DQ_STRING_EXPR)
        {
            return Some(string.text_range());
        }
    }
    Some(key.text_range())
}

struct Arrow {
    index: usize,
    range: TextRange,
    line: u32,
    column: u32,
    key: TextRange,
}

/// The arrows of one level and where they should stand.
#[derive(Default)]
struct Level {
    arrows: Vec<Arrow>,
    expected_column: u32,
    /// Column of the first key at this level.
    key_column: Option<u32>,
}

pub(crate) fn arrow_alignment(ctx: &LintContext, sink: &mut Sink) {
    for body in arrow_bodies(ctx).filter(|body| !body.one_line) {
        let mut levels = vec![Level::default()];
        for &(index, token) in &body.tokens {
            match token.kind() {
                SyntaxKind::FAT_ARROW => {
                    let Some(key) = key_range(ctx, index) else {
                        continue;
                    };
                    let level = levels.last_mut().expect("level 0 is never popped here");
                    add_arrow(ctx, level, index, token, key);
                }
                SyntaxKind::L_BRACE => levels.push(Level::default()),
                SyntaxKind::R_BRACE | SyntaxKind::SEMICOLON if levels.len() > 1 => {
                    let level = levels.pop().expect("more than one level");
                    report_misaligned(ctx, &level, sink);
                }
                _ => {}
            }
        }
        for level in levels.iter().rev() {
            report_misaligned(ctx, level, sink);
        }
    }
}

fn add_arrow(ctx: &LintContext, level: &mut Level, index: usize, token: &Tok, key: TextRange) {
    let (line, column) = ctx.line_column(token.text_range().start());
    let (_, key_column) = ctx.line_column(key.start());
    let key_length = ctx.text[key].chars().count() as u32;
    let level_key_column = *level.key_column.get_or_insert(key_column);
    let shares_line = level.arrows.iter().any(|a| a.line == line);
    let wanted = if shares_line {
        level_key_column
    } else {
        key_column
    } + key_length
        + 1;
    level.expected_column = level.expected_column.max(wanted);
    level.arrows.push(Arrow {
        index,
        range: token.text_range(),
        line,
        column,
        key,
    });
}

fn report_misaligned(ctx: &LintContext, level: &Level, sink: &mut Sink) {
    let first_line = level.arrows.first().map(|a| a.line);
    if level.arrows.len() < 2 || level.arrows.iter().all(|a| Some(a.line) == first_line) {
        return;
    }
    let expected = level.expected_column;
    for arrow in level.arrows.iter().filter(|a| a.column != expected) {
        let message = format!(
            "indentation of => is not properly aligned (expected in column {expected}, but found it in column {})",
            arrow.column
        );
        let first_on_line = level
            .arrows
            .iter()
            .find(|a| a.line == arrow.line)
            .map(|a| a.index)
            == Some(arrow.index);
        let edits = if first_on_line {
            align_in_place(ctx, arrow, expected)
        } else {
            let indent = level.key_column.unwrap_or(1) - 1;
            align_on_new_line(ctx, arrow, expected, indent)
        };
        match edits {
            Some(edits) => sink.report_with_fix(arrow.range, message, "Align the arrow", edits),
            None => sink.report(arrow.range, message),
        }
    }
}

/// The blanks right before `at` on its line.
fn blanks_before(ctx: &LintContext, at: TextSize) -> TextRange {
    let prefix = ctx.line_prefix(at);
    let blanks = prefix.len() - prefix.trim_end_matches([' ', '\t']).len();
    TextRange::new(at - TextSize::from(blanks as u32), at)
}

fn align_in_place(ctx: &LintContext, arrow: &Arrow, expected: u32) -> Option<Vec<TextEdit>> {
    let blanks = blanks_before(ctx, arrow.range.start());
    let width =
        ctx.text[blanks].chars().count() as i64 + i64::from(expected) - i64::from(arrow.column);
    let width = usize::try_from(width).ok()?;
    Some(vec![TextEdit::replace(blanks, " ".repeat(width))])
}

/// A second arrow on a line: its key moves to a new line, indented like
/// the first key of the level, and the arrow to the expected column.
fn align_on_new_line(
    ctx: &LintContext,
    arrow: &Arrow,
    expected: u32,
    indent: u32,
) -> Option<Vec<TextEdit>> {
    let key_start_index = ctx.index_at(arrow.key.start());
    let (_, before_key) = ctx.prev_code(key_start_index)?;
    let gap = TextRange::new(before_key.text_range().end(), arrow.key.start());
    if !ctx.text[gap].trim().is_empty() {
        return None;
    }
    let key_length = ctx.text[arrow.key].chars().count() as i64;
    let width = i64::from(expected) - 1 - i64::from(indent) - key_length;
    let width = usize::try_from(width).ok()?;
    let blanks = blanks_before(ctx, arrow.range.start());
    Some(vec![
        TextEdit::replace(gap, format!("\n{}", " ".repeat(indent as usize))),
        TextEdit::replace(blanks, " ".repeat(width)),
    ])
}

/// In a resource written on one line, one space before each `=>`.
pub(crate) fn space_before_arrow(ctx: &LintContext, sink: &mut Sink) {
    for body in arrow_bodies(ctx).filter(|body| body.one_line) {
        for &(index, arrow) in body.arrows() {
            let Some(before) = index.checked_sub(1).and_then(|i| ctx.tokens.get(i)) else {
                continue;
            };
            if before.text() == " " {
                continue;
            }
            let (line, column) = ctx.line_column(before.text_range().start());
            let message = format!(
                "there should be a single space before '=>' on line {line}, column {column}"
            );
            let edit = if before.kind() == SyntaxKind::WHITESPACE {
                TextEdit::replace(before.text_range(), " ")
            } else {
                TextEdit::replace(TextRange::empty(arrow.text_range().start()), " ")
            };
            sink.report_with_fix(
                before.text_range(),
                message,
                "Put one space before =>",
                vec![edit],
            );
        }
    }
}
