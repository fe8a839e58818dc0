//! `2sp_soft_tabs`, `hard_tabs` and `trailing_whitespace`: blanks between
//! tokens of code (never inside strings, heredocs or comments).
//!
//! puppet-lint's lexer cuts whitespace into line breaks, `INDENT` (blanks
//! after a line break) and `WHITESPACE` (other blanks); [`blank_runs`]
//! gives the same pieces from the tree's whitespace tokens.

use super::Sink;
use crate::context::LintContext;
use puppet_syntax::TextEdit;

pub(crate) fn two_space_soft_tabs(ctx: &LintContext, sink: &mut Sink) {
    for run in ctx.blank_runs().iter().filter(|run| run.indents) {
        if ctx.text[run.range].chars().count() % 2 == 1 {
            sink.report(run.range, "two-space soft tabs not used");
        }
    }
}

pub(crate) fn hard_tabs(ctx: &LintContext, sink: &mut Sink) {
    for run in ctx.blank_runs() {
        let blanks = &ctx.text[run.range];
        if blanks.contains('\t') {
            let edit = TextEdit::replace(run.range, blanks.replace('\t', "  "));
            sink.report_with_fix(
                run.range,
                "tab character found",
                "Replace tabs with two spaces",
                vec![edit],
            );
        }
    }
}

pub(crate) fn trailing_whitespace(ctx: &LintContext, sink: &mut Sink) {
    for run in ctx.blank_runs().iter().filter(|run| run.ends_line) {
        let edit = TextEdit::replace(run.range, "");
        sink.report_with_fix(
            run.range,
            "trailing whitespace found",
            "Remove trailing whitespace",
            vec![edit],
        );
    }
}
