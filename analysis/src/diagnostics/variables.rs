//! Diagnostics over variable resolution ([`crate::resolve::scope`]), per item:
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
//!   templates (`inline_epp()`'s too). Class variables are public (read as
//!   `$class::x` from any code, by inheriting classes, ERB templates and
//!   Hiera interpolation, much of which is outside the workspace) and top-
//!   and node-scope variables are global, so those are never reported.
//! - `unused-parameter` (warning): a lambda or function parameter never
//!   read. Class and define parameters are an interface and not reported.
//!
//! Names starting with `_` are exempt from both unused checks, and so is a
//! scope that reads variables by name at runtime (`template()`...).

use super::{Diagnostic, ItemDiagnostic};
use crate::hir::body::SegmentRange;
use crate::hir::BodySourceMap;
use crate::resolve::resolution::def_site_range;
use crate::resolve::scope::{
    Coverage, Failure, ItemScopes, ScopeKind, Target, TopScopeSetter, VarDefId, VarRef,
    VariableDefKind,
};
use crate::target::Target as PuppetTarget;
use puppet_syntax::TextRange;
use puppet_syntax::{Code, Severity};

/// Where a definition is in its item.
fn def_range(scopes: &ItemScopes, map: &BodySourceMap, id: VarDefId) -> SegmentRange {
    def_site_range(map, scopes.def(id).site).unwrap_or_default()
}

/// A diagnostic at `at`, referring to `related`.
fn located(at: SegmentRange, related: Option<SegmentRange>, mut d: Diagnostic) -> ItemDiagnostic {
    d.range = at.range;
    d.related = related.map(|r| r.range);
    ItemDiagnostic {
        segment: at.segment,
        related_segment: related.map_or(at.segment, |r| r.segment),
        diagnostic: d,
    }
}

pub(super) fn check_variables(
    scopes: &ItemScopes,
    map: &BodySourceMap,
    target: PuppetTarget,
    out: &mut Vec<ItemDiagnostic>,
) {
    for reference in &scopes.refs {
        let at = map.expr_range(reference.expr);
        if let Some(diagnostic) = unknown_reference(reference, at.range, target) {
            out.push(located(at, None, diagnostic));
        }
    }

    for reassignment in &scopes.reassignments {
        let name = scopes.def(reassignment.def).name;
        let at = def_range(scopes, map, reassignment.def);
        let range = at.range;
        let previous = reassignment.previous.map(|p| def_range(scopes, map, p));
        let diagnostic = match (previous, reassignment.fails) {
            (Some(_), Failure::Always) => Diagnostic::error(
                range,
                Code::ReassignedVariable,
                format!(
                    "cannot reassign variable '${name}': it is already assigned on line {} in this scope",
                    Diagnostic::LINE
                ),
            ),
            (Some(_), Failure::WhenBothConditionsHold) => Diagnostic::error(
                range,
                Code::ReassignedVariable,
                format!(
                    "cannot reassign variable '${name}' when both assignments run, as they do for some parameter values: it is also assigned on line {} in this scope",
                    Diagnostic::LINE
                ),
            ),
            (Some(_), Failure::Unproven) => Diagnostic::warning(
                range,
                Code::ReassignedVariable,
                format!(
                    "variable '${name}' may be reassigned: it is also assigned on line {} in this scope, under other conditions; Puppet fails if both run",
                    Diagnostic::LINE
                ),
            ),
            (None, _) => Diagnostic::error(
                range,
                Code::ReassignedVariable,
                format!("cannot assign to '${name}': the variable is set by Puppet"),
            ),
        };
        out.push(located(at, previous, diagnostic));
    }

    for (i, def) in scopes.defs.iter().enumerate() {
        let id = VarDefId(i as u32);
        // A failing reassignment is reported as such, not also as unused.
        let reassigned = scopes.reassignments.iter().any(|r| r.def == id);
        if def.used || def.name.starts_with('_') || reassigned {
            continue;
        }
        let scope = scopes.scope(def.scope);
        if scope.dynamic_reads {
            continue;
        }
        let at = def_range(scopes, map, id);
        let range = at.range;
        match def.kind {
            VariableDefKind::Assignment => {
                let reportable = match scope.kind {
                    ScopeKind::Top | ScopeKind::Node | ScopeKind::Class => false,
                    ScopeKind::Define
                    | ScopeKind::Function
                    | ScopeKind::Plan
                    | ScopeKind::Lambda
                    | ScopeKind::Apply
                    | ScopeKind::Template
                    | ScopeKind::InlineTemplate => true,
                };
                if reportable {
                    out.push(located(
                        at,
                        None,
                        Diagnostic::warning(
                            range,
                            Code::UnusedVariable,
                            format!("variable '${}' is assigned but never used", def.name),
                        ),
                    ));
                }
            }
            VariableDefKind::LambdaParam | VariableDefKind::FunctionParam => {
                out.push(located(
                    at,
                    None,
                    Diagnostic::warning(
                        range,
                        Code::UnusedParameter,
                        format!(
                        "parameter '${}' is never used (prefix it with '_' if that is intended)",
                        def.name
                    ),
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

/// The diagnostic of a reference to a variable nothing sets, under the
/// target Puppet: with `strict_variables` (Puppet 8's default) reading it
/// fails, so it is an error; without, it is undef with a warning. A legacy
/// fact (`$osfamily`, `$::fqdn`) is unknown where Puppet no longer receives
/// legacy facts (Puppet 8).
fn unknown_reference(
    reference: &VarRef,
    range: TextRange,
    target: PuppetTarget,
) -> Option<Diagnostic> {
    let name = &reference.name;
    let bare = name.trim_start_matches("::");
    let fails = target.unknown_variables_fail();
    let severity = if fails {
        Severity::Error
    } else {
        Severity::Warning
    };
    let strict = |message: String| {
        if fails {
            format!(
                "{message}: Puppet {} fails on reading it ({})",
                target.version,
                strictness(target)
            )
        } else {
            message
        }
    };
    let diagnostic = match &reference.target {
        // Which arm runs depends on the node's facts and the parameters'
        // values, which puppet-ls does not know: a warning.
        Target::Local(_) if fails && reference.coverage == Coverage::SomePaths => Diagnostic::warning(
            range,
            Code::UnknownVariable,
            format!(
                "variable '${name}' is not assigned on every path to this read (a conditional does not assign it in every arm): Puppet {} fails where it is not ({})",
                target.version,
                strictness(target)
            ),
        ),
        // The conditional is decided by parameters, which some declaration
        // can set the other way.
        Target::Local(_) if fails && reference.coverage == Coverage::UnassignedForSomeInput => Diagnostic::error(
            range,
            Code::UnknownVariable,
            format!(
                "variable '${name}' is assigned only in some arms of a conditional decided by parameters: where a declaration's values send it the other way, Puppet {} fails on reading it ({})",
                target.version,
                strictness(target)
            ),
        ),
        Target::Unknown => Diagnostic::new(
            range,
            severity,
            Code::UnknownVariable,
            strict(format!("unknown variable '${name}'")),
        ),
        Target::UnknownQualified { class } => Diagnostic::new(
            range,
            severity,
            Code::UnknownVariable,
            strict(format!(
                "unknown variable '${name}': class '{class}' has no parameter or variable '{}'",
                bare.rsplit("::").next().unwrap_or_default()
            )),
        ),
        // Where reading it does not fail, Puppet's warning is at run time
        // only: reported where it fails.
        Target::Qualified { .. } if fails => {
            let Coverage::ClassNotDeclared { class } = &reference.coverage else {
                return None;
            };
            Diagnostic::error(
                range,
                Code::UnknownVariable,
                strict(format!(
                    "unknown variable '${name}': class '{class}' is not evaluated when this runs (nothing in the workspace declares it before)"
                )),
            )
        }
        Target::TopScope(TopScopeSetter::Unseen) if fails => Diagnostic::error(
            range,
            Code::UnknownVariable,
            format!(
                "unknown variable '${name}': nothing in the workspace sets '{bare}' at top scope, and it is not a fact; Puppet {} fails on reading it ({}) unless an ENC or a fact from outside the workspace sets it",
                target.version,
                strictness(target)
            ),
        ),
        Target::TopScope(TopScopeSetter::Fact { legacy: true }) if target.has_legacy_facts() => {
            Diagnostic::warning(
                range,
                Code::LegacyFact,
                format!("the legacy fact '${name}' is deprecated (and off by default in Puppet 8): read the structured fact from $facts instead"),
            )
        }
        target_kind if target_kind.is_legacy_fact() && !target.has_legacy_facts() => {
            let replacement = crate::builtins::legacy_facts::replacement(bare)
                .map(|r| format!("; use {r}"))
                .unwrap_or_default();
            Diagnostic::new(
                range,
                severity,
                Code::LegacyFact,
                format!(
                    "unknown variable '${name}': '{bare}' is a legacy fact, which Puppet {} no longer receives{replacement}",
                    target.version
                ),
            )
        }
        _ => return None,
    };
    Some(diagnostic)
}

/// Which setting makes reading an unknown variable fail.
fn strictness(target: PuppetTarget) -> &'static str {
    if target.strict_variables {
        "strict_variables"
    } else {
        "strict = error"
    }
}
