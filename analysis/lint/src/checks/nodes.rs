//! `unquoted_node_name`: node names are strings; a bare host name is one
//! too, so quoting it keeps its meaning.

use super::Sink;
use crate::context::LintContext;
use puppet_syntax::{SyntaxKind, TextEdit};

pub(crate) fn unquoted_node_name(ctx: &LintContext, sink: &mut Sink) {
    for hostname in ctx.nodes(SyntaxKind::HOSTNAME) {
        // puppet-lint reads `192.168.0.1` as numbers, which it accepts.
        let has_word = hostname
            .children_with_tokens()
            .any(|e| matches!(e.kind(), SyntaxKind::NAME | SyntaxKind::WORD));
        if !has_word {
            continue;
        }
        let range = hostname.text_range();
        let edit = TextEdit::replace(range, format!("'{}'", hostname.text()));
        sink.report_with_fix(
            range,
            "unquoted node name found",
            "Quote the node name",
            vec![edit],
        );
    }
}
