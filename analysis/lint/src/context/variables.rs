//! The `VariableRef` view of a file, computed once per lint run and shared by the checks that read it.

use super::LintContext;
use puppet_syntax::{SyntaxKind, TextRange, TextSize};
use regex::Regex;
use std::sync::LazyLock;

/// One use of a variable: `$name`, `"$name"` or `"${name}"`.
pub(crate) struct VariableRef<'a> {
    /// The name without `$`: `x`, `::x`, `a::b`.
    pub name: &'a str,
    /// The `$name` token, or the name in `${name}`.
    range: TextRange,
    /// Written `"$name"` in a string (puppet-lint's `UNENC_VARIABLE`).
    pub unenclosed: bool,
}

impl VariableRef<'_> {
    pub fn range(&self) -> TextRange {
        self.range
    }

    /// `['a'][0]` written directly after `$name` in code, as puppet-lint's
    /// lexer reads it (empty in strings and for `${name}`).
    pub fn index<'t>(&self, text: &'t str) -> &'t str {
        if self.unenclosed || !text[usize::from(self.range.start())..].starts_with('$') {
            return "";
        }
        let after = &text[usize::from(self.range.end())..];
        INDEX.find(after).map_or("", |m| m.as_str())
    }
}

static INDEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\A(?:\[.+?\])*").expect("valid regex"));

/// Every variable reference of the file, in text order: `$x` tokens, and
/// `${x}`, where the name stands alone in a `VARIABLE_EXPR`.
pub(crate) fn variable_refs<'a>(ctx: &LintContext<'a>) -> Vec<VariableRef<'a>> {
    // `"$x"`: an interpolation that starts with the variable token.
    let unenclosed_at: Vec<TextSize> = ctx
        .nodes(SyntaxKind::INTERPOLATION)
        .filter(|i| {
            i.first_token()
                .is_some_and(|t| t.kind() == SyntaxKind::VARIABLE)
        })
        .map(|i| i.text_range().start())
        .collect();
    let dollar_refs = ctx
        .tokens
        .iter()
        .filter(|t| t.kind() == SyntaxKind::VARIABLE)
        .map(|token| {
            let unenclosed = unenclosed_at
                .binary_search(&token.text_range().start())
                .is_ok();
            VariableRef {
                name: &token.text()[1..],
                range: token.text_range(),
                unenclosed,
            }
        });
    let bare_refs = ctx
        .nodes(SyntaxKind::VARIABLE_EXPR)
        .filter_map(|expr| expr.first_token())
        .filter(|token| token.kind() != SyntaxKind::VARIABLE)
        .map(|token| VariableRef {
            name: &ctx.text[token.text_range()],
            range: token.text_range(),
            unenclosed: false,
        });
    let mut refs: Vec<VariableRef<'a>> = dollar_refs.chain(bare_refs).collect();
    refs.sort_by_key(|r| r.range().start());
    refs
}
