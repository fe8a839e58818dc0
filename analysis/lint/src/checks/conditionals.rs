//! `case_without_default` and `selector_inside_resource`.

use super::Sink;
use crate::context::LintContext;
use puppet_syntax::{SyntaxKind, SyntaxNode};

pub(crate) fn case_without_default(ctx: &LintContext, sink: &mut Sink) {
    for case in ctx.nodes(SyntaxKind::CASE_EXPR) {
        let has_default = case
            .children()
            .filter(|n| n.kind() == SyntaxKind::CASE_OPTION)
            .flat_map(|option| option.children().collect::<Vec<_>>())
            .any(|value| is_default(&value));
        if has_default {
            continue;
        }
        if let Some(keyword) = case.first_token() {
            sink.report(
                keyword.text_range(),
                "case statement without a default case",
            );
        }
    }
}

fn is_default(value: &SyntaxNode) -> bool {
    value.kind() == SyntaxKind::LITERAL
        && value
            .first_token()
            .is_some_and(|t| t.kind() == SyntaxKind::DEFAULT_KW)
}

/// `attr => $x ? { ... }` anywhere in a resource body: puppet-lint looks
/// for `=> $variable ?`.
pub(crate) fn selector_inside_resource(ctx: &LintContext, sink: &mut Sink) {
    for resource in ctx.resources() {
        for selector in ctx.nodes_within(SyntaxKind::SELECTOR_EXPR, resource.body.text_range()) {
            let Some(subject) = selector.first_child() else {
                continue;
            };
            if !is_variable(&subject) {
                continue;
            }
            let Some(first) = subject.first_token() else {
                continue;
            };
            let Some((_, arrow)) = ctx.prev_code(ctx.index_at(first.text_range().start())) else {
                continue;
            };
            if arrow.kind() == SyntaxKind::FAT_ARROW {
                sink.report(arrow.text_range(), "selector inside resource block");
            }
        }
    }
}

/// `$x`, or `$x[...]` written without blanks (one token for puppet-lint).
fn is_variable(expr: &SyntaxNode) -> bool {
    let mut expr = expr.clone();
    loop {
        match expr.kind() {
            SyntaxKind::VARIABLE_EXPR => return true,
            SyntaxKind::ACCESS_EXPR if !expr.to_string().contains(char::is_whitespace) => {
                match expr.first_child() {
                    Some(target) => expr = target,
                    None => return false,
                }
            }
            _ => return false,
        }
    }
}
