//! Checks on strings: `double_quoted_strings`, `only_variable_string`,
//! `puppet_url_without_modules`, `quoted_booleans`,
//! `single_quote_string_with_variables`, `variables_not_enclosed`.

use super::Sink;
use crate::context::resources::single_quoted_content;
use crate::context::LintContext;
use puppet_syntax::ast::AstNode;
use puppet_syntax::{SyntaxKind, SyntaxNode, TextEdit};
use regex::Regex;
use std::sync::LazyLock;

/// The text between the quotes of a double-quoted string without
/// interpolation (escapes as written), or None.
fn static_double_quoted(node: &SyntaxNode) -> Option<String> {
    let mut text = String::new();
    for element in node.children_with_tokens() {
        match element.kind() {
            SyntaxKind::DQUOTE => {}
            SyntaxKind::STRING_TEXT => text.push_str(&element.to_string()),
            _ => return None,
        }
    }
    Some(text)
}

/// The text a string starts with, up to its first interpolation, for
/// single- and double-quoted strings.
fn leading_text(node: &SyntaxNode) -> Option<String> {
    match node.kind() {
        SyntaxKind::SQ_STRING_EXPR => Some(single_quoted_content(&node.text().to_string())),
        SyntaxKind::DQ_STRING_EXPR => Some(
            node.children_with_tokens()
                .skip(1)
                .take_while(|e| e.kind() == SyntaxKind::STRING_TEXT)
                .map(|e| e.to_string())
                .collect(),
        ),
        _ => None,
    }
}

/// Escapes and characters that need double quotes. puppet-lint's list
/// (`\$ \" \' ' \t \s \n \\`, a tab, a line break) misses `\r` and `\u`,
/// which single quotes would not turn into a carriage return or a
/// Unicode character.
const NEEDS_DOUBLE_QUOTES: &[&str] = &[
    "\\$", "\\\"", "\\'", "'", "\r", "\t", "\\t", "\\s", "\n", "\\n", "\\\\", "\\r", "\\u",
];

pub(crate) fn double_quoted_strings(ctx: &LintContext, sink: &mut Sink) {
    for string in ctx.nodes(SyntaxKind::DQ_STRING_EXPR) {
        let Some(content) = static_double_quoted(&string) else {
            continue;
        };
        if NEEDS_DOUBLE_QUOTES
            .iter()
            .any(|needle| content.contains(needle))
        {
            continue;
        }
        // puppet-lint reads as many blanks as the string's column as a
        // line break (a rough test for strings continued on new lines).
        let (_, column) = ctx.line_column(string.text_range().start());
        if content.contains(&" ".repeat(column as usize)) {
            continue;
        }
        let edit = TextEdit::replace(string.text_range(), format!("'{content}'"));
        sink.report_with_fix(
            ctx.first_line_of(string.text_range()),
            "double quoted string containing no variables",
            "Use single quotes",
            vec![edit],
        );
    }
}

/// `"${var}"`, `"$var"` or `"${var['key']}"` and nothing else. The string
/// makes a String of the value, the variable alone keeps its type: there is
/// no fix that keeps the meaning.
pub(crate) fn only_variable_string(ctx: &LintContext, sink: &mut Sink) {
    for string in ctx.nodes(SyntaxKind::DQ_STRING_EXPR) {
        let mut parts = string
            .children_with_tokens()
            .filter(|e| e.kind() != SyntaxKind::DQUOTE);
        let (Some(part), None) = (parts.next(), parts.next()) else {
            continue;
        };
        let Some(interpolation) = part.into_node() else {
            continue;
        };
        if !is_plain_variable(&interpolation) || is_hash_key(ctx, &string) {
            continue;
        }
        let variable = interpolation
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| !matches!(t.kind(), SyntaxKind::DOLLAR_BRACE) && !t.kind().is_trivia())
            .map_or(interpolation.text_range(), |t| t.text_range());
        sink.report(variable, "string containing only a variable");
    }
}

/// An interpolation of a variable, possibly indexed by single tokens.
fn is_plain_variable(interpolation: &SyntaxNode) -> bool {
    let Some(expr) = interpolation.children().next() else {
        // `"$var"`: the interpolation is the variable token itself.
        return interpolation
            .first_token()
            .is_some_and(|t| t.kind() == SyntaxKind::VARIABLE);
    };
    let mut expr = expr;
    loop {
        match expr.kind() {
            SyntaxKind::VARIABLE_EXPR => return true,
            SyntaxKind::ACCESS_EXPR => {
                let single_token_args = expr
                    .children()
                    .filter(|n| n.kind() == SyntaxKind::ARG_LIST)
                    .all(|args| {
                        let values: Vec<_> = args.children().collect();
                        values.len() == 1
                            && values[0]
                                .descendants_with_tokens()
                                .filter(|e| e.as_token().is_some_and(|t| !t.kind().is_trivia()))
                                .count()
                                == 1
                    });
                match expr.first_child() {
                    Some(target) if single_token_args => expr = target,
                    _ => return false,
                }
            }
            _ => return false,
        }
    }
}

/// A string used as a hash key (`"${x}" => ...`) stays.
fn is_hash_key(ctx: &LintContext, string: &SyntaxNode) -> bool {
    let Some(last) = string.last_token() else {
        return false;
    };
    ctx.next_code(ctx.index_at(last.text_range().start()))
        .is_some_and(|(_, t)| t.kind() == SyntaxKind::FAT_ARROW)
}

static PUPPET_URL_PATH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"puppet://.*?/(.+)").expect("valid regex"));

/// `puppet:///foo/x` names the mount point `foo`, not module `foo`:
/// changing it would change which file is served, so there is no fix.
pub(crate) fn puppet_url_without_modules(ctx: &LintContext, sink: &mut Sink) {
    let urls = string_literals(ctx).filter(|string| {
        let start = usize::from(string.text_range().start()) + 1;
        ctx.text
            .get(start..)
            .is_some_and(|rest| rest.starts_with("puppet://"))
    });
    for string in urls {
        let Some(text) = leading_text(&string) else {
            continue;
        };
        if !text.starts_with("puppet://") {
            continue;
        }
        let has_modules = PUPPET_URL_PATH
            .captures(&text)
            .and_then(|c| c.get(1))
            .is_some_and(|path| path.as_str().starts_with("modules/"));
        if !has_modules {
            sink.report(
                ctx.first_line_of(string.text_range()),
                "puppet:// URL without modules/ found",
            );
        }
    }
}

/// Single- and double-quoted strings, in no particular order.
fn string_literals<'c>(ctx: &'c LintContext) -> impl Iterator<Item = SyntaxNode> + 'c {
    ctx.nodes(SyntaxKind::SQ_STRING_EXPR)
        .chain(ctx.nodes(SyntaxKind::DQ_STRING_EXPR))
}

/// `'true'` is a String, `true` a Boolean: the fix would change the value.
pub(crate) fn quoted_booleans(ctx: &LintContext, sink: &mut Sink) {
    // `'false'` with its quotes is the longest candidate.
    let short = string_literals(ctx).filter(|s| s.text_range().len() <= 7.into());
    for string in short {
        let content = match string.kind() {
            SyntaxKind::SQ_STRING_EXPR => single_quoted_content(&string.text().to_string()),
            SyntaxKind::DQ_STRING_EXPR => match static_double_quoted(&string) {
                Some(content) => content,
                None => continue,
            },
            _ => continue,
        };
        if content == "true" || content == "false" {
            sink.report(string.text_range(), "quoted boolean value found");
        }
    }
}

/// `'${x}'` is not interpolated; `inline_epp` and `inline_template` take
/// such text on purpose.
pub(crate) fn single_quote_string_with_variables(ctx: &LintContext, sink: &mut Sink) {
    for string in ctx.nodes(SyntaxKind::SQ_STRING_EXPR) {
        if !ctx.text[string.text_range()].contains("${") || is_inline_template_argument(&string) {
            continue;
        }
        sink.report(
            ctx.first_line_of(string.text_range()),
            "single quoted string containing a variable found",
        );
    }
}

fn is_inline_template_argument(string: &SyntaxNode) -> bool {
    let call = string
        .parent()
        .filter(|args| args.kind() == SyntaxKind::ARG_LIST)
        .and_then(|args| args.parent());
    call.and_then(puppet_syntax::ast::CallExpr::cast)
        .and_then(|call| call.function_name())
        .is_some_and(|name| name == "inline_epp" || name == "inline_template")
}

/// `"$var"` becomes `"${var}"`.
pub(crate) fn variables_not_enclosed(ctx: &LintContext, sink: &mut Sink) {
    for interpolation in ctx.nodes(SyntaxKind::INTERPOLATION) {
        let Some(variable) = interpolation.first_token() else {
            continue;
        };
        if variable.kind() != SyntaxKind::VARIABLE {
            continue;
        }
        let range = variable.text_range();
        let name = &variable.text()[1..];
        let edit = TextEdit::replace(range, format!("${{{name}}}"));
        sink.report_with_fix(
            range,
            "variable not enclosed in {}",
            "Enclose in ${}",
            vec![edit],
        );
    }
}
