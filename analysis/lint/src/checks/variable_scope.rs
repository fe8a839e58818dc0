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

use super::Sink;
use crate::context::definitions::Definition;
use crate::context::LintContext;
use puppet_syntax::ast::{AssignmentExpr, AstNode, Expr, Lambda};
use puppet_syntax::{SyntaxKind, SyntaxNode, TextRange, TextSize};
use std::collections::HashSet;

/// Variables Puppet sets in every scope, and the metaparameters puppet-lint
/// accepts as names: puppet-lint's `DEFAULT_SCOPE_VARS`, as it has them
/// (parity with puppet-lint, not with Puppet: the semantic crate reads
/// Puppet's metaparameters from the runtime's built-in tables, which this
/// crate, on puppet-syntax alone, does not see).
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

/// A definition's own part of the file: its range without the ranges of
/// the definitions nested in it.
struct OwnRange {
    range: TextRange,
    nested: Vec<TextRange>,
}

impl OwnRange {
    fn new(ctx: &LintContext, definition: &Definition) -> OwnRange {
        let range = definition.node.text_range();
        let nested = ctx
            .definitions()
            .iter()
            .map(|d| d.node.text_range())
            .filter(|r| *r != range && range.contains_range(*r))
            .collect();
        OwnRange { range, nested }
    }

    fn owns(&self, offset: TextSize) -> bool {
        self.range.contains(offset) && !self.nested.iter().any(|r| r.contains(offset))
    }
}

/// A lambda's parameter names and where they are in scope.
struct LambdaScope {
    range: TextRange,
    names: Vec<String>,
}

pub(crate) fn variable_scope(ctx: &LintContext, sink: &mut Sink) {
    for definition in ctx.definitions() {
        let own = OwnRange::new(ctx, definition);
        let in_scope = definition_scope(ctx, definition, &own);
        let lambdas: Vec<LambdaScope> = ctx
            .nodes_within(SyntaxKind::LAMBDA, own.range)
            .filter_map(Lambda::cast)
            .map(|lambda| LambdaScope {
                range: lambda.syntax().text_range(),
                names: lambda
                    .params()
                    .into_iter()
                    .flat_map(|params| params.params())
                    .filter_map(|param| param.name())
                    .collect(),
            })
            .collect();
        for variable in ctx.variables_within(own.range) {
            let name = variable.name;
            let start = variable.range().start();
            let lambda_parameter = || {
                lambdas
                    .iter()
                    .any(|l| l.range.contains(start) && l.names.iter().any(|n| n == name))
            };
            if variable.unenclosed
                || !own.owns(start)
                || name.contains("::")
                || name.bytes().all(|b| b.is_ascii_digit())
                || in_scope.contains(name)
                || ALWAYS_IN_SCOPE.contains(&name)
                || lambda_parameter()
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

/// Parameters and variables assigned with `=` anywhere in the definition
/// (not in definitions nested in it).
fn definition_scope(ctx: &LintContext, definition: &Definition, own: &OwnRange) -> HashSet<String> {
    let mut names: HashSet<String> = definition
        .params()
        .into_iter()
        .flat_map(|params| params.params())
        .filter_map(|param| param.name())
        .collect();
    let assignments = ctx
        .nodes_within(SyntaxKind::ASSIGNMENT_EXPR, own.range)
        .filter(|n| own.owns(n.text_range().start()))
        .filter_map(AssignmentExpr::cast);
    for assignment in assignments {
        let is_plain = assignment
            .op_token()
            .is_some_and(|t| t.kind() == SyntaxKind::EQ);
        let Some(target) = assignment.lhs().filter(|_| is_plain) else {
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
