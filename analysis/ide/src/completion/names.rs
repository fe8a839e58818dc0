//! Names from the built-ins and the workspace index: keywords, functions
//! (with signature snippets), types and type aliases, classes.

use super::context::ClassNameStyle;
use super::{CompletionItem, CompletionKind, Ctx};
use puppet_analysis::builtins::{bolt_functions, in_plan_code, Function, ParamKind};
use puppet_analysis::db::parse;
use puppet_analysis::db::workspace_builtins;
use puppet_analysis::hir::{DefKind, ParamSummary};
use puppet_analysis::index::{definition, definition_index, Namespace};
use puppet_analysis::model::Type;
use puppet_analysis::ruby_plugins::plugin_index;
use puppet_analysis::stdlib::workspace_stdlib;

/// Keywords that start a statement (definitions and conditionals).
const STATEMENT_KEYWORDS: &[&str] = &[
    "case", "class", "define", "function", "if", "node", "type", "unless",
];

/// Keywords that are values.
const VALUE_KEYWORDS: &[&str] = &["default", "false", "true", "undef"];

/// Functions whose arguments are class names, written without parentheses.
const CLASS_FUNCTIONS: &[&str] = &["contain", "include", "require"];

pub(super) fn keywords(ctx: &Ctx, statement: bool) -> Vec<CompletionItem> {
    let statement_keywords = STATEMENT_KEYWORDS.iter().filter(|_| statement);
    statement_keywords
        .chain(VALUE_KEYWORDS)
        .map(|k| CompletionItem::new(*k, CompletionKind::Keyword, ctx.context.replace))
        .collect()
}

/// `else`/`elsif` after the block of a conditional.
pub(super) fn branch_keywords(ctx: &Ctx, keywords: &[&str]) -> Vec<CompletionItem> {
    keywords
        .iter()
        .map(|k| CompletionItem::new(*k, CompletionKind::Keyword, ctx.context.replace))
        .collect()
}

/// Puppet's functions, the bundled stdlib's when it stands for the
/// workspace's (`puppet_analysis::stdlib`), Bolt's in a plan's own code,
/// and the workspace's Puppet and Ruby functions (a stdlib checked out
/// among them).
pub(super) fn functions(ctx: &Ctx) -> Vec<CompletionItem> {
    let range = ctx.context.replace;
    let stdlib = workspace_stdlib(ctx.db, ctx.workspace).bundled_functions();
    let mut out: Vec<CompletionItem> = workspace_builtins(ctx.db, ctx.workspace)
        .functions
        .iter()
        .chain(stdlib)
        .map(|f| builtin_function(f, range))
        .collect();
    let root = parse(ctx.db, ctx.file).syntax_node();
    let in_plan = root
        .token_at_offset(ctx.context.offset)
        .left_biased()
        .and_then(|t| t.parent())
        .is_some_and(|node| in_plan_code(&node));
    if in_plan {
        let bolt = bolt_functions();
        out.extend(bolt.names().map(|name| {
            CompletionItem::new(name, CompletionKind::Function, range)
                .detail(Some(format!(
                    "Bolt plan function ({})",
                    bolt.module_of(name).unwrap_or_default()
                )))
                .snippet(format!("{name}($1)"))
        }));
    }
    for (namespace, _, locations) in definition_index(ctx.db, ctx.workspace).iter() {
        let Some(&location) = locations.first() else {
            continue;
        };
        let Some(def) = definition(ctx.db, location) else {
            continue;
        };
        if namespace != Namespace::Function || def.kind != DefKind::Function {
            continue;
        }
        let params: Vec<Param> = def.params.iter().map(Param::from_summary).collect();
        out.push(
            CompletionItem::new(&def.name, CompletionKind::Function, range)
                .detail(Some(signature(
                    &def.name,
                    &params,
                    def.type_text.as_deref(),
                )))
                .documentation(
                    puppet_analysis::hir::item_documentation(ctx.db, location.item)
                        .markdown()
                        .as_deref(),
                )
                .snippet(call_snippet(&def.name, &params)),
        );
    }
    for name in &plugin_index(ctx.db, ctx.workspace).functions {
        out.push(
            CompletionItem::new(name, CompletionKind::Function, range)
                .detail(Some("Ruby function".to_string()))
                .snippet(format!("{name}($1)")),
        );
    }
    out
}

/// A parameter as shown in a signature.
struct Param {
    name: String,
    type_text: Option<String>,
    required: bool,
    repeated: bool,
}

impl Param {
    fn from_summary(p: &ParamSummary) -> Param {
        Param {
            name: p.name.clone(),
            type_text: p.type_text.clone(),
            required: !p.has_default && !p.captures_rest,
            repeated: p.captures_rest,
        }
    }
}

fn builtin_function(f: &Function, range: puppet_syntax::TextRange) -> CompletionItem {
    let first = f.signatures.first();
    let params: Vec<Param> = first
        .map(|s| {
            s.params
                .iter()
                .enumerate()
                .map(|(i, p)| Param {
                    name: p.name.clone(),
                    type_text: Some(p.type_text.clone()),
                    // A repeated parameter may need at least one argument.
                    required: p.kind == ParamKind::Required
                        || (p.kind == ParamKind::Repeated && i < s.min_args),
                    repeated: p.kind == ParamKind::Repeated,
                })
                .collect()
        })
        .unwrap_or_default();
    let return_type = first.and_then(|s| s.return_type_text.as_deref());
    let item = CompletionItem::new(&f.name, CompletionKind::Function, range)
        .detail(Some(signature(&f.name, &params, return_type)))
        .documentation(f.description.as_deref());
    if CLASS_FUNCTIONS.contains(&f.name.as_str()) {
        item.insert(format!("{} ", f.name))
    } else {
        item.snippet(call_snippet(&f.name, &params))
    }
}

/// `lookup(Variant[String, Array[String]] $name, Type $value_type?) >> Any`.
fn signature(name: &str, params: &[Param], return_type: Option<&str>) -> String {
    let params: Vec<String> = params
        .iter()
        .map(|p| {
            let ty = p
                .type_text
                .as_deref()
                .map_or(String::new(), |t| format!("{t} "));
            let star = if p.repeated { "*" } else { "" };
            let optional = if p.required || p.repeated { "" } else { "?" };
            format!("{ty}{star}${}{optional}", p.name)
        })
        .collect();
    let mut out = format!("{name}({})", params.join(", "));
    if let Some(r) = return_type {
        out.push_str(" >> ");
        out.push_str(r);
    }
    out
}

/// `lookup(${1:name})`: a placeholder per required parameter.
fn call_snippet(name: &str, params: &[Param]) -> String {
    let placeholders: Vec<String> = params
        .iter()
        .filter(|p| p.required)
        .enumerate()
        .map(|(i, p)| format!("${{{}:{}}}", i + 1, p.name))
        .collect();
    format!("{name}({})", placeholders.join(", "))
}

/// Puppet's types and the workspace's type aliases.
pub(super) fn types(ctx: &Ctx) -> Vec<CompletionItem> {
    let range = ctx.context.replace;
    let mut out: Vec<CompletionItem> = Type::NAMES
        .iter()
        .map(|name| CompletionItem::new(*name, CompletionKind::Type, range))
        .collect();
    for (namespace, _, locations) in definition_index(ctx.db, ctx.workspace).iter() {
        if namespace != Namespace::Type {
            continue;
        }
        let Some(&location) = locations.first() else {
            continue;
        };
        if let Some(def) = definition(ctx.db, location) {
            let docs = puppet_analysis::hir::item_documentation(ctx.db, location.item);
            out.push(
                CompletionItem::new(&def.name, CompletionKind::TypeAlias, range)
                    .detail(def.type_text.clone())
                    .documentation(docs.markdown().as_deref()),
            );
        }
    }
    out
}

/// The workspace's classes, written as the place needs.
pub(super) fn classes(ctx: &Ctx, style: ClassNameStyle) -> Vec<CompletionItem> {
    let range = ctx.context.replace;
    let mut out = Vec::new();
    for (namespace, _, locations) in definition_index(ctx.db, ctx.workspace).iter() {
        if namespace != Namespace::Class {
            continue;
        }
        let Some(&location) = locations.first() else {
            continue;
        };
        let Some(def) = definition(ctx.db, location) else {
            continue;
        };
        let item = CompletionItem::new(&def.name, CompletionKind::Class, range).documentation(
            puppet_analysis::hir::item_documentation(ctx.db, location.item)
                .markdown()
                .as_deref(),
        );
        out.push(match style {
            ClassNameStyle::Bare | ClassNameStyle::InString => item,
            ClassNameStyle::Title => item.insert(format!("'{}':", def.name)),
            ClassNameStyle::Quoted => item.insert(format!("'{}'", def.name)),
        });
    }
    out
}
