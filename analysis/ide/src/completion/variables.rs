//! Variables after `$` (and in `"$x"`, `"${x}"`): the local ones visible
//! at the cursor, inherited class variables, top-scope variables of the
//! workspace, the compiler's built-ins; `$cls::` gives a class's
//! variables, `$::` the top scope's.

use super::{CompletionItem, CompletionKind, Ctx};
use crate::parameter_info::{parameter_at, parameters_of, ParameterInfo};
use puppet_analysis::db::{parse, workspace_builtins};
use puppet_analysis::hir::normalized_text;
use puppet_analysis::index::{lookup, Namespace};
use puppet_analysis::resolve::resolution::variable_resolution;
use puppet_analysis::resolve::scope::{
    class_variable_chain, workspace_globals, ScopeKind, BUILTIN_VARIABLES,
};
use puppet_syntax::ast::{self, AstNode};
use puppet_syntax::{SyntaxNode, TextRange};

/// Where a variable comes from, as a sort group (nearest first).
const LOCAL: &str = "0";
const INHERITED: &str = "1";
const GLOBAL: &str = "2";
const BUILTIN: &str = "3";
const FACT: &str = "4";
const LEGACY_FACT: &str = "5";

pub(super) fn complete(ctx: &Ctx, braced: bool) -> Vec<CompletionItem> {
    let written = ctx.context.prefix.trim_start_matches('$');
    let mut out = Vec::new();
    let mut push = |name: String, kind, about: About, group: &str| {
        let label = if braced {
            name.clone()
        } else {
            format!("${name}")
        };
        let mut item = CompletionItem::new(label, kind, ctx.context.replace).detail(about.detail);
        item.documentation = about.documentation;
        item.sort_text = Some(format!("{group}{name}"));
        out.push(item);
    };
    if written
        .strip_prefix("::")
        .is_some_and(|rest| !rest.contains("::"))
    {
        for name in workspace_globals(ctx.db, ctx.workspace).keys() {
            push(
                format!("::{name}"),
                CompletionKind::Variable,
                About::default(),
                GLOBAL,
            );
        }
        for name in BUILTIN_VARIABLES {
            push(
                format!("::{name}"),
                CompletionKind::Variable,
                About::detail(builtin_detail(name)),
                BUILTIN,
            );
        }
        // Facts are top-scope variables; legacy ones only where the target
        // Puppet still receives them (Puppet 7).
        let target = ctx.workspace.target(ctx.db);
        for fact in workspace_builtins(ctx.db, ctx.workspace).facts.top_level() {
            let detail = if fact.legacy {
                if !target.has_legacy_facts() {
                    continue;
                }
                format!("{} (legacy fact: unknown on Puppet 8)", fact.type_text)
            } else {
                fact.type_text.clone()
            };
            let group = if fact.legacy { LEGACY_FACT } else { FACT };
            push(
                format!("::{}", fact.path),
                CompletionKind::Fact,
                About::detail(Some(detail)),
                group,
            );
        }
        return out;
    }
    if let Some((class, _)) = written.rsplit_once("::") {
        let lead = if written.starts_with("::") { "::" } else { "" };
        let class = class.trim_start_matches("::");
        for (owner, vars) in class_variable_chain(ctx.db, ctx.workspace, class)
            .map(|c| c.classes)
            .unwrap_or_default()
        {
            let params = class_parameters(ctx, &owner);
            for var in vars {
                let (kind, about) = class_variable(&params, &var);
                push(format!("{lead}{class}::{var}"), kind, about, INHERITED);
            }
        }
        return out;
    }
    let root = parse(ctx.db, ctx.file).syntax_node();
    let resolution = variable_resolution(ctx.db, ctx.workspace, ctx.file);
    let (locals, terminal) = resolution.visible_at(ctx.context.offset);
    // What inference knows of the visible definitions (and no more).
    let span = locals
        .iter()
        .fold(TextRange::empty(ctx.context.offset), |span, def| {
            span.cover(def.range)
        });
    let types = puppet_analysis::infer::infer_range(ctx.db, ctx.workspace, ctx.file, span);
    for def in locals {
        let kind = if def.kind.is_param() {
            CompletionKind::Parameter
        } else {
            CompletionKind::Variable
        };
        // The written type, else what inference knows of the definition.
        let detail = declared_type(&root, def.range).or_else(|| {
            types
                .get(def.range)
                .filter(|i| i.ty != puppet_analysis::model::Type::Any)
                .map(|i| i.ty.to_string())
        });
        // A parameter's documentation, from its declaration.
        let documentation = def
            .kind
            .is_param()
            .then(|| parameter_at(ctx.db, ctx.workspace, ctx.file, def.range))
            .flatten()
            .and_then(|p| p.text());
        let about = About {
            detail,
            documentation,
        };
        push(def.name.clone(), kind, about, LOCAL);
    }
    if let Some(scope) = terminal.filter(|s| s.kind == ScopeKind::Class) {
        let chain = scope
            .name
            .as_deref()
            .and_then(|name| class_variable_chain(ctx.db, ctx.workspace, name));
        for (owner, vars) in chain.into_iter().flat_map(|c| c.classes).skip(1) {
            let params = class_parameters(ctx, &owner);
            for var in vars {
                let (kind, about) = class_variable(&params, &var);
                push(var.to_string(), kind, about, INHERITED);
            }
        }
    }
    let top_level = terminal.is_none_or(|s| !matches!(s.kind, ScopeKind::Template));
    if top_level {
        for name in workspace_globals(ctx.db, ctx.workspace).keys() {
            push(
                name.to_string(),
                CompletionKind::Variable,
                About::default(),
                GLOBAL,
            );
        }
    }
    for name in BUILTIN_VARIABLES {
        push(
            name.to_string(),
            CompletionKind::Variable,
            About::detail(builtin_detail(name)),
            BUILTIN,
        );
    }
    out
}

/// The type written on the parameter whose variable token is at `range`.
pub(super) fn declared_type(root: &SyntaxNode, range: TextRange) -> Option<String> {
    if !root.text_range().contains_range(range) {
        return None;
    }
    let token = root.covering_element(range).into_token()?;
    let param = token.parent().and_then(ast::Param::cast)?;
    param.type_expr().map(|t| normalized_text(t.syntax()))
}

/// A variable item's detail (its type) and documentation.
#[derive(Default)]
struct About {
    detail: Option<String>,
    documentation: Option<String>,
}

impl About {
    fn detail(detail: Option<String>) -> About {
        About {
            detail,
            documentation: None,
        }
    }
}

/// What is known of a class's parameters (none for a class outside the
/// workspace).
fn class_parameters(ctx: &Ctx, class: &str) -> Vec<ParameterInfo> {
    lookup(ctx.db, ctx.workspace, Namespace::Class, class)
        .first()
        .map(|found| parameters_of(ctx.db, ctx.workspace, found))
        .unwrap_or_default()
}

/// A class variable's kind and, for a parameter, its declared type and
/// documentation.
fn class_variable(params: &[ParameterInfo], var: &str) -> (CompletionKind, About) {
    match params.iter().find(|p| p.name == var) {
        Some(p) => (
            CompletionKind::Parameter,
            About {
                detail: p.type_text.clone(),
                documentation: p.text(),
            },
        ),
        None => (CompletionKind::Variable, About::default()),
    }
}

/// The type of the compiler's hash-valued built-ins.
fn builtin_detail(name: &str) -> Option<String> {
    match name {
        "facts" | "server_facts" | "settings" => Some("Hash[String, Data]".to_string()),
        "trusted" => Some(super::keys::TRUSTED_TYPE.to_string()),
        "title" | "name" | "module_name" | "caller_module_name" | "environment" => {
            Some("String".to_string())
        }
        _ => None,
    }
}
