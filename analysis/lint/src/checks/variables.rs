//! Variable references as the variable checks see them, and
//! `variable_contains_dash` and `variable_is_lowercase`.
//!
//! Names are read as Puppet reads them: `$a-b` is `$a` minus `b` (puppet-lint
//! reads a variable `a-b`). Like puppet-lint, an index written right after
//! a variable in code (`$x['a']`) is kept as the reference's `index`.

use super::Sink;
use crate::context::LintContext;
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange};
use regex::Regex;
use std::sync::LazyLock;

/// One use of a variable: `$name`, `"$name"` or `"${name}"`.
pub(crate) struct VariableRef {
    /// The name without `$`: `x`, `::x`, `a::b`.
    pub name: String,
    /// `['a'][0]` written directly after the name, in code; else empty.
    pub index: String,
    pub token: SyntaxToken,
    /// Written `"$name"` in a string (puppet-lint's `UNENC_VARIABLE`).
    pub unenclosed: bool,
}

impl VariableRef {
    pub fn range(&self) -> TextRange {
        self.token.text_range()
    }
}

static INDEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\A(?:\[.+?\])*").expect("valid regex"));

/// Every variable reference of the file (or of `node`), in text order.
pub(crate) fn variable_refs(ctx: &LintContext, node: &SyntaxNode) -> Vec<VariableRef> {
    let mut refs = Vec::new();
    for token in node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        let parent_kind = token.parent().map(|p| p.kind());
        match token.kind() {
            SyntaxKind::VARIABLE => {
                let unenclosed = parent_kind == Some(SyntaxKind::INTERPOLATION);
                let index = if unenclosed {
                    String::new()
                } else {
                    let after = &ctx.text[usize::from(token.text_range().end())..];
                    INDEX
                        .find(after)
                        .map_or(String::new(), |m| m.as_str().to_string())
                };
                refs.push(VariableRef {
                    name: token.text()[1..].to_string(),
                    index,
                    token,
                    unenclosed,
                });
            }
            // `${name}`: a bare word standing for a variable.
            _ if parent_kind == Some(SyntaxKind::VARIABLE_EXPR) && !token.kind().is_trivia() => {
                refs.push(VariableRef {
                    name: token.text().to_string(),
                    index: String::new(),
                    token,
                    unenclosed: false,
                });
            }
            _ => {}
        }
    }
    refs
}

pub(crate) fn variable_contains_dash(ctx: &LintContext, sink: &mut Sink) {
    for variable in variable_refs(ctx, &ctx.root) {
        if variable.name.contains('-') {
            sink.report(variable.range(), "variable contains a dash");
        }
    }
}

pub(crate) fn variable_is_lowercase(ctx: &LintContext, sink: &mut Sink) {
    for variable in variable_refs(ctx, &ctx.root) {
        if variable.name.chars().any(|c| c.is_ascii_uppercase()) {
            sink.report(variable.range(), "variable contains an uppercase letter");
        }
    }
}
