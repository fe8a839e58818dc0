//! Checks over statements and options that need no workspace:
//! - the same resource (type and title) declared twice in one block, which
//!   Puppet rejects as a duplicate declaration;
//! - case and selector options that repeat an earlier literal value and so
//!   can never be chosen;
//! - Puppet 3's `import`, which Puppet 4 and later reject.

use super::Diagnostic;
use puppet_syntax::ast::{self, AstNode, Expr, LiteralValue};
use puppet_syntax::Code;
use puppet_syntax::{SyntaxKind, SyntaxNode};
use std::collections::HashSet;

pub(super) fn check(node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
    match node.kind() {
        // A file's top level is checked as a whole by the caller.
        SyntaxKind::BLOCK => {
            let found = duplicate_resources(ast::children::<Expr>(node).map(|e| ((), e)));
            out.extend(found.into_iter().map(|((), d)| d));
        }
        SyntaxKind::CASE_EXPR => {
            if let Some(case) = ast::CaseExpr::cast(node.clone()) {
                let values: Vec<Expr> = case
                    .options()
                    .flat_map(|o| o.values().collect::<Vec<_>>())
                    .collect();
                repeated_options(values, "case", out);
            }
        }
        SyntaxKind::SELECTOR_EXPR => {
            if let Some(selector) = ast::SelectorExpr::cast(node.clone()) {
                let values: Vec<Expr> = selector.entries().filter_map(|e| e.matcher()).collect();
                repeated_options(values, "selector", out);
            }
        }
        SyntaxKind::STATEMENT_CALL => {
            if let Some(call) = ast::StatementCall::cast(node.clone()) {
                if call.name().as_deref() == Some("import") {
                    out.push(Diagnostic::error(
                        node.text_range(),
                        Code::DiscontinuedImport,
                        "'import' was discontinued in Puppet 4: classes and defines are autoloaded from the module path".to_string(),
                    ));
                }
            }
        }
        _ => {}
    }
}

/// A literal's canonical form for comparing options and titles: strings
/// compare case-insensitively, as Puppet's `==` does.
fn literal_key(expr: &Expr) -> Option<String> {
    Some(match expr {
        Expr::SqStringExpr(s) => format!("s:{}", s.value().to_lowercase()),
        Expr::DqStringExpr(s) => format!("s:{}", s.static_value()?.to_lowercase()),
        Expr::QualifiedName(n) => format!("s:{}", n.name().to_lowercase()),
        Expr::BareWord(w) => format!("s:{}", w.text().to_lowercase()),
        Expr::Literal(l) => match l.value()? {
            LiteralValue::Number(Ok(n)) => format!("n:{n:?}"),
            LiteralValue::Boolean(b) => format!("b:{b}"),
            LiteralValue::Undef => "undef".to_string(),
            _ => return None,
        },
        Expr::RegexExpr(r) => format!("r:{}", r.pattern()),
        _ => return None,
    })
}

fn repeated_options(values: Vec<Expr>, what: &str, out: &mut Vec<Diagnostic>) {
    let mut seen: HashSet<String> = HashSet::new();
    for value in values {
        let Some(key) = literal_key(&value) else {
            continue;
        };
        if !seen.insert(key) {
            out.push(Diagnostic::warning(
                value.syntax().text_range(),
                Code::UnreachableOption,
                format!("this {what} option can never be chosen: an earlier option matches the same value"),
            ));
        }
    }
}

/// The resources a statement declares itself: a resource expression, or
/// the operands of a relationship chain (`a -> b -> c`).
fn declared_resources(statement: &Expr) -> Vec<ast::ResourceExpr> {
    match statement {
        Expr::ResourceExpr(r) => vec![r.clone()],
        Expr::RelationshipExpr(chain) => [chain.lhs(), chain.rhs()]
            .into_iter()
            .flatten()
            .flat_map(|operand| declared_resources(&operand))
            .collect(),
        _ => Vec::new(),
    }
}

/// Resources declared directly in one statement list with the same type
/// and literal title; each statement comes with where it is (`S`), which
/// its duplicates are reported with.
pub(super) fn duplicate_resources<S: Copy>(
    statements: impl Iterator<Item = (S, Expr)>,
) -> Vec<(S, Diagnostic)> {
    let mut seen: HashSet<(String, String)> = HashSet::new();
    let mut out = Vec::new();
    for (at, statement) in statements {
        for resource in declared_resources(&statement) {
            let Some(type_name) = resource.type_name() else {
                continue;
            };
            for body in resource.bodies() {
                let Some(title) = body.title() else {
                    continue;
                };
                let titles: Vec<Expr> = match &title {
                    Expr::ArrayExpr(a) => a.elements().collect(),
                    other => vec![other.clone()],
                };
                for t in titles {
                    // Titles compare exactly (not case-folded) in the catalog.
                    let Some(title) = t.static_string() else {
                        continue;
                    };
                    let entry = (type_name.clone(), title);
                    if seen.contains(&entry) {
                        let message = format!(
                            "duplicate declaration: {}[{}] is already declared in this block",
                            capitalize(&type_name),
                            entry.1
                        );
                        let range = t.syntax().text_range();
                        out.push((
                            at,
                            Diagnostic::error(range, Code::DuplicateResource, message),
                        ));
                    } else {
                        seen.insert(entry);
                    }
                }
            }
        }
    }
    out
}

fn capitalize(type_name: &str) -> String {
    type_name
        .split("::")
        .map(|seg| {
            let mut chars = seg.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join("::")
}
