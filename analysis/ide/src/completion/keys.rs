//! Keys inside `x[...]`: fact names under `$facts[...]` (nested:
//! `$facts['os']['` gives `family`, `name`...), the keys of `$trusted`,
//! and the keys of a variable whose declared type is a `Struct` (or an
//! alias of one, or `Optional` of one).

use super::variables::declared_type;
use super::{CompletionItem, CompletionKind, Ctx};
use puppet_analysis::db::parse;
use puppet_analysis::db::workspace_builtins;
use puppet_analysis::eval::parse_type;
use puppet_analysis::index::{lookup, Namespace};
use puppet_analysis::model::Type;
use puppet_analysis::resolve::resolution::{variable_resolution, FileTarget};
use puppet_analysis::resolve::scope::Target;
use puppet_syntax::ast::{self, Expr};

/// The type of `$trusted` (Puppet's trusted node data).
pub(super) const TRUSTED_TYPE: &str = "Struct[{'authenticated' => String, 'certname' => String, \
     'domain' => String, 'extensions' => Hash[String, Data], 'external' => Hash[String, Data], \
     'hostname' => String}]";

/// How many alias levels are followed (aliases may be recursive).
const MAX_ALIAS_DEPTH: usize = 16;

pub(super) fn complete(ctx: &Ctx, access: &ast::AccessExpr, quoted: bool) -> Vec<CompletionItem> {
    let Some((variable, keys)) = key_path(access) else {
        return Vec::new();
    };
    let name = variable.name();
    let name = name.trim_start_matches("::");
    let item = |key: &str, kind, detail: Option<String>| {
        let item = CompletionItem::new(key, kind, ctx.context.replace).detail(detail);
        if quoted {
            item
        } else {
            item.insert(format!("'{key}'"))
        }
    };
    if name == "facts" {
        let path = keys.join(".");
        let parent = (!keys.is_empty()).then_some(path.as_str());
        return workspace_builtins(ctx.db, ctx.workspace)
            .facts
            .members(parent)
            .into_iter()
            .map(|fact| {
                let key = fact.path.rsplit('.').next().unwrap_or(&fact.path);
                item(key, CompletionKind::Fact, Some(fact.type_text.clone()))
            })
            .collect();
    }
    let declared = if name == "trusted" {
        Some(TRUSTED_TYPE.to_string())
    } else {
        variable_type_text(ctx, &variable)
    };
    let Some(mut ty) = declared.map(|text| resolve(ctx, parse_type(&text))) else {
        return Vec::new();
    };
    for key in &keys {
        let Type::Struct(elements) = &ty else {
            return Vec::new();
        };
        let Some(element) = elements.iter().find(|e| e.name() == key) else {
            return Vec::new();
        };
        ty = resolve(ctx, element.value.clone());
    }
    let Type::Struct(elements) = ty else {
        return Vec::new();
    };
    elements
        .iter()
        .filter(|e| !e.name().is_empty())
        .map(|e| item(e.name(), CompletionKind::Key, Some(e.value.to_string())))
        .collect()
}

/// `$v['a']['b'][` -> (`$v`, [a, b]): the variable and the literal keys
/// before the one being completed.
fn key_path(access: &ast::AccessExpr) -> Option<(ast::VariableExpr, Vec<String>)> {
    let mut keys = Vec::new();
    let mut target = access.target()?;
    loop {
        match target {
            Expr::VariableExpr(v) => {
                keys.reverse();
                return Some((v, keys));
            }
            Expr::AccessExpr(inner) => {
                let [key] = inner.args().try_into().ok()?;
                keys.push(key.static_string()?);
                target = inner.target()?;
            }
            _ => return None,
        }
    }
}

/// The declared type of the parameter a variable reference resolves to.
fn variable_type_text(ctx: &Ctx, variable: &ast::VariableExpr) -> Option<String> {
    let token = variable.token()?;
    let resolution = variable_resolution(ctx.db, ctx.workspace, ctx.file);
    let reference = resolution
        .references
        .iter()
        .find(|r| r.range == token.text_range())?;
    match &reference.target {
        FileTarget::Local(defs) => {
            let def = resolution.definitions.get(*defs.first()?)?;
            declared_type(&parse(ctx.db, ctx.file).syntax_node(), def.range)
        }
        FileTarget::Other(Target::Inherited { class } | Target::Qualified { class }) => {
            let leaf = reference.name.rsplit("::").next()?;
            lookup(ctx.db, ctx.workspace, Namespace::Class, class)
                .first()?
                .definition
                .params
                .iter()
                .find(|p| p.name == leaf)?
                .type_text
                .clone()
        }
        _ => None,
    }
}

/// Expands workspace type aliases and unwraps `Optional`/`NotUndef`, to
/// find the structure under a declared type.
pub(super) fn resolve(ctx: &Ctx, mut ty: Type) -> Type {
    for _ in 0..MAX_ALIAS_DEPTH {
        ty = match ty {
            Type::Optional(Some(inner)) | Type::NotUndef(Some(inner)) => *inner,
            Type::Alias(name) | Type::TypeReference(name) => {
                let found = lookup(ctx.db, ctx.workspace, Namespace::Type, &name);
                match found.first().and_then(|r| r.definition.type_text.clone()) {
                    Some(text) => parse_type(&text),
                    None => return Type::TypeReference(name),
                }
            }
            other => return other,
        };
    }
    ty
}
