//! `legacy-fact` through `$facts`: `$facts['osfamily']` is the fact's
//! value on Puppet 7 and undef on Puppet 8, which no longer receives
//! Facter's legacy facts; the code reads as if it worked and silently takes
//! another branch. A warning, since an undef is not a failure by itself.
//! (Legacy facts read as variables, `$osfamily`, are `variables.rs`'s.)

use super::Diagnostic;
use crate::builtins::legacy_facts::replacement;
use crate::builtins::Builtins;
use crate::hir::inline_template::inline_epp;
use crate::target::Target;
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::Code;
use puppet_syntax::{SyntaxKind, SyntaxNode};

pub(super) fn check(
    node: &SyntaxNode,
    target: Target,
    builtins: &Builtins,
    out: &mut Vec<Diagnostic>,
) {
    if node.kind() != SyntaxKind::ACCESS_EXPR || target.has_legacy_facts() {
        return;
    }
    let Some(access) = ast::AccessExpr::cast(node.clone()) else {
        return;
    };
    let Some(Expr::VariableExpr(variable)) = access.target() else {
        return;
    };
    if variable.name().trim_start_matches("::") != "facts" {
        return;
    }
    let [key] = &access.args()[..] else {
        return;
    };
    let Some(name) = key.static_string() else {
        return;
    };
    if !builtins.fact(&name).is_some_and(|f| f.legacy) {
        return;
    }
    let instead = replacement(&name)
        .map(|r| format!("; use {r}"))
        .unwrap_or_default();
    out.push(Diagnostic::warning(
        node.text_range(),
        Code::LegacyFact,
        format!(
            "'{name}' is a legacy fact: $facts['{name}'] is undef on Puppet {}, which no longer receives legacy facts{instead}",
            target.version
        ),
    ));
}

/// The edit that replaces the legacy fact a `legacy-fact` diagnostic at
/// `range` points at with its structured equivalent, written as the place
/// needs it: `$::osfamily` -> `$facts['os']['family']`; in a string,
/// `"${::fqdn}"` -> `"${facts['networking']['fqdn']}"` and `"$fqdn"` ->
/// `"${facts['networking']['fqdn']}"`; `$facts['osfamily']` ->
/// `$facts['os']['family']`. `None` when the fact has no equivalent that
/// holds on every operating system.
pub fn legacy_fact_fix(
    root: &SyntaxNode,
    range: puppet_syntax::TextRange,
) -> Option<(puppet_syntax::TextRange, String)> {
    use crate::builtins::legacy_facts::{facts_access, legacy_facts};
    if let Some(fix) = inline_template_fix(root, range) {
        return fix;
    }
    let element = root.covering_element(range);
    let node = match &element {
        puppet_syntax::NodeOrToken::Node(n) => n.clone(),
        puppet_syntax::NodeOrToken::Token(t) => t.parent()?,
    };
    // `$facts['osfamily']`: the keys after `$facts`.
    if let Some(access) = node
        .ancestors()
        .find_map(ast::AccessExpr::cast)
        .filter(|a| a.syntax().text_range() == range)
    {
        let Expr::VariableExpr(variable) = access.target()? else {
            return None;
        };
        let name = access.args().first()?.static_string()?;
        let path = legacy_facts().structured_path(&name)?;
        let keys = facts_access(&path);
        let keys = keys.strip_prefix("$facts")?;
        let after = variable.syntax().text_range().end();
        return Some((
            puppet_syntax::TextRange::new(after, range.end()),
            keys.to_string(),
        ));
    }
    let text = match &element {
        puppet_syntax::NodeOrToken::Node(n) => n.text().to_string(),
        puppet_syntax::NodeOrToken::Token(t) => t.text().to_string(),
    };
    let name = text.trim_start_matches('$').trim_start_matches("::");
    let access = facts_access(&legacy_facts().structured_path(name)?);
    let in_string = node.kind() == SyntaxKind::INTERPOLATION
        || node
            .parent()
            .is_some_and(|p| p.kind() == SyntaxKind::INTERPOLATION);
    let new_text = match (in_string, text.starts_with('$')) {
        // `"$fqdn"`: the short form cannot hold an access.
        (true, true) => format!("${{{}}}", &access[1..]),
        // `"${fqdn}"`: inside the braces, without the `$`.
        (true, false) => access[1..].to_string(),
        (false, _) => access,
    };
    Some((range, new_text))
}

/// A legacy fact read in the written-out text of an `inline_epp()` call
/// (`Some` when `range` is in such a text): the template's fix, written
/// as the string needs it (`\'` in a single-quoted one, `\$` in a
/// double-quoted one), through templates in templates.
fn inline_template_fix(
    root: &SyntaxNode,
    range: puppet_syntax::TextRange,
) -> Option<Option<(puppet_syntax::TextRange, String)>> {
    let token = root.covering_element(range).into_token()?;
    if !matches!(
        token.kind(),
        SyntaxKind::SQ_STRING | SyntaxKind::STRING_TEXT | SyntaxKind::HEREDOC_TEXT
    ) {
        return None;
    }
    let found = root
        .descendants()
        .filter_map(ast::CallExpr::cast)
        .filter_map(|call| inline_epp(&call))
        .find_map(|template| {
            let inner = template.origin.value_range(range)?;
            Some((template, inner))
        });
    let Some((template, inner)) = found else {
        return Some(None);
    };
    let fix = legacy_fact_fix(&template.parse.syntax_node(), inner).and_then(|(at, text)| {
        let written = template.literal.escaped_static_text(&text)?;
        Some((template.origin.source_range(at), written))
    });
    Some(fix)
}
