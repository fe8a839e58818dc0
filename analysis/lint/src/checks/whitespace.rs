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
struct BlankRun {
    range: TextRange,
    /// It starts a line (puppet-lint's `INDENT`).
    indents: bool,
    /// A line break or the end of the file follows it.
    ends_line: bool,
}

fn blank_runs<'c>(ctx: &'c LintContext<'_>) -> impl Iterator<Item = BlankRun> + 'c {
    ctx.tokens_of(SyntaxKind::WHITESPACE)
        .flat_map(move |token| {
            let start = usize::from(token.text_range().start());
            let text = token.text();
            let at_file_end = token.text_range().end() == ctx.root.text_range().end();
            let mut runs = Vec::new();
            let mut run_start = 0;
            let mut after_break = false;
            let mut chars = text.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                if c == '\n' || c == '\r' {
                    if i > run_start {
                        runs.push((run_start, i, after_break, true));
                    }
                    if c == '\r' && chars.peek().map(|&(_, n)| n) == Some('\n') {
                        chars.next();
                    }
                    run_start = chars.peek().map_or(text.len(), |&(j, _)| j);
                    after_break = true;
                }
            }
            if run_start < text.len() {
                runs.push((run_start, text.len(), after_break, at_file_end));
            }
            runs.into_iter()
                .map(move |(from, to, indents, ends_line)| BlankRun {
                    range: TextRange::new(
                        TextSize::from((start + from) as u32),
                        TextSize::from((start + to) as u32),
                    ),
                    indents,
                    ends_line,
                })
        })
}

pub(crate) fn two_space_soft_tabs(ctx: &LintContext, sink: &mut Sink) {
    for run in blank_runs(ctx).filter(|run| run.indents) {
        if ctx.text[run.range].chars().count() % 2 == 1 {
            sink.report(run.range, "two-space soft tabs not used");
        }
    }
}

pub(crate) fn hard_tabs(ctx: &LintContext, sink: &mut Sink) {
    for run in blank_runs(ctx) {
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
    for run in blank_runs(ctx).filter(|run| run.ends_line) {
        let edit = TextEdit::replace(run.range, "");
        sink.report_with_fix(
            run.range,
            "trailing whitespace found",
            "Remove trailing whitespace",
            vec![edit],
        );
    }
}
