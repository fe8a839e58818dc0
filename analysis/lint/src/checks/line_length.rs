//! `80chars` and `140chars`: lines longer than a limit, except those with a
//! URL or a `template()` call, which would only get harder to read split.
//!
//! Like puppet-lint, lines are split at `\n` only and counted in
//! characters (a `\r` before the `\n` counts).

use super::Sink;
use crate::context::LintContext;
use puppet_syntax::{TextRange, TextSize};

pub(crate) fn chars_80(ctx: &LintContext, sink: &mut Sink) {
    long_lines(ctx, sink, 80);
}

pub(crate) fn chars_140(ctx: &LintContext, sink: &mut Sink) {
    long_lines(ctx, sink, 140);
}

fn long_lines(ctx: &LintContext, sink: &mut Sink, limit: usize) {
    let mut line_start = 0;
    for line in ctx.text.split('\n') {
        let start = line_start;
        line_start += line.len() + 1;
        if line.len() <= limit || line.contains("://") || line.contains("template(") {
            continue;
        }
        let Some((excess, _)) = line.char_indices().nth(limit) else {
            continue;
        };
        let range = TextRange::new(
            TextSize::from((start + excess) as u32),
            TextSize::from((start + line.len()) as u32),
        );
        sink.report(range, format!("line has more than {limit} characters"));
    }
}
