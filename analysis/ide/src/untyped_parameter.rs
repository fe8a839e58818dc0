//! What hover can say of an untyped class or define parameter: its type
//! stays `Any` (a declaration may pass anything), but the default, the
//! validations of the body and the values the workspace's declarations
//! pass tell the reader what to expect.

use std::collections::BTreeMap;
use std::fmt::Write;

use puppet_syntax::ast::{self, AstNode};
use puppet_syntax::{SyntaxNode, TextRange};

use super::cursor::token_at;
use super::occurrences::{occurrences_of, Referent};
use puppet_analysis::db::{parse, SourceFile, Workspace};
use puppet_analysis::infer::{infer_range, Inferred};
use puppet_analysis::types::normalize::generalize;
use puppet_analysis::values::format::to_programmatic;

/// Functions whose call on a parameter is worth naming in its hover.
fn is_validation(function: &str) -> bool {
    let f = function.trim_start_matches("::").to_ascii_lowercase();
    f.starts_with("validate_") || f == "assert_type"
}

/// The Markdown notes for the parameter defined at `def` (the `$name` of
/// its declaration) in `file`; `None` when it has a type. The types the
/// workspace's declarations pass (which infers every declaration) are
/// shown on the parameter itself (`at_definition`), not on each use.
pub(crate) fn notes(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    def: TextRange,
    name: &str,
    at_definition: bool,
) -> Option<String> {
    let root = parse(db, file).syntax_node();
    let parameter = token_at(&root, def.start())?
        .parent_ancestors()
        .find_map(ast::Param::cast)?;
    if parameter.type_expr().is_some() {
        return None;
    }
    let mut md = String::from("Untyped: any value can be passed.");
    if let Some(default) = parameter.default_value() {
        let inferred = inferred_at(db, workspace, file, default.syntax());
        let _ = write!(md, "\n\nDefault: {}", shown(&inferred, default.syntax()));
    }
    let definition = parameter
        .syntax()
        .ancestors()
        .find(|n| ast::ClassDef::can_cast(n.kind()) || ast::DefineDef::can_cast(n.kind()));
    if let Some(definition) = definition {
        let validations = validations(&definition, name);
        if !validations.is_empty() {
            let _ = write!(md, "\n\nValidated by {}", validations.join(", "));
        }
    }
    if !at_definition {
        return Some(md);
    }
    let declared = declared_types(
        db,
        workspace,
        file,
        u32::from(def.start()),
        u32::from(def.end()),
        name.to_string(),
    );
    if !declared.is_empty() {
        let parts: Vec<String> = declared
            .iter()
            .map(|(ty, n)| {
                let plural = if *n == 1 { "" } else { "s" };
                format!("`{ty}` in {n} declaration{plural}")
            })
            .collect();
        let _ = write!(md, "\n\nSet as {}", parts.join(", "));
    }
    Some(md)
}

/// A value's text (its value when constant, else as written) and type.
fn shown(inferred: &Inferred, node: &SyntaxNode) -> String {
    let text = match &inferred.value {
        Some(v) => to_programmatic(v),
        None => node.text().to_string().trim().to_string(),
    };
    format!("`{text}` ({})", inferred.ty)
}

fn inferred_at(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    node: &SyntaxNode,
) -> Inferred {
    let types = infer_range(db, workspace, file, node.text_range());
    types
        .enclosing(node)
        .map(|(_, i)| i.clone())
        .unwrap_or_else(Inferred::any)
}

/// The validation calls in `definition` that check `$name`, as written.
fn validations(definition: &SyntaxNode, name: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for call in definition.descendants().filter_map(ast::CallExpr::cast) {
        let Some(function) = call.function_name() else {
            continue;
        };
        if !is_validation(&function) {
            continue;
        }
        let checks = call
            .args()
            .iter()
            .any(|arg| matches!(arg, ast::Expr::VariableExpr(v) if v.name() == name));
        let shown = format!("`{function}`");
        if checks && !found.contains(&shown) {
            found.push(shown);
        }
    }
    found
}

/// The types of the values the workspace's declarations pass for the
/// parameter (generalized: `String`, not `String['x']`), with how many
/// declarations pass each.
///
/// Memoized: after an edit, a hover revalidates it instead of inferring
/// every declaration again.
#[salsa::tracked(returns(ref))]
fn declared_types(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    def_start: u32,
    def_end: u32,
    name: String,
) -> Vec<(String, usize)> {
    let def = TextRange::new(def_start.into(), def_end.into());
    let referent = Referent::Variable {
        file,
        range: def,
        name,
    };
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for (other, occurrence) in occurrences_of(db, workspace, &referent) {
        if occurrence.declaration {
            continue;
        }
        let root = parse(db, other).syntax_node();
        let Some(attribute) = token_at(&root, occurrence.range.start())
            .and_then(|t| t.parent_ancestors().find_map(ast::Attribute::cast))
        else {
            continue;
        };
        let Some(value) = attribute.value() else {
            continue;
        };
        let inferred = inferred_at(db, workspace, other, value.syntax());
        *counts
            .entry(generalize(&inferred.ty).to_string())
            .or_default() += 1;
    }
    let mut out: Vec<(String, usize)> = counts.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}
