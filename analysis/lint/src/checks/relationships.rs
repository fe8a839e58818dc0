//! `arrow_on_right_operand_line` and `right_to_left_relationship`: how
//! relationships between resources are written.

use super::Sink;
use crate::context::LintContext;
use puppet_syntax::{SyntaxKind, TextEdit, TextRange};

/// `a ->` at the end of a line, `b` on the next: the arrow belongs with
/// `b`. The fix moves it (and one space) to the start of `b`.
pub(crate) fn arrow_on_right_operand_line(ctx: &LintContext, sink: &mut Sink) {
    for (index, arrow) in ctx.tokens.iter().enumerate() {
        if !matches!(arrow.kind(), SyntaxKind::IN_EDGE | SyntaxKind::IN_EDGE_SUB) {
            continue;
        }
        let Some((_, right)) = ctx.next_code(index) else {
            continue;
        };
        let arrow_range = arrow.text_range();
        if ctx.line_of(right.text_range().start()) == ctx.line_of(arrow_range.start()) {
            continue;
        }
        // Remove the arrow with the blanks before it on its line.
        let before = ctx.line_prefix(arrow_range.start());
        let blanks = before.len() - before.trim_end().len();
        let removed = if blanks < before.len() {
            TextRange::new(
                arrow_range.start() - puppet_syntax::TextSize::from(blanks as u32),
                arrow_range.end(),
            )
        } else {
            arrow_range
        };
        let insert_at = TextRange::empty(right.text_range().start());
        let edits = vec![
            TextEdit::replace(removed, ""),
            TextEdit::replace(insert_at, format!("{} ", arrow.text())),
        ];
        sink.report_with_fix(
            arrow_range,
            "arrow should be on the right operand's line",
            "Move the arrow to the right operand's line",
            edits,
        );
    }
}

pub(crate) fn right_to_left_relationship(ctx: &LintContext, sink: &mut Sink) {
    for arrow in ctx.tokens_of(SyntaxKind::OUT_EDGE) {
        sink.report(arrow.text_range(), "right-to-left (<-) relationship");
    }
}
