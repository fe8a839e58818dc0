//! Resource types at statement starts, attribute names in resource bodies
//! (`file { '/x': `, `class { 'ntp': `, `File { `), and attribute values
//! after `=>` (allowed values, Enum and Boolean parameter types).

use super::context::ResourceTarget;
use super::keys::resolve;
use super::{CompletionItem, CompletionKind, Ctx};
use crate::parameter_info::parameters_of;
use puppet_analysis::builtins::Attribute;
use puppet_analysis::db::workspace_builtins;
use puppet_analysis::eval::parse_type;
use puppet_analysis::hir::ParamSummary;
use puppet_analysis::index::{definition_index, lookup, Namespace};
use puppet_analysis::model::Type;
use puppet_analysis::ruby_plugins::plugin_index;

/// Sort groups of attributes: required first, metaparameters last.
const REQUIRED: &str = "0";
const OPTIONAL: &str = "1";
const META: &str = "2";

/// Core, Ruby and defined resource types, inserted as a resource skeleton.
pub(super) fn types(ctx: &Ctx) -> Vec<CompletionItem> {
    let range = ctx.context.replace;
    let skeleton = |name: &str| format!("{name} {{ '${{1:title}}':\n  $0\n}}");
    let mut out: Vec<CompletionItem> = workspace_builtins(ctx.db, ctx.workspace)
        .types
        .iter()
        .map(|t| {
            CompletionItem::new(&t.name, CompletionKind::ResourceType, range)
                .detail(t.module.clone())
                .documentation(t.description.as_deref())
                .snippet(skeleton(&t.name))
        })
        .collect();
    for name in plugin_index(ctx.db, ctx.workspace).types.keys() {
        out.push(
            CompletionItem::new(name, CompletionKind::ResourceType, range)
                .detail(Some("Ruby type".to_string()))
                .snippet(skeleton(name)),
        );
    }
    for (namespace, name, _) in definition_index(ctx.db, ctx.workspace).iter() {
        if namespace == Namespace::DefinedType {
            out.push(
                CompletionItem::new(name, CompletionKind::DefinedType, range)
                    .detail(Some("defined type".to_string()))
                    .snippet(skeleton(name)),
            );
        }
    }
    out
}

/// The attributes not yet written: the type's own (or the class's or
/// define's parameters), then the metaparameters.
pub(super) fn attributes(ctx: &Ctx, target: &ResourceTarget) -> Vec<CompletionItem> {
    let range = ctx.context.replace;
    let mut out = Vec::new();
    let attribute = |a: &Attribute| {
        let kind = if a.kind == puppet_analysis::builtins::AttributeKind::Metaparameter {
            CompletionKind::Metaparameter
        } else {
            CompletionKind::Attribute
        };
        let mut detail = a.value_type().map(Type::to_string);
        if a.namevar {
            detail = Some(match detail {
                Some(t) => format!("{t} (namevar)"),
                None => "namevar".to_string(),
            });
        }
        let group = match kind {
            CompletionKind::Metaparameter => META,
            _ if a.required && !a.namevar => REQUIRED,
            _ => OPTIONAL,
        };
        arrow_item(&a.name, kind, range, group)
            .detail(detail)
            .documentation(a.description.as_deref())
    };
    if let Some(declared) = declared(ctx, target) {
        let known = parameters_of(ctx.db, ctx.workspace, declared);
        out.extend(
            declared
                .definition
                .params
                .iter()
                .filter(|p| !p.captures_rest)
                .map(|p| {
                    let group = if p.has_default { OPTIONAL } else { REQUIRED };
                    let mut item = arrow_item(&p.name, CompletionKind::Parameter, range, group);
                    match known.iter().find(|k| k.name == p.name) {
                        Some(known) => {
                            item.detail = Some(known.detail());
                            item.documentation = known.text();
                        }
                        None => item.detail = p.type_text.clone(),
                    }
                    item
                }),
        );
    } else if let Some(t) = workspace_builtins(ctx.db, ctx.workspace).resource_type(&target.name) {
        out.extend(t.attributes.iter().map(attribute));
    } else if let Some(t) = plugin_index(ctx.db, ctx.workspace).types.get(&target.name) {
        out.extend(t.attributes.iter().map(|name| {
            arrow_item(name, CompletionKind::Attribute, range, OPTIONAL)
                .detail(t.namevars.contains(name).then(|| "namevar".to_string()))
        }));
    }
    out.extend(
        workspace_builtins(ctx.db, ctx.workspace)
            .metaparameters
            .iter()
            .map(attribute),
    );
    out.retain(|item| !target.present.contains(&item.label));
    out
}

/// The parameters of the class or defined type being declared.
fn definition_params(ctx: &Ctx, target: &ResourceTarget) -> Option<Vec<ParamSummary>> {
    declared(ctx, target).map(|r| r.definition.params.clone())
}

/// The class or defined type a resource declares, when the workspace has it.
fn declared<'a>(
    ctx: &Ctx<'a>,
    target: &ResourceTarget,
) -> Option<&'a puppet_analysis::index::Resolved> {
    let namespace = if target.is_class {
        Namespace::Class
    } else {
        Namespace::DefinedType
    };
    lookup(ctx.db, ctx.workspace, namespace, &target.name).first()
}

fn arrow_item(
    name: &str,
    kind: CompletionKind,
    range: puppet_syntax::TextRange,
    group: &str,
) -> CompletionItem {
    let mut item = CompletionItem::new(name, kind, range).insert(format!("{name} => "));
    item.sort_text = Some(format!("{group}{name}"));
    item.filter_text = Some(name.to_string());
    item
}

/// The values an attribute accepts, where they are a known set.
pub(super) fn values(ctx: &Ctx, target: &ResourceTarget, attribute: &str) -> Vec<CompletionItem> {
    if let Some(params) = definition_params(ctx, target) {
        let mut words = Vec::new();
        if let Some(text) = params
            .iter()
            .find(|p| p.name == attribute)
            .and_then(|p| p.type_text.as_deref())
        {
            type_words(ctx, &parse_type(text), &mut words, 0);
        }
        if !words.is_empty() {
            // A boolean between quotes would be a string.
            return words
                .into_iter()
                .filter(|(_, boolean)| !(ctx.context.in_string && *boolean))
                .map(|(word, bare)| value_item(ctx, &word, bare, None))
                .collect();
        }
    }
    let Some(a) = workspace_builtins(ctx.db, ctx.workspace).attribute(&target.name, attribute)
    else {
        return Vec::new();
    };
    a.values
        .iter()
        .flat_map(|v| {
            std::iter::once(value_item(ctx, &v.name, false, None)).chain(
                v.aliases.iter().map(|alias| {
                    value_item(ctx, alias, false, Some(format!("alias of {}", v.name)))
                }),
            )
        })
        .collect()
}

/// A value item: bare when Puppet reads the word as itself (names,
/// booleans), quoted otherwise.
fn value_item(ctx: &Ctx, word: &str, boolean: bool, detail: Option<String>) -> CompletionItem {
    let item = CompletionItem::new(word, CompletionKind::Value, ctx.context.replace).detail(detail);
    let bare = ctx.context.in_string
        || boolean
        || (puppet_syntax::is_name(word)
            && puppet_syntax::SyntaxKind::from_keyword(word).is_none())
        || matches!(word, "true" | "false");
    if bare {
        item
    } else {
        item.insert(format!("'{word}'"))
    }
}

/// The literal values a type admits: Enum strings, `true`/`false`; the
/// flag says the word is a boolean (never quoted).
fn type_words(ctx: &Ctx, ty: &Type, out: &mut Vec<(String, bool)>, depth: usize) {
    if depth > 8 {
        return;
    }
    match resolve(ctx, ty.clone()) {
        Type::Enum(e) => out.extend(e.values.iter().map(|v| (v.clone(), false))),
        Type::Boolean(value) => {
            for b in [true, false] {
                if value.is_none_or(|v| v == b) {
                    out.push((b.to_string(), true));
                }
            }
        }
        Type::Variant(types) => {
            for t in &types {
                type_words(ctx, t, out, depth + 1);
            }
        }
        Type::String(puppet_analysis::model::StringParam::Value(s)) => out.push((s, false)),
        _ => {}
    }
}
