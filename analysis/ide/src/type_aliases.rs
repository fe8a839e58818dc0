//! The workspace's type aliases as a declared or inferred type shows them:
//! the alias definitions its text names (go to type definition) and the
//! type with its aliases expanded (hover on an alias, parameter knowledge),
//! so that `Web::Port` also reads as `Integer[1, 65535]`.

use super::targets::index_targets;
use super::NavigationTarget;
use puppet_analysis::db::Workspace;
use puppet_analysis::index::{lookup, Namespace};
use puppet_analysis::infer::type_context;
use puppet_analysis::model::{Type, Value};
use puppet_analysis::types::alias::expand_for_display;

/// The workspace's alias definitions a type's text names, in the order it
/// names them (`Optional[Web::Port]` gives `Web::Port`'s definition).
pub(crate) fn alias_targets(
    db: &dyn salsa::Database,
    workspace: Workspace,
    type_text: &str,
) -> Vec<NavigationTarget> {
    let mut seen: Vec<String> = Vec::new();
    for name in type_names(type_text) {
        if !seen.contains(&name) {
            seen.push(name);
        }
    }
    seen.iter()
        .flat_map(|name| index_targets(db, workspace, Namespace::Type, name))
        .collect()
}

/// A type with the workspace's aliases expanded, for display: each alias
/// as `Name = definition`, except a type that is one alias, shown as its
/// definition alone (its name is already on screen). `None` when the type
/// names no alias the workspace defines.
pub(crate) fn expansion(
    db: &dyn salsa::Database,
    workspace: Workspace,
    t: &Type,
) -> Option<String> {
    let ctx = type_context(db, workspace);
    let expanded = expand_for_display(t, ctx.aliases(), &mut Vec::new()).to_string();
    let written = t.to_string();
    if expanded == written {
        return None;
    }
    Some(match (t, expanded.split_once(" = ")) {
        (Type::Alias(name), Some((head, rest))) if head.eq_ignore_ascii_case(name) => {
            rest.to_string()
        }
        _ => expanded,
    })
}

/// [`expansion`] of a declared type's text (`Optional[Web::Port]`), read
/// as Puppet reads it with the workspace's aliases; `None` when the text
/// is not a type or names no alias.
pub(crate) fn expanded_text(
    db: &dyn salsa::Database,
    workspace: Workspace,
    type_text: &str,
) -> Option<String> {
    let names_alias = type_names(type_text)
        .iter()
        .any(|name| !lookup(db, workspace, Namespace::Type, name).is_empty());
    if !names_alias {
        return None;
    }
    let text = TypeText::new(db, type_text.to_string());
    expanded_type_text(db, workspace, text).clone()
}

/// A declared type's text, interned so that its expansion is memoized.
#[salsa::interned(debug)]
struct TypeText<'db> {
    #[returns(ref)]
    text: String,
}

/// [`expanded_text`], once per text and revision however many parameters
/// declare it (building the workspace's evaluator is the costly part).
#[salsa::tracked(returns(ref))]
fn expanded_type_text<'db>(
    db: &'db dyn salsa::Database,
    workspace: Workspace,
    text: TypeText<'db>,
) -> Option<String> {
    let mut ev = type_context(db, workspace).evaluator();
    match ev.eval_source(text.text(db)).value {
        Some(Value::Type(t)) => expansion(db, workspace, &t),
        _ => None,
    }
}

/// The capitalised, possibly qualified names a type's text mentions
/// (`Optional[Webapp::Port]` gives `Optional`, `Webapp::Port`).
fn type_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' || (c == ':' && chars.peek() == Some(&':')) {
            if c == ':' {
                chars.next();
                current.push_str("::");
            } else {
                current.push(c);
            }
        } else if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        // Skip quoted strings (enum values, patterns) whole.
        if c == '\'' || c == '"' {
            for inner in chars.by_ref() {
                if inner == c {
                    break;
                }
            }
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out.retain(|n| n.starts_with(|c: char| c.is_ascii_uppercase()));
    out
}

#[cfg(test)]
mod tests {
    use super::type_names;

    #[test]
    fn names_skip_strings_and_keep_qualified_names() {
        assert_eq!(
            type_names("Optional[Variant[Web::Port, Enum['A', \"B\"]]]"),
            ["Optional", "Variant", "Web::Port", "Enum"]
        );
    }
}
