//! The workspace's type aliases as a declared or inferred type shows them:
//! the alias definitions its text names (go to type definition).

use super::targets::index_targets;
use super::NavigationTarget;
use puppet_analysis::db::Workspace;
use puppet_analysis::index::Namespace;

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
