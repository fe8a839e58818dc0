//! `variable_scope`: inside a class or defined type, a variable that is not
//! a parameter, not assigned in that definition, not a lambda parameter
//! and not one Puppet sets everywhere should be named with its namespace
//! (`$::fact`, `$other::var`).
//!
//! Each definition has its own scope, as in Puppet; puppet-lint lets every
//! definition see the variables of the definitions above it in the file.
//! Lambda parameters are in scope inside their lambda (puppet-lint: on the
//! lines it spans). Like puppet-lint, only `$x` and `${x}` are checked, not
//! `"$x"` in strings.

use super::definitions::{definitions, Definition};
use super::variables::variable_refs;
use super::Sink;
use crate::context::LintContext;
use puppet_syntax::ast::{AssignmentExpr, AstNode, Expr, Lambda};
use puppet_syntax::{SyntaxKind, SyntaxNode};
use std::collections::HashSet;

/// Variables Puppet sets in every scope, and the metaparameters puppet-lint
/// accepts as names.
const ALWAYS_IN_SCOPE: &[&str] = &[
    "name",
    "title",
    "module_name",
    "environment",
    "clientcert",
    "clientversion",
    "servername",
    "serverip",
    "serverversion",
    "caller_module_name",
    "alias",
    "audit",
    "before",
    "loglevel",
    "noop",
    "notify",
    "require",
    "schedule",
    "stage",
    "subscribe",
    "tag",
    "facts",
    "trusted",
    "server_facts",
];

pub(crate) fn variable_scope(ctx: &LintContext, sink: &mut Sink) {
    for definition in definitions(&ctx.root) {
        let in_scope = definition_scope(&definition);
        for variable in variable_refs(ctx, &definition.node) {
            let name = variable.name.as_str();
            if variable.unenclosed
                || name.contains("::")
                || name.bytes().all(|b| b.is_ascii_digit())
                || in_scope.contains(name)
                || ALWAYS_IN_SCOPE.contains(&name)
                || innermost_definition(&variable.token).as_ref() != Some(&definition.node)
                || is_lambda_parameter(&variable.token)
            {
                continue;
            }
            sink.report(
                variable.range(),
                "top-scope variable being used without an explicit namespace",
            );
        }
    }
}

/// The innermost class or defined type around a token.
fn innermost_definition(token: &puppet_syntax::SyntaxToken) -> Option<SyntaxNode> {
    token
        .parent_ancestors()
        .find(|a| matches!(a.kind(), SyntaxKind::CLASS_DEF | SyntaxKind::DEFINE_DEF))
}

/// Parameters and variables assigned with `=` anywhere in the definition
/// (not in definitions nested in it).
fn definition_scope(definition: &Definition) -> HashSet<String> {
    let mut names: HashSet<String> = definition
        .params()
        .into_iter()
        .flat_map(|params| params.params())
        .filter_map(|param| param.name())
        .collect();
    for assignment in own_descendants(&definition.node).filter_map(AssignmentExpr::cast) {
        let is_plain = assignment
            .op_token()
            .is_some_and(|t| t.kind() == SyntaxKind::EQ);
        if !is_plain {
            continue;
        }
        let Some(target) = assignment.lhs() else {
            continue;
        };
        let targets: Vec<SyntaxNode> = match &target {
            Expr::ArrayExpr(array) => array.elements().map(|e| e.syntax().clone()).collect(),
            other => vec![other.syntax().clone()],
        };
        for target in targets
            .iter()
            .filter(|t| t.kind() == SyntaxKind::VARIABLE_EXPR)
        {
            if let Some(token) = target.first_token() {
                names.insert(token.text().trim_start_matches('$').to_string());
            }
        }
    }
    names
}

/// The nodes of a definition, without those of definitions nested in it.
fn own_descendants(node: &SyntaxNode) -> impl Iterator<Item = SyntaxNode> + '_ {
    node.descendants().filter(move |n| {
        n.ancestors()
            .take_while(|a| a != node)
            .all(|a| !matches!(a.kind(), SyntaxKind::CLASS_DEF | SyntaxKind::DEFINE_DEF))
    })
}

/// A lambda parameter's declaration, or a use of one inside its lambda.
fn is_lambda_parameter(token: &puppet_syntax::SyntaxToken) -> bool {
    let name = token.text().trim_start_matches('$');
    token
        .parent_ancestors()
        .filter_map(Lambda::cast)
        .any(|lambda| {
            lambda
                .params()
                .is_some_and(|params| params.params().any(|p| p.name().as_deref() == Some(name)))
        })
}
