//! Checks on resource declarations: `duplicate_params`,
//! `ensure_first_param`, `ensure_not_symlink_target`, `file_mode`,
//! `unquoted_file_mode`, `unquoted_resource_title`.
//!
//! puppet-lint finds resources by their title's colon and reads the tokens
//! up to the end of the body; here a resource is a `RESOURCE_BODY` of the
//! tree, with its type, title and attributes.

use super::Sink;
use crate::context::resources::{value_token, Attribute, ValueToken};
use crate::context::LintContext;
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextEdit, TextRange};
use regex::Regex;
use std::collections::HashSet;
use std::sync::LazyLock;

/// A resource attribute sets a parameter once; puppet-lint also checks the
/// bare-word keys of hashes and selectors inside a resource.
pub(crate) fn duplicate_params(ctx: &LintContext, sink: &mut Sink) {
    for resource in ctx.resources() {
        let names = resource
            .attributes()
            .map(|a| a.name.clone())
            .filter(|n| n.kind() != SyntaxKind::STAR);
        report_duplicates(ctx, names, sink);
        let range = resource.body.text_range();
        let hashes = ctx
            .nodes_within(SyntaxKind::HASH_EXPR, range)
            .map(|n| (n, SyntaxKind::HASH_ENTRY));
        let selectors = ctx
            .nodes_within(SyntaxKind::SELECTOR_EXPR, range)
            .map(|n| (n, SyntaxKind::SELECTOR_ENTRY));
        for (container, entry_kind) in hashes.chain(selectors) {
            let keys = container
                .children()
                .filter(|entry| entry.kind() == entry_kind)
                .filter_map(|entry| entry.first_child())
                .filter(|key| key.kind() == SyntaxKind::QUALIFIED_NAME)
                .filter_map(|key| key.first_token());
            report_duplicates(ctx, keys, sink);
        }
    }
}

fn report_duplicates(ctx: &LintContext, names: impl Iterator<Item = SyntaxToken>, sink: &mut Sink) {
    let mut seen = HashSet::new();
    for name in names {
        if !seen.insert(&ctx.text[name.text_range()]) {
            sink.report(name.text_range(), "duplicate parameter found in resource");
        }
    }
}

pub(crate) fn ensure_first_param(ctx: &LintContext, sink: &mut Sink) {
    for resource in ctx.resources().iter().filter(|r| r.type_name != "class") {
        let attributes: Vec<&Attribute> = resource
            .attributes()
            .filter(|a| a.name.kind() != SyntaxKind::STAR)
            .collect();
        let Some(position) = attributes.iter().position(|a| a.is_named("ensure")) else {
            continue;
        };
        if position == 0 {
            continue;
        }
        let ensure = attributes[position];
        let message = "ensure found on line but it's not the first attribute";
        match move_first(ctx, attributes[0], ensure) {
            Some(edits) => sink.report_with_fix(
                ensure.name.text_range(),
                message,
                "Make ensure the first attribute",
                edits,
            ),
            None => sink.report(ensure.name.text_range(), message),
        }
    }
}

/// Edits moving `attribute` before `first`: it is removed with the comma
/// and blanks that separate it from the attribute before it, and written
/// again before `first` with the separator that precedes `first`. None
/// when a comment would be lost on the way.
fn move_first(
    ctx: &LintContext,
    first: &Attribute,
    attribute: &Attribute,
) -> Option<Vec<TextEdit>> {
    let previous_end = attribute
        .node
        .prev_sibling()
        .filter(|n| n.kind() == SyntaxKind::ATTRIBUTE)?
        .text_range()
        .end();
    let removed = TextRange::new(previous_end, attribute.node.text_range().end());
    let first_start = first.node.text_range().start();
    let separator_start = first
        .node
        .prev_sibling_or_token()
        .filter(|e| e.kind() == SyntaxKind::WHITESPACE)
        .map_or(first_start, |e| e.text_range().start());
    let separator = &ctx.text[TextRange::new(separator_start, first_start)];
    let separator = if separator.contains(['\n', '\r']) {
        separator
    } else {
        " "
    };
    let spans_comment = |range: TextRange| {
        ctx.tokens.iter().any(|t| {
            matches!(t.kind(), SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT)
                && range.contains_range(t.text_range())
        })
    };
    if spans_comment(removed) {
        return None;
    }
    let text = &ctx.text[attribute.node.text_range()];
    Some(vec![
        TextEdit::replace(TextRange::empty(first_start), format!("{text},{separator}")),
        TextEdit::replace(removed, ""),
    ])
}

/// `ensure => '/target'` on a file makes a symbolic link; puppet-lint
/// wants that said as `ensure => link, target => '/target'`.
pub(crate) fn ensure_not_symlink_target(ctx: &LintContext, sink: &mut Sink) {
    for resource in ctx.resources().iter().filter(|r| r.type_name == "file") {
        for ensure in resource.attributes().filter(|a| a.is_named("ensure")) {
            let Some(value) = ensure.value() else {
                continue;
            };
            let ValueToken::Quoted(text) = value_token(&value) else {
                continue;
            };
            if !text.starts_with('/') {
                continue;
            }
            let indent = ctx.line_prefix(ensure.node.text_range().start());
            let indent: String = indent.chars().take_while(|c| c.is_whitespace()).collect();
            let replacement = format!("link,\n{indent}target => {}", value.text());
            sink.report_with_fix(
                ctx.first_line_of(value.text_range()),
                "symlink target specified in ensure attr",
                "Use ensure => link with a target",
                vec![TextEdit::replace(value.text_range(), replacement)],
            );
        }
    }
}

/// The `mode` values of `file` and `concat` resources.
fn modes<'c>(ctx: &'c LintContext<'_>) -> impl Iterator<Item = SyntaxNode> + 'c {
    ctx.resources()
        .iter()
        .filter(|r| r.type_name == "file" || r.type_name == "concat")
        .flat_map(|r| {
            r.attributes()
                .filter(|a| a.is_named("mode"))
                .filter_map(|a| a.value())
                .collect::<Vec<_>>()
        })
}

static MODE: LazyLock<Regex> = LazyLock::new(|| {
    let symbolic = "([ugoa]*[-=+][-=+rstwxXugo]*)(,[ugoa]*[-=+][-=+rstwxXugo]*)*";
    Regex::new(&format!(r"\A([0-7]{{4}}|{symbolic})\z")).expect("valid regex")
});

pub(crate) fn file_mode(ctx: &LintContext, sink: &mut Sink) {
    for value in modes(ctx) {
        let text = match value_token(&value) {
            ValueToken::Variable | ValueToken::Undef | ValueToken::FunctionCall => continue,
            ValueToken::Quoted(text)
            | ValueToken::Number(text)
            | ValueToken::BareWord(text)
            | ValueToken::Other(text) => text,
        };
        if MODE.is_match(&text) {
            continue;
        }
        let message = "mode should be represented as a 4 digit octal value or symbolic mode";
        let range = ctx.first_line_of(value.text_range());
        let three_digits = text.len() == 3 && text.bytes().all(|b| (b'0'..=b'7').contains(&b));
        if three_digits {
            let edit = TextEdit::replace(value.text_range(), format!("'0{text}'"));
            sink.report_with_fix(range, message, format!("Write '0{text}'"), vec![edit]);
        } else {
            sink.report(range, message);
        }
    }
}

pub(crate) fn unquoted_file_mode(ctx: &LintContext, sink: &mut Sink) {
    for value in modes(ctx) {
        if !matches!(
            value_token(&value),
            ValueToken::Number(_) | ValueToken::BareWord(_)
        ) {
            continue;
        }
        if !matches!(
            value.kind(),
            SyntaxKind::LITERAL | SyntaxKind::QUALIFIED_NAME | SyntaxKind::BARE_WORD
        ) {
            sink.report(ctx.first_line_of(value.text_range()), "unquoted file mode");
            continue;
        }
        let edit = TextEdit::replace(value.text_range(), format!("'{}'", value.text()));
        sink.report_with_fix(
            value.text_range(),
            "unquoted file mode",
            "Quote the mode",
            vec![edit],
        );
    }
}

/// A bare-word title directly before its colon (`foo:`), or a bare word in
/// an array of titles (`[foo, 'bar']:`).
pub(crate) fn unquoted_resource_title(ctx: &LintContext, sink: &mut Sink) {
    for resource in ctx.resources() {
        let Some(title) = resource.title() else {
            continue;
        };
        let words: Vec<SyntaxNode> = match title.kind() {
            SyntaxKind::QUALIFIED_NAME | SyntaxKind::BARE_WORD => {
                let colon_follows = title
                    .next_sibling_or_token()
                    .is_some_and(|e| e.kind() == SyntaxKind::COLON);
                if !colon_follows {
                    continue;
                }
                vec![title]
            }
            SyntaxKind::ARRAY_EXPR => title
                .children()
                .filter(|e| matches!(e.kind(), SyntaxKind::QUALIFIED_NAME | SyntaxKind::BARE_WORD))
                .collect(),
            _ => continue,
        };
        for word in words {
            let edit = TextEdit::replace(word.text_range(), format!("'{}'", word.text()));
            sink.report_with_fix(
                word.text_range(),
                "unquoted resource title",
                "Quote the title",
                vec![edit],
            );
        }
    }
}
