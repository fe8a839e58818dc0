//! `epp('module/file.epp', { ... })` checked against the template: the
//! file must exist in the module's `templates/`, and when the template
//! declares parameters (`<%- |String $x, $y = 1| -%>`), the hash must give
//! every parameter without a default (unless its type accepts undef) and
//! no parameter the template does not declare.

use super::Diagnostic;
use crate::db::{parse, SourceFile, Workspace};
use crate::workspace::{Layout, TemplateFunction};
use puppet_syntax::ast::{self, AstNode, Expr, LiteralValue};
use puppet_syntax::Code;
use puppet_syntax::SyntaxNode;
use std::collections::BTreeSet;

pub(super) struct TemplateChecks<'a> {
    pub db: &'a dyn salsa::Database,
    pub workspace: Workspace,
    pub layout: &'a Layout,
}

/// A template parameter: name, whether it must be given, declared type text.
struct TemplateParam {
    name: String,
    required: bool,
}

impl TemplateChecks<'_> {
    pub fn check(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let Some(call) = ast::CallExpr::cast(node.clone()) else {
            return;
        };
        if call.function_name().as_deref() != Some("epp") {
            return;
        }
        let args = call.args();
        let Some(reference) = args.first() else {
            return;
        };
        let Some(name) = reference.static_string() else {
            return;
        };
        // Not checked when the module is not in the workspace.
        let Some(path) = self.layout.template_file(TemplateFunction::Epp, &name) else {
            return;
        };
        let Some(template) = self
            .workspace
            .files(self.db)
            .iter()
            .copied()
            .find(|f| *f.path(self.db) == path)
        else {
            out.push(Diagnostic::error(
                reference.syntax().text_range(),
                Code::UnknownTemplate,
                format!(
                    "template '{name}' does not exist (no file {})",
                    path.display()
                ),
            ));
            return;
        };
        let Some(params) = template_params(self.db, template) else {
            return; // No parameter header: any values may be passed.
        };
        let declared: BTreeSet<&str> = params.iter().map(|p| p.name.as_str()).collect();
        // Puppet drops keys whose value is undef before matching names.
        let given: Vec<(String, Expr)> = match args.get(1) {
            Some(Expr::HashExpr(hash)) => hash
                .entries()
                .filter(|e| !matches!(e.value(), Some(Expr::Literal(l)) if l.value() == Some(LiteralValue::Undef)))
                .filter_map(|e| Some((e.key()?.static_string()?, e.key()?)))
                .collect(),
            Some(_) => return, // Computed values: not checkable.
            None => Vec::new(),
        };
        for (key, expr) in &given {
            if !declared.contains(key.as_str()) {
                out.push(Diagnostic::error(
                    expr.syntax().text_range(),
                    Code::EppUnknownParameter,
                    format!("template '{name}' has no parameter '{key}'"),
                ));
            }
        }
        let given_names: BTreeSet<&str> = given.iter().map(|(k, _)| k.as_str()).collect();
        let missing: Vec<String> = params
            .iter()
            .filter(|p| p.required && !given_names.contains(p.name.as_str()))
            .map(|p| format!("'{}'", p.name))
            .collect();
        if !missing.is_empty() {
            out.push(Diagnostic::error(
                reference.syntax().text_range(),
                Code::EppMissingParameter,
                format!(
                    "template '{name}' expects a value for {}",
                    missing.join(", ")
                ),
            ));
        }
    }
}

/// The parameters a template declares, or `None` without a header.
fn template_params(db: &dyn salsa::Database, template: SourceFile) -> Option<Vec<TemplateParam>> {
    let tree = parse(db, template).tree();
    let list = tree.epp_params()?.params()?;
    Some(
        list.params()
            .filter_map(|p| {
                let name = p.name()?;
                let optional_type = p
                    .type_expr()
                    .map(|t| crate::hir::normalized_text(t.syntax()))
                    .is_some_and(|t| {
                        t.starts_with("Optional") || t == "Any" || t.contains("Undef")
                    });
                Some(TemplateParam {
                    required: p.default_value().is_none() && !optional_type,
                    name,
                })
            })
            .collect(),
    )
}
