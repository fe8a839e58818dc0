//! What an item tells the rest of the workspace besides its signature:
//! the variables other code can read (a class's `$class::x`, top- and
//! node-scope variables) and the resource defaults it sets. The host keeps
//! it in the item's input, set only when it changes, so that typing in a
//! body that publishes the same leaves every reader alone.

use puppet_runtime::hir::body::{Body, Expr, ExprId, Name};
use std::collections::BTreeSet;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Published {
    /// Parameters and the variables the item's own scope assigns (not in
    /// lambdas, which are scopes of their own).
    pub variables: BTreeSet<Name>,
    /// `(lower-case type name, attribute names)` of each resource default
    /// (`Type { attr => ... }`) in the body.
    pub resource_defaults: Vec<(String, Vec<String>)>,
}

/// What a lowered body publishes.
pub fn published(body: &Body) -> Published {
    let mut variables: BTreeSet<Name> = body.params.iter().map(|p| p.name).collect();
    let mut stack: Vec<ExprId> = body.body.clone();
    while let Some(id) = stack.pop() {
        if let Expr::Assign { target, .. } = &body[id] {
            variables.extend(assignment_targets(body, *target));
        }
        // Lambdas are scopes of their own: `children` does not enter them.
        stack.extend(body.children(id));
    }
    let resource_defaults = body
        .exprs()
        .filter_map(|(_, expr)| {
            let Expr::ResourceDefaults {
                type_expr,
                attributes,
            } = expr
            else {
                return None;
            };
            let Expr::TypeRef(name) = &body[*type_expr] else {
                return None;
            };
            let attributes = attributes
                .iter()
                .filter_map(|a| a.name.map(|n| n.to_string()))
                .collect();
            Some((name.to_lowercase(), attributes))
        })
        .collect();
    Published {
        variables,
        resource_defaults,
    }
}

/// The variable names an assignment target binds.
pub(crate) fn assignment_targets(body: &Body, target: ExprId) -> Vec<Name> {
    match &body[target] {
        Expr::Variable(name) => vec![*name],
        Expr::Array(items) => items
            .iter()
            .filter_map(|&i| match &body[i] {
                Expr::Variable(name) => Some(*name),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}
