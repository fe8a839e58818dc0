//! Checks on classes and defined types: `autoloader_layout`,
//! `class_inherits_from_params_class`, `code_on_top_scope`, `documentation`,
//! `inherits_across_namespaces`, `names_containing_dash`,
//! `names_containing_uppercase`, `nested_classes_or_defines`,
//! `parameter_order`.

use super::Sink;
use crate::context::{count_line_breaks, LintContext};
use puppet_syntax::ast::AstNode;
use puppet_syntax::{SyntaxKind, SyntaxToken};

/// `foo::bar` lives in `foo/manifests/bar.pp`, `foo` in
/// `foo/manifests/init.pp` (or, with `--relative`, `manifests/...` from the
/// module's root, whatever the module's directory is called).
pub(crate) fn autoloader_layout(ctx: &LintContext, sink: &mut Sink) {
    let Some(path) = ctx.path else { return };
    let path = path.to_string_lossy().replace('\\', "/");
    if path.is_empty() {
        return;
    }
    for definition in ctx.definitions() {
        let name = definition.name.text();
        let segments: Vec<&str> = name.split("::").collect();
        let mut expected = if segments.len() > 1 {
            format!("/{}/manifests/{}.pp", segments[0], segments[1..].join("/"))
        } else {
            format!("/{name}/manifests/init.pp")
        };
        if ctx.config.relative {
            let parts: Vec<&str> = expected.trim_start_matches('/').split('/').collect();
            expected = parts[1..].join("/");
        }
        if !path.ends_with(&expected) {
            sink.report(
                definition.name.text_range(),
                format!("{name} not in autoload module layout"),
            );
        }
    }
}

pub(crate) fn class_inherits_from_params_class(ctx: &LintContext, sink: &mut Sink) {
    for parent in ctx.definitions().iter().filter_map(|d| d.parent()) {
        if parent.text().ends_with("::params") {
            sink.report(parent.text_range(), "class inheriting from params class");
        }
    }
}

pub(crate) fn inherits_across_namespaces(ctx: &LintContext, sink: &mut Sink) {
    for definition in ctx.definitions() {
        let Some(parent) = definition.parent() else {
            continue;
        };
        let module = |name: &str| name.split("::").find(|s| !s.is_empty()).map(str::to_string);
        if module(parent.text()) != module(definition.name.text()) {
            sink.report(
                parent.text_range(),
                "class inherits across module namespaces",
            );
        }
    }
}

pub(crate) fn names_containing_dash(ctx: &LintContext, sink: &mut Sink) {
    for definition in ctx.definitions() {
        if definition.name.text().contains('-') {
            let message = format!("{} name containing a dash", definition.kind_name());
            sink.report(definition.name.text_range(), message);
        }
    }
}

/// No fix: renaming a class changes what every `include` of it means.
pub(crate) fn names_containing_uppercase(ctx: &LintContext, sink: &mut Sink) {
    for definition in ctx.definitions() {
        let name = definition.name.text();
        if name.chars().any(|c| c.is_ascii_uppercase()) {
            let message = format!(
                "{} '{name}' contains illegal uppercase",
                definition.kind_name()
            );
            sink.report(definition.name.text_range(), message);
        }
    }
}

pub(crate) fn nested_classes_or_defines(ctx: &LintContext, sink: &mut Sink) {
    for definition in ctx.definitions() {
        let inside_class = definition
            .node
            .ancestors()
            .skip(1)
            .any(|a| a.kind() == SyntaxKind::CLASS_DEF);
        if inside_class {
            let message = format!("{} defined inside a class", definition.kind_name());
            sink.report(definition.keyword.text_range(), message);
        }
    }
}

/// A parameter without a default value (and not `Optional`, which defaults
/// to undef) after one with a default.
pub(crate) fn parameter_order(ctx: &LintContext, sink: &mut Sink) {
    for definition in ctx.definitions() {
        let Some(params) = definition.params() else {
            continue;
        };
        let mut seen_optional = false;
        for param in params.params() {
            if param.default_value().is_some() {
                seen_optional = true;
                continue;
            }
            let optional_type = param.type_expr().is_some_and(|t| {
                let text = t.syntax().text().to_string();
                text == "Optional" || text.starts_with("Optional[")
            });
            if seen_optional && !optional_type {
                if let Some(variable) = param.variable_token() {
                    sink.report(
                        variable.text_range(),
                        "optional parameter listed before required parameter",
                    );
                }
            }
        }
    }
}

/// A comment must end on the line right above the `class` or `define`
/// keyword.
pub(crate) fn documentation(ctx: &LintContext, sink: &mut Sink) {
    for definition in ctx.definitions() {
        if !has_comment_above(ctx, &definition.keyword) {
            let message = format!("{} not documented", definition.kind_name());
            sink.report(definition.keyword.text_range(), message);
        }
    }
}

fn has_comment_above(ctx: &LintContext, keyword: &SyntaxToken) -> bool {
    let mut line_breaks = 0;
    for token in ctx.tokens[..ctx.index_at(keyword.text_range().start())]
        .iter()
        .rev()
    {
        match token.kind() {
            SyntaxKind::WHITESPACE => {
                line_breaks += count_line_breaks(token.text());
                if line_breaks > 1 {
                    return false;
                }
            }
            SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT => return true,
            _ => return false,
        }
    }
    false
}

/// puppet-lint reports every token outside classes and defined types.
pub(crate) fn code_on_top_scope(ctx: &LintContext, sink: &mut Sink) {
    let ranges: Vec<_> = ctx
        .definitions()
        .iter()
        .map(|d| d.node.text_range())
        .collect();
    for token in ctx.tokens.iter().filter(|t| !t.kind().is_trivia()) {
        let range = token.text_range();
        // The last definition starting before the token, or one around it.
        let before = ranges.partition_point(|r| r.start() <= range.start());
        let in_definition = ranges[..before].iter().any(|r| r.contains_range(range));
        if !in_definition {
            let message = format!("code outside of class or define block - {}", token.text());
            sink.report(ctx.first_line_of(token.text_range()), message);
        }
    }
}
