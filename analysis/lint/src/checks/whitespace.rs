//! `2sp_soft_tabs`, `hard_tabs` and `trailing_whitespace`: blanks between
//! tokens of code (never inside strings, heredocs or comments).
//!
//! puppet-lint's lexer cuts whitespace into line breaks, `INDENT` (blanks
//! after a line break) and `WHITESPACE` (other blanks); [`blank_runs`]
//! gives the same pieces from the tree's whitespace tokens.

use super::Sink;
use crate::context::LintContext;
use puppet_syntax::{SyntaxKind, TextEdit, TextRange, TextSize};

/// A run of blanks (no line break) inside a whitespace token.
pub(crate) struct BlankRun {
    range: TextRange,
    /// It starts a line (puppet-lint's `INDENT`).
    indents: bool,
    /// A line break or the end of the file follows it.
    ends_line: bool,
}

pub(crate) fn blank_runs(ctx: &LintContext) -> Vec<BlankRun> {
    let file_end = ctx.root.text_range().end();
    let mut runs = Vec::new();
    for token in ctx.tokens_of(SyntaxKind::WHITESPACE) {
        let range = token.text_range();
        let mut run = |from: usize, to: usize, indents: bool, ends_line: bool| {
            runs.push(BlankRun {
                range: TextRange::new(
                    range.start() + TextSize::from(from as u32),
                    range.start() + TextSize::from(to as u32),
                ),
                indents,
                ends_line,
            })
        };
        let text = token.text();
        // A blank between two tokens of a line concerns no check.
        if text == " " && range.end() != file_end {
            continue;
        }
        let mut run_start = 0;
        let mut after_break = false;
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'\n' || bytes[i] == b'\r' {
                if i > run_start {
                    run(run_start, i, after_break, true);
                }
                if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                run_start = i + 1;
                after_break = true;
            }
            i += 1;
        }
        if run_start < text.len() {
            run(run_start, text.len(), after_break, range.end() == file_end);
        }
    }
    runs
}

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
