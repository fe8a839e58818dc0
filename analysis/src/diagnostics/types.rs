//! Checks that need values and types, computed by the constant evaluator
//! where an expression is constant (literals, operators, collections, type
//! references to built-in types, no variables and no calls):
//! - a type expression Puppet rejects (`Integer[3, 1]`, `Hash[1]`);
//! - a parameter default that is not an instance of its declared type (a
//!   warning: it fails only when the default is used), workspace aliases
//!   included;
//! - an attribute of a defined type or class whose constant value does not
//!   match the parameter's declared type (resolved with the workspace's
//!   aliases, see [`super::workspace_types`]);
//! - a constant expression whose evaluation fails (division by zero, `+` on
//!   incompatible values, a bad access, a selector no option matches);
//! - a string used as a number in a constant expression (`'1' + 1`): a
//!   warning under `strict = warning`, an error under `strict = error`
//!   (Puppet 8's default), where the evaluation fails.
//!
//! Constants are evaluated as the workspace's target Puppet.
//!
//! Anything that is not constant is left alone: never a guess.

use super::workspace_types::WorkspaceTypes;
use super::Diagnostic;
use crate::eval::{Evaluator, Limits};
use crate::hir::normalized_text;
use crate::model::{Type, Value};
use crate::ops::is_numeric_coercion;
use crate::target::Target;
use crate::types::{NoAliases, TypeSystem};
use crate::values::format::to_programmatic;
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::Code;
use puppet_syntax::{SyntaxKind, SyntaxNode};

/// Kinds a constant expression may contain.
fn constant_kind(kind: SyntaxKind) -> bool {
    use SyntaxKind::*;
    kind.is_token()
        || matches!(
            kind,
            LITERAL
                | SQ_STRING_EXPR
                | DQ_STRING_EXPR
                | BARE_WORD
                | ARRAY_EXPR
                | HASH_EXPR
                | HASH_ENTRY
                | BINARY_EXPR
                | UNARY_EXPR
                | PAREN_EXPR
                | ACCESS_EXPR
                | ARG_LIST
                | TYPE_REFERENCE
                | REGEX_EXPR
                | SELECTOR_EXPR
                | SELECTOR_ENTRY
        )
}

/// Whether the expression's value is known without any context.
pub fn is_constant(node: &SyntaxNode) -> bool {
    node.descendants().all(|n| {
        constant_kind(n.kind())
            && match n.kind() {
                // A reference to an alias or resource type needs the workspace.
                SyntaxKind::TYPE_REFERENCE => ast::TypeReference::cast(n.clone())
                    .is_some_and(|r| Type::from_name(&r.name()).is_some()),
                SyntaxKind::DQ_STRING_EXPR => !n
                    .descendants()
                    .any(|d| d.kind() == SyntaxKind::INTERPOLATION),
                _ => true,
            }
    })
}

/// The value of a constant expression: `Ok` with the value, `Err` with
/// Puppet's error, `None` when it cannot be computed statically; as the
/// default target Puppet.
pub fn evaluate(expr: &Expr) -> Option<Result<Value, String>> {
    evaluate_as(expr, Target::default())
}

/// [`evaluate`] as the given Puppet.
pub fn evaluate_as(expr: &Expr, target: Target) -> Option<Result<Value, String>> {
    evaluate_logged(expr, target).map(|(result, _)| result)
}

/// [`evaluate_as`], with the warnings Puppet logs (a string coerced to a
/// number under `strict = warning`).
fn evaluate_logged(expr: &Expr, target: Target) -> Option<(Result<Value, String>, Vec<String>)> {
    let limits = Limits {
        max_steps: 10_000,
        // Deep enough for real code, shallow enough for a 2 MiB stack
        // in a debug build.
        max_depth: 64,
        ..Limits::default()
    };
    let (body, _, id) = crate::hir::lower::lower_expression(expr);
    let mut evaluator = Evaluator::new(limits);
    evaluator.target = target;
    let outcome = evaluator.eval_expression(&std::sync::Arc::new(body), id);
    if let Some(error) = outcome.error {
        return Some((Err(error.message), outcome.warnings));
    }
    if outcome.unsupported.is_some() {
        return None;
    }
    let value = outcome.value?;
    (!matches!(value, Value::Unknown(_))).then_some((Ok(value), outcome.warnings))
}

/// A declared type, evaluated, if constant; reports it when invalid.
fn declared_type(expr: &Expr, target: Target, out: &mut Vec<Diagnostic>) -> Option<Type> {
    if !is_constant(expr.syntax()) {
        return None;
    }
    match evaluate_as(expr, target)? {
        Ok(Value::Type(t)) => Some(t),
        Ok(_) => None,
        Err(message) => {
            out.push(Diagnostic::error(
                expr.syntax().text_range(),
                Code::InvalidType,
                format!("invalid type: {message}"),
            ));
            None
        }
    }
}

/// The value of a constant expression, when it is one (and does not fail
/// under the target Puppet).
pub(crate) fn constant_value(expr: &Expr, target: Target) -> Option<Value> {
    is_constant(expr.syntax())
        .then(|| evaluate_as(expr, target))??
        .ok()
}

/// Reports a constant value that `rejects`, saying it `expects` a type.
fn check_instance(
    value_expr: &Expr,
    rejects: impl Fn(&Value) -> bool,
    expected: impl FnOnce() -> String,
    what: &str,
    (severity, code): (puppet_syntax::Severity, Code),
    target: Target,
    out: &mut Vec<Diagnostic>,
) {
    let Some(value) = constant_value(value_expr, target) else {
        return;
    };
    if rejects(&value) {
        out.push(Diagnostic::new(
            value_expr.syntax().text_range(),
            severity,
            code,
            format!(
                "{what} expects a value of type {}, got {}",
                expected(),
                to_programmatic(&value)
            ),
        ));
    }
}

pub(super) fn check(
    node: &SyntaxNode,
    lookup_param_type: &dyn Fn(&ast::Attribute) -> Option<String>,
    workspace_types: &WorkspaceTypes,
    out: &mut Vec<Diagnostic>,
) {
    let target = workspace_types.target();
    match node.kind() {
        SyntaxKind::PARAM => {
            let Some(param) = ast::Param::cast(node.clone()) else {
                return;
            };
            let Some(type_expr) = param.type_expr() else {
                return;
            };
            let constant_type = declared_type(&type_expr, target, out);
            // A default that does not match fails only when the default is
            // used (no value given): a warning.
            let (Some(default), Some(name)) = (param.default_value(), param.name()) else {
                return;
            };
            if !is_constant(default.syntax()) {
                return;
            }
            let kind = (puppet_syntax::Severity::Warning, Code::DefaultTypeMismatch);
            let what = format!("parameter '${name}'");
            if let Some(t) = constant_type {
                let rejects =
                    |v: &Value| TypeSystem::new(&NoAliases).instance_of(&t, v) == Some(false);
                check_instance(
                    &default,
                    rejects,
                    || t.to_string(),
                    &what,
                    kind,
                    target,
                    out,
                );
            } else if !is_constant(type_expr.syntax()) {
                // A type naming workspace aliases, resolved with them.
                let text = normalized_text(type_expr.syntax());
                if let Some(t) = workspace_types.resolve(&text) {
                    let rejects = |v: &Value| workspace_types.rejects(&t, v);
                    let expected = || workspace_types.describe(&t);
                    check_instance(&default, rejects, expected, &what, kind, target, out);
                }
            }
        }
        SyntaxKind::RETURN_TYPE => {
            if let Some(t) = ast::ReturnType::cast(node.clone()).and_then(|r| r.type_expr()) {
                declared_type(&t, target, out);
            }
        }
        SyntaxKind::ATTRIBUTE => {
            let Some(attribute) = ast::Attribute::cast(node.clone()) else {
                return;
            };
            let (Some(value), Some(name)) = (attribute.value(), attribute.name()) else {
                return;
            };
            // The declared type as Puppet resolves it, workspace aliases
            // included.
            if let Some(t) = lookup_param_type(&attribute)
                .as_deref()
                .and_then(|text| workspace_types.resolve(text))
            {
                let kind = (puppet_syntax::Severity::Error, Code::TypeMismatch);
                // An attribute set to `undef` is not set: the parameter
                // takes its default (a missing value is another check's).
                let rejects = |v: &Value| v != &Value::Undef && workspace_types.rejects(&t, v);
                let expected = || workspace_types.describe(&t);
                let what = format!("parameter '{name}'");
                check_instance(&value, rejects, expected, &what, kind, target, out);
            }
        }
        SyntaxKind::BINARY_EXPR
        | SyntaxKind::UNARY_EXPR
        | SyntaxKind::ACCESS_EXPR
        | SyntaxKind::SELECTOR_EXPR => {
            // Only the outermost constant expression is evaluated.
            let parent_constant = node.parent().is_some_and(|p| {
                matches!(
                    p.kind(),
                    SyntaxKind::BINARY_EXPR
                        | SyntaxKind::UNARY_EXPR
                        | SyntaxKind::ACCESS_EXPR
                        | SyntaxKind::PAREN_EXPR
                        | SyntaxKind::SELECTOR_EXPR
                        | SyntaxKind::SELECTOR_ENTRY
                ) && is_constant(&p)
            });
            // Type expressions in parameter and return positions are
            // checked as types above.
            let in_type_position = node
                .ancestors()
                .skip(1)
                .any(|a| matches!(a.kind(), SyntaxKind::PARAM | SyntaxKind::RETURN_TYPE));
            if parent_constant || in_type_position || !is_constant(node) {
                return;
            }
            let Some(expr) = Expr::cast(node.clone()) else {
                return;
            };
            match evaluate_logged(&expr, target) {
                Some((Err(message), _)) if is_numeric_coercion(&message) => {
                    out.push(Diagnostic::error(
                        node.text_range(),
                        Code::NumericCoercion,
                        format!(
                            "{message}: Puppet {} fails on a string used as a number (strict = error); convert it first (Integer(), Float(), Numeric())",
                            target.version
                        ),
                    ));
                }
                Some((Err(message), _)) => out.push(Diagnostic::error(
                    node.text_range(),
                    Code::EvaluationError,
                    message,
                )),
                Some((Ok(_), warnings)) => {
                    for message in warnings.iter().filter(|w| is_numeric_coercion(w)) {
                        out.push(Diagnostic::warning(
                            node.text_range(),
                            Code::NumericCoercion,
                            format!(
                                "{message}: deprecated, and an error under strict = error (Puppet 8's default); convert it first (Integer(), Float(), Numeric())"
                            ),
                        ));
                    }
                }
                None => {}
            }
        }
        _ => {}
    }
}

/// Puppet 8's validation of a class's parameter types
/// (`ILLEGAL_NONLITERAL_PARAMETER_TYPE`, a deprecation Puppet 7 does not
/// have): a type that is not a literal (`Integer[0, 60*24]`) is reported
/// by `puppet parser validate` and at compilation with "The parameter
/// '$minutes' must be a literal type, not a
/// Puppet::Pops::Model::AccessExpression", and still works.
pub(super) fn non_literal_parameter_types(class: &ast::ClassDef) -> Vec<Diagnostic> {
    let Some(params) = class.params() else {
        return Vec::new();
    };
    params
        .params()
        .filter_map(|param| {
            let type_expr = param.type_expr()?;
            // The grammar makes a parameter's type a type reference,
            // possibly with access keys: only those are judged.
            let Expr::AccessExpr(access) = &type_expr else {
                return None;
            };
            if literal_access(access) {
                return None;
            }
            let name = param.name()?;
            Some(Diagnostic::warning(
                type_expr.syntax().text_range(),
                Code::NonLiteralParameterType,
                format!(
                    "The parameter '${name}' must be a literal type, not a Puppet::Pops::Model::AccessExpression: Puppet 8 warns (a deprecation); compute the bound elsewhere or write its value"
                ),
            ))
        })
        .collect()
}

/// Puppet's `LiteralEvaluator` on an access: its keys must be literals
/// (the left side is not looked at), and a single key may not be a list
/// (`Optional[[String]]`).
fn literal_access(access: &ast::AccessExpr) -> bool {
    let keys = access.args();
    if let [Expr::ArrayExpr(_)] = keys.as_slice() {
        return false;
    }
    keys.iter().all(literal)
}

/// Whether Puppet's `LiteralEvaluator` gives `expr` a value: strings
/// without interpolation, numbers, booleans, `undef`, `default`, names,
/// regexps, type references, accesses of literals, negated literals,
/// arrays and hashes of literals.
fn literal(expr: &Expr) -> bool {
    match expr {
        Expr::Literal(_)
        | Expr::QualifiedName(_)
        | Expr::BareWord(_)
        | Expr::TypeReference(_)
        | Expr::SqStringExpr(_)
        | Expr::RegexExpr(_) => true,
        Expr::DqStringExpr(s) => s.static_value().is_some(),
        Expr::AccessExpr(access) => literal_access(access),
        Expr::UnaryExpr(u) => {
            u.op() == Some(ast::UnaryOp::Neg) && u.operand().as_ref().is_some_and(literal)
        }
        Expr::ArrayExpr(a) => a.elements().all(|e| literal(&e)),
        Expr::HashExpr(h) => h.entries().all(|e| {
            e.key().as_ref().is_some_and(literal) && e.value().as_ref().is_some_and(literal)
        }),
        _ => false,
    }
}
