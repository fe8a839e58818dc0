//! Hiera seen from the code: the key a `lookup('k')` (or `hiera*`) call
//! names, the key that binds a class parameter (`class::param`), and the
//! data behind a key as people read it in a hover: every file binding it,
//! in lookup order, with its level and the merge behaviour that applies.

use crate::occurrences::{param_site, Referent};
use crate::parameter_info::parameter_of;
use crate::{NavigationTarget, SymbolKind};
use puppet_analysis::db::{parse, DataFile, SourceFile, Workspace};
use puppet_analysis::hiera::calls::{code_lookup_keys, lookup_call, LookupCall};
use puppet_analysis::hiera::data::{
    bindings, data_document, entry, hiera_key_index, lookup_options, normalize_key, Binding,
};
use puppet_analysis::hiera::layers::{hiera_layers, Layer, LayerKind};
use puppet_analysis::hiera::lookup::{self, LookupError, Node, Strategy};
use puppet_analysis::hiera::value::to_value;
use puppet_analysis::index::{lookup, Namespace};
use puppet_analysis::model::Type;
use puppet_analysis::types::common::common_type;
use puppet_analysis::types::infer::infer_generalized;
use puppet_analysis::values::format::to_programmatic;
use puppet_syntax::ast::{self, AstNode};
use puppet_syntax::{SyntaxKind, SyntaxToken, TextRange, TextSize};
use std::fmt::Write;
use std::path::PathBuf;

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
    node: Option<&Node>,
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
    // What the data holds, for information: a lookup without a type
    // argument is still `Any` in the code (other nodes, other data).
    let types = found
        .iter()
        .filter(|b| b.place.is_some())
        .map(|b| infer_generalized(&to_value(&b.value)))
        .reduce(|a, b| common_type(&a, &b));
    if let Some(t) = types.filter(|t| *t != Type::Any) {
        let _ = writeln!(md, "\nThe data's values are `{t}`.");
    }
    if let Some(node) = node {
        let _ = writeln!(
            md,
            "\n{}",
            node_value(db, workspace, layers, key, call_merge, node)
        );
    }
    Some(md)
}

/// What the lookup gives the configured node, as `puppet lookup` would.
fn node_value(
    db: &dyn salsa::Database,
    workspace: Workspace,
    layers: &[Layer],
    key: &str,
    call_merge: Option<&str>,
    node: &Node,
) -> String {
    let merge = call_merge.and_then(|m| Strategy::from_name(m).ok());
    match lookup::lookup(db, workspace, node, key, merge) {
        Ok(found) => {
            let files: Vec<String> = found
                .sources
                .iter()
                .map(|f| format!("`{}`", shown_path(layers, f.path(db))))
                .collect();
            format!(
                "For node `{}`: `{}` (from {})",
                node.name,
                to_programmatic(&found.value),
                files.join(", ")
            )
        }
        Err(LookupError::NotFound) => format!("For node `{}`: no value", node.name),
        Err(LookupError::Failed(message)) => {
            format!("For node `{}`: the lookup fails: {message}", node.name)
        }
    }
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
                LayerKind::Global => "global".to_string(),
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

/// The top-level key of a data file under `offset`, with its range.
pub(crate) fn data_key_at(
    db: &dyn salsa::Database,
    file: DataFile,
    offset: TextSize,
) -> Option<(String, TextRange)> {
    let root = data_document(db, file).root.as_ref()?;
    root.entries().iter().find_map(|(key, _)| {
        let range = key.range;
        (range.start() <= offset && offset <= range.end())
            .then(|| Some((normalize_key(key.as_str()?).to_string(), range)))
            .flatten()
    })
}

/// A key of a data file naming a class parameter (`class::param`), with
/// the ranges of its two parts in the file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DataKeySite {
    pub path: PathBuf,
    /// The key as written (quotes included).
    pub key_range: TextRange,
    /// The class part, then the parameter part.
    pub class_range: TextRange,
    pub param_range: TextRange,
}

/// The data keys binding parameters of `class` (every parameter, or only
/// `param`).
pub(crate) fn class_parameter_keys(
    db: &dyn salsa::Database,
    workspace: Workspace,
    class: &str,
    param: Option<&str>,
) -> Vec<DataKeySite> {
    let class = class.trim_start_matches("::").to_ascii_lowercase();
    let found = lookup(db, workspace, Namespace::Class, &class);
    let Some(resolved) = found.first() else {
        return Vec::new();
    };
    let params = &resolved.definition.params;
    let index = hiera_key_index(db, workspace);
    let prefix = format!("{class}::");
    let mut out = Vec::new();
    for (key, files) in index.range(prefix.clone()..) {
        let Some(rest) = key.strip_prefix(&prefix) else {
            break;
        };
        let bound = params.iter().any(|p| p.name == rest);
        if !bound || param.is_some_and(|p| p != rest) {
            continue;
        }
        for &file in files {
            out.extend(key_site(db, file, key));
        }
    }
    out
}

fn key_site(db: &dyn salsa::Database, file: DataFile, key: &str) -> Option<DataKeySite> {
    let root = data_document(db, file).root.as_ref()?;
    let (node, _) = entry(root, key)?;
    let text = file.text(db);
    let written = text.get(usize::from(node.range.start())..usize::from(node.range.end()))?;
    let at = written.find(key)?;
    let start = node.range.start() + TextSize::from(at as u32);
    let split = key.rfind("::")?;
    let class_range = TextRange::at(start, TextSize::from(split as u32));
    let param_start = start + TextSize::from((split + 2) as u32);
    let param_range = TextRange::at(param_start, TextSize::from((key.len() - split - 2) as u32));
    Some(DataKeySite {
        path: file.path(db).clone(),
        key_range: node.range,
        class_range,
        param_range,
    })
}

/// The class and parameter a data key binds, when the class is in the
/// workspace with that parameter.
pub(crate) fn bound_parameter(
    db: &dyn salsa::Database,
    workspace: Workspace,
    key: &str,
) -> Option<(String, String)> {
    let (class, param) = key.rsplit_once("::")?;
    let found = lookup(db, workspace, Namespace::Class, class);
    let def = &found.first()?.definition;
    def.params
        .iter()
        .any(|p| p.name == param)
        .then(|| (def.name.clone(), param.to_string()))
}

/// The class and parameter a variable definition is, when it is a class
/// parameter (the token at `range` of `file` is in a class's parameter
/// list).
pub(crate) fn class_parameter_at(
    db: &dyn salsa::Database,
    file: SourceFile,
    range: TextRange,
) -> Option<(String, String)> {
    let root = parse(db, file).syntax_node();
    let token = crate::cursor::token_at(&root, range.start())?;
    let param = token.parent_ancestors().find_map(ast::Param::cast)?;
    let class = param
        .syntax()
        .parent()
        .and_then(|list| list.parent())
        .and_then(ast::ClassDef::cast)?;
    Some((class.name()?.to_ascii_lowercase(), param.name()?))
}

/// Hover on a key of a data file: the parameter it binds (or the lookups
/// reading it) and the key's data in every file.
pub(crate) fn data_file_hover(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: DataFile,
    offset: TextSize,
    node: Option<&Node>,
) -> Option<(TextRange, String)> {
    let (key, range) = data_key_at(db, file, offset)?;
    let mut md = String::new();
    if let Some((class, param)) = bound_parameter(db, workspace, &key) {
        let parameter = parameter_of(db, workspace, Namespace::Class, &class, &param)?;
        let _ = writeln!(
            md,
            "{}\nBound by automatic parameter lookup.\n",
            parameter.markdown()
        );
    } else if code_lookup_keys(db, workspace).contains(&key) {
        let _ = writeln!(md, "Read by `lookup('{key}')` in the code.\n");
    }
    md.push_str(&data_markdown(db, workspace, &key, None, node)?);
    Some((range, md))
}

/// Go to definition on a data key: the class parameter it binds.
pub(crate) fn data_key_definition(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: DataFile,
    offset: TextSize,
) -> Vec<NavigationTarget> {
    let Some((key, _)) = data_key_at(db, file, offset) else {
        return Vec::new();
    };
    let Some((class, param)) = bound_parameter(db, workspace, &key) else {
        return Vec::new();
    };
    param_site(db, workspace, Namespace::Class, &class, &param)
        .map(|(source, range)| NavigationTarget {
            path: source.path(db).clone(),
            full_range: range,
            focus_range: range,
            name: format!("${param}"),
            kind: SymbolKind::Parameter,
        })
        .into_iter()
        .collect()
}

/// Go to definition on a lookup key in code: the key in every data file
/// binding it, in lookup order.
pub(crate) fn lookup_key_definition(
    db: &dyn salsa::Database,
    workspace: Workspace,
    key: &str,
) -> Vec<NavigationTarget> {
    bindings(db, workspace, key)
        .into_iter()
        .map(|b| NavigationTarget {
            path: b.file.path(db).clone(),
            full_range: TextRange::new(b.key_range.start(), b.value.range.end()),
            focus_range: b.key_range,
            name: key.to_string(),
            kind: SymbolKind::Variable,
        })
        .collect()
}

/// The data keys a referent's rename or references reach: a class
/// parameter's key, or the keys of a class's parameters.
pub(crate) fn data_keys_of(
    db: &dyn salsa::Database,
    workspace: Workspace,
    referent: &Referent,
) -> Vec<DataKeySite> {
    match referent {
        Referent::Variable { file, range, .. } => class_parameter_at(db, *file, *range)
            .map(|(class, param)| class_parameter_keys(db, workspace, &class, Some(&param)))
            .unwrap_or_default(),
        Referent::Definition(Namespace::Class, class) => {
            class_parameter_keys(db, workspace, class, None)
        }
        _ => Vec::new(),
    }
}
