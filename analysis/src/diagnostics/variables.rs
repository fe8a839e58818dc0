//! Diagnostics over variable resolution ([`crate::scopes`]):
//!
//! - `unknown-variable` (warning): a name that resolves nowhere. With
//!   Puppet's default `strict_variables = false` this evaluates to undef
//!   with a runtime warning, so it is a warning here too; and node-scope or
//!   ENC variables are invisible to static analysis. `$class::x` is
//!   reported only when the class is in the workspace and has no `x`.
//! - `reassigned-variable`: a second assignment in one scope (Puppet
//!   fails: "Cannot reassign variable"), or an assignment to a variable the
//!   compiler sets or reserves. An error when the second assignment always
//!   follows the first; a warning when they are under different
//!   conditions, which may never both hold.
//! - `unused-variable` (warning): an assignment never read, only where
//!   nothing else can read it: in defines, functions, plans, lambdas and
//!   templates. Class variables are public (read as `$class::x` from any
//!   code, by inheriting classes, ERB templates and Hiera interpolation,
//!   much of which is outside the workspace) and top- and node-scope
//!   variables are global, so those are never reported.
//! - `unused-parameter` (warning): a lambda or function parameter never
//!   read. Class and define parameters are an interface and not reported.
//!
//! Names starting with `_` are exempt from both unused checks, and so is a
//! scope that reads variables by name at runtime (`template()`...).

use super::Diagnostic;
use crate::db::{SourceFile, Workspace};
use crate::hir::resolution::{variable_resolution, FileTarget};
use crate::hir::scope::{Failure, ScopeKind, Target, VariableDefKind};
use puppet_syntax::TextSize;

pub(super) fn check_variables(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    out: &mut Vec<Diagnostic>,
) {
    let resolution = variable_resolution(db, workspace, file);
    let text = file.text(db);
    let line_of = |offset: TextSize| -> usize {
        text.get(..u32::from(offset) as usize)
            .map_or(0, |before| before.matches('\n').count())
            + 1
    };

    for reference in &resolution.references {
        match &reference.target {
            FileTarget::Other(Target::Unknown) => out.push(Diagnostic::warning(
                reference.range,
                "unknown-variable",
                format!("unknown variable '${}'", reference.name),
            )),
            FileTarget::Other(Target::UnknownQualified { class }) => out.push(Diagnostic::warning(
                reference.range,
                "unknown-variable",
                format!(
                    "unknown variable '${}': class '{class}' has no parameter or variable '{}'",
                    reference.name,
                    reference.name.rsplit("::").next().unwrap_or_default()
                ),
            )),
            _ => {}
        }
    }

    for reassignment in &resolution.reassignments {
        let name = &reassignment.name;
        let diagnostic = match (reassignment.previous, reassignment.fails) {
            (Some(previous), Failure::Always) => Diagnostic::error(
                reassignment.range,
                "reassigned-variable",
                format!(
                    "cannot reassign variable '${name}': it is already assigned on line {} in this scope",
                    line_of(previous.start())
                ),
            ),
            (Some(previous), Failure::WhenBothConditionsHold) => Diagnostic::error(
                reassignment.range,
                "reassigned-variable",
                format!(
                    "cannot reassign variable '${name}' when both assignments run, as they do for some parameter values: it is also assigned on line {} in this scope",
                    line_of(previous.start())
                ),
            ),
            (Some(previous), Failure::Unproven) => Diagnostic::warning(
                reassignment.range,
                "reassigned-variable",
                format!(
                    "variable '${name}' may be reassigned: it is also assigned on line {} in this scope, under other conditions; Puppet fails if both run",
                    line_of(previous.start())
                ),
            ),
            (None, _) => Diagnostic::error(
                reassignment.range,
                "reassigned-variable",
                format!("cannot assign to '${name}': the variable is set by Puppet"),
            ),
        };
        out.push(diagnostic);
    }

    for def in &resolution.definitions {
        // A failing reassignment is reported as such, not also as unused.
        let reassigned = resolution
            .reassignments
            .iter()
            .any(|r| r.range == def.range);
        if def.used || def.name.starts_with('_') || reassigned {
            continue;
        }
        let Some(scope) = resolution.scopes.get(def.scope) else {
            continue;
        };
        if scope.dynamic_reads {
            continue;
        }
        match def.kind {
            VariableDefKind::Assignment => {
                let reportable = match scope.kind {
                    ScopeKind::Top | ScopeKind::Node | ScopeKind::Class => false,
                    ScopeKind::Define
                    | ScopeKind::Function
                    | ScopeKind::Plan
                    | ScopeKind::Lambda
                    | ScopeKind::Apply
                    | ScopeKind::Template => true,
                };
                if reportable {
                    out.push(Diagnostic::warning(
                        def.range,
                        "unused-variable",
                        format!("variable '${}' is assigned but never used", def.name),
                    ));
                }
            }
            VariableDefKind::LambdaParam | VariableDefKind::FunctionParam => {
                out.push(Diagnostic::warning(
                    def.range,
                    "unused-parameter",
                    format!(
                        "parameter '${}' is never used (prefix it with '_' if that is intended)",
                        def.name
                    ),
                ));
            }
            VariableDefKind::ClassParam
            | VariableDefKind::DefineParam
            | VariableDefKind::PlanParam
            | VariableDefKind::TemplateParam => {}
        }
    }
}
