//! What an item tells the rest of the workspace besides its signature:
//! the variables other code can read (a class's `$class::x`, top- and
//! node-scope variables), the resource defaults it sets, and the classes it
//! declares (whose variables are then readable). The host keeps
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
    /// The classes it declares (`include`, `contain`, `require`,
    /// `class { 'x': }`), lower case.
    pub declared_classes: BTreeSet<String>,
    /// Some declaration computes its class (`include $role`).
    pub declares_computed_classes: bool,
    /// The classes it declares resource-like (`class { 'x': }`,
    /// `ensure_resource('class', 'x', ...)`), lower case.
    pub resource_like_classes: BTreeSet<String>,
    /// Some resource-like declaration may declare a class it does not name
    /// (see [`resource_like_declared_by`]).
    pub declares_computed_resource_like: bool,
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
    let mut declared_classes = BTreeSet::new();
    let mut declares_computed_classes = false;
    let mut resource_like_classes = BTreeSet::new();
    let mut declares_computed_resource_like = false;
    for (id, _) in body.exprs() {
        if let Some((classes, computed)) = declared_by(body, id) {
            declared_classes.extend(classes);
            declares_computed_classes |= computed;
        }
        if let Some((classes, computed)) = resource_like_declared_by(body, id) {
            resource_like_classes.extend(classes);
            declares_computed_resource_like |= computed;
        }
    }
    Published {
        variables,
        resource_defaults,
        declared_classes,
        declares_computed_classes,
        resource_like_classes,
        declares_computed_resource_like,
    }
}

/// The functions that declare resources of a type given as their first
/// argument: classes among them, resource-like.
const RESOURCE_FUNCTIONS: [&str; 3] = ["create_resources", "ensure_resource", "ensure_resources"];

/// The classes an expression declares resource-like, lower case without a
/// leading `::`, and whether it may declare some it does not name:
/// `class { 'x': }` (`class { $x: }` names none), stdlib's
/// `ensure_resource('class', 'x', {...})`; a resource expression whose
/// type is computed (`Resource[$type] { ... }`), `create_resources()` and
/// `ensure_resources()` of classes, or any of these functions whose type is
/// computed, may declare any class.
pub fn resource_like_declared_by(body: &Body, id: ExprId) -> Option<(Vec<String>, bool)> {
    let is_class = |t: &str| t.trim_start_matches("::").eq_ignore_ascii_case("class");
    let titles: Vec<ExprId> = match &body[id] {
        Expr::Resource {
            type_expr, bodies, ..
        } => {
            let type_name = match &body[*type_expr] {
                Expr::TypeRef(name) => Some(name.as_str()),
                _ => body.static_string(*type_expr),
            };
            match type_name {
                Some(t) if is_class(t) => bodies.iter().map(|b| b.title).collect(),
                Some(_) => return None,
                None => return Some((Vec::new(), true)),
            }
        }
        Expr::Call { function, args, .. } if RESOURCE_FUNCTIONS.contains(&function.as_str()) => {
            return resource_function(body, function.as_str(), args, is_class);
        }
        Expr::MethodCall {
            receiver,
            function,
            args,
            ..
        } if RESOURCE_FUNCTIONS.contains(&function.as_str()) => {
            let args: Vec<ExprId> = std::iter::once(*receiver)
                .chain(args.iter().copied())
                .collect();
            return resource_function(body, function.as_str(), &args, is_class);
        }
        _ => return None,
    };
    Some(static_names(body, titles))
}

/// A call of one of [`RESOURCE_FUNCTIONS`] with its arguments.
fn resource_function(
    body: &Body,
    function: &str,
    args: &[ExprId],
    is_class: impl Fn(&str) -> bool,
) -> Option<(Vec<String>, bool)> {
    match args.first().and_then(|&t| body.static_string(t)) {
        Some(t) if !is_class(t) => None,
        Some(_) if function == "ensure_resource" => match args.get(1) {
            Some(&title) => Some(static_names(body, vec![title])),
            None => Some((Vec::new(), false)),
        },
        _ => Some((Vec::new(), true)),
    }
}

/// The static names among expressions (arrays flattened), lower case
/// without a leading `::`, and whether some are computed.
fn static_names(body: &Body, names: Vec<ExprId>) -> (Vec<String>, bool) {
    let mut classes = Vec::new();
    let mut computed = false;
    let mut pending = names;
    while let Some(name) = pending.pop() {
        match &body[name] {
            Expr::Array(items) => pending.extend(items),
            _ => match body.static_string(name) {
                Some(text) => classes.push(text.trim_start_matches("::").to_lowercase()),
                None => computed = true,
            },
        }
    }
    (classes, computed)
}

/// The classes an expression declares (`include`, `contain` and `require`
/// calls, resource-like `class { 'x': }`), lower case without a leading
/// `::`, and whether it declares some it does not name.
pub fn declared_by(body: &Body, id: ExprId) -> Option<(Vec<String>, bool)> {
    let names: Vec<ExprId> = match &body[id] {
        // Classes named in Hiera data: any class.
        Expr::Call { function, .. } if function.as_str() == "hiera_include" => {
            return Some((Vec::new(), true));
        }
        Expr::Call { function, args, .. }
            if matches!(function.as_str(), "include" | "contain" | "require") =>
        {
            args.clone()
        }
        Expr::MethodCall {
            receiver,
            function,
            args,
            ..
        } if matches!(function.as_str(), "include" | "contain" | "require") => {
            std::iter::once(*receiver)
                .chain(args.iter().copied())
                .collect()
        }
        Expr::Resource {
            type_expr, bodies, ..
        } if body
            .static_string(*type_expr)
            .is_some_and(|t| t.eq_ignore_ascii_case("class")) =>
        {
            bodies.iter().map(|b| b.title).collect()
        }
        _ => return None,
    };
    Some(static_names(body, names))
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
