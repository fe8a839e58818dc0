//! The `BlankRun` view of a file, computed once per lint run and shared by the checks that read it.

use super::LintContext;
use puppet_syntax::{SyntaxKind, TextRange, TextSize};

/// A run of blanks (no line break) inside a whitespace token.
pub(crate) struct BlankRun {
    pub range: TextRange,
    /// It starts a line (puppet-lint's `INDENT`).
    pub indents: bool,
    /// A line break or the end of the file follows it.
    pub ends_line: bool,
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
