//! Hiera seen from the code: the key a `lookup('k')` (or `hiera*`) call
//! names, the key that binds a class parameter (`class::param`), and the
//! data behind a key as people read it in a hover: every file binding it,
//! in lookup order, with its level and the merge behaviour that applies.

use puppet_analysis::db::Workspace;
use puppet_analysis::hiera::calls::{lookup_call, LookupCall};
use puppet_analysis::hiera::data::{bindings, lookup_options, Binding};
use puppet_analysis::hiera::layers::{hiera_layers, Layer, LayerKind};
use puppet_analysis::hiera::value::to_value;
use puppet_analysis::values::format::to_programmatic;
use puppet_syntax::{SyntaxKind, SyntaxToken};
use std::fmt::Write;

/// The lookup call whose key string holds `token`.
pub(crate) fn lookup_key_at(token: &SyntaxToken) -> Option<LookupCall> {
    let call = token
        .parent_ancestors()
        .find(|n| n.kind() == SyntaxKind::CALL_EXPR)?;
    lookup_call(&call).filter(|c| c.key_range.contains_range(token.text_range()))
}

/// Longest value shown for one binding.
const MAX_VALUE_CHARS: usize = 200;

/// The data behind a key, in Markdown: the merge behaviour, then each
/// binding in lookup order with its file and level (templates as written).
/// `None` when no data file binds the key.
pub(crate) fn data_markdown(
    db: &dyn salsa::Database,
    workspace: Workspace,
    key: &str,
    call_merge: Option<&str>,
) -> Option<String> {
    let found = bindings(db, workspace, key);
    if found.is_empty() {
        return None;
    }
    let layers = hiera_layers(db, workspace);
    let options = lookup_options(db, workspace, key);
    let option_merge = options.as_ref().and_then(|(options, file)| {
        let merge = options.get("merge")?;
        let strategy = merge
            .as_str()
            .or_else(|| merge.get("strategy")?.as_str())?
            .to_string();
        Some((strategy, file.path(db).clone()))
    });
    let merge = match (call_merge, &option_merge) {
        (Some(merge), _) => format!("merge `{merge}` (given in the call)"),
        (None, Some((merge, file))) => format!(
            "merge `{merge}` (`lookup_options` in `{}`)",
            shown_path(layers, file)
        ),
        (None, None) => "first found wins".to_string(),
    };
    let mut md = format!("**Hiera** `{key}`: {merge}\n\n");
    for binding in &found {
        let _ = writeln!(md, "- {}", describe(db, layers, binding));
    }
    Some(md)
}

/// One binding: `` `data/nodes/web01.yaml` (level Nodes, `nodes/%{trusted.certname}.yaml`): `['a']` ``.
fn describe(db: &dyn salsa::Database, layers: &[Layer], binding: &Binding) -> String {
    let path = shown_path(layers, binding.file.path(db));
    let place = match binding.place {
        Some(place) => {
            let layer = &layers[place.layer];
            let level = layer.all_levels().nth(place.level);
            let templates = level
                .map(|l| {
                    l.paths
                        .iter()
                        .map(|p| format!("`{}`", p.display(&layer.root)))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default();
            let name = level.map_or("", |l| l.name.as_str());
            let owner = match &layer.kind {
                LayerKind::Environment => "environment".to_string(),
                LayerKind::Module(module) => format!("module {module}"),
            };
            format!("{owner} level *{name}*, {templates}")
        }
        None => "read by no hierarchy level".to_string(),
    };
    let mut value = to_programmatic(&to_value(&binding.value));
    if value.starts_with("<unknown") {
        value = binding.value.as_str().unwrap_or("…").to_string();
    }
    if value.chars().count() > MAX_VALUE_CHARS {
        value = value.chars().take(MAX_VALUE_CHARS).collect::<String>() + "…";
    }
    format!("`{path}` ({place}): `{value}`")
}

/// A data file's path as people know it: relative to its environment (or
/// to its module, prefixed with the module's directory name).
fn shown_path(layers: &[Layer], path: &std::path::Path) -> String {
    let environment = layers
        .iter()
        .filter(|l| l.kind == LayerKind::Environment)
        .find_map(|l| path.strip_prefix(&l.root).ok());
    let module = || {
        layers.iter().find_map(|l| {
            let relative = path.strip_prefix(&l.root).ok()?;
            let dir = l.root.file_name()?;
            Some(std::path::Path::new(dir).join(relative))
        })
    };
    environment
        .map(std::path::Path::to_path_buf)
        .or_else(module)
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}
