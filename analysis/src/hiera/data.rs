//! The data of Hiera's data files: each file parsed once, the keys each
//! binds (position-free, for the questions "can Hiera give this a value?"
//! and "which files bind this key?"), and a key's bindings in lookup order
//! with the level each comes from.

use super::is_config;
use super::layers::hiera_layers;
use super::yaml::{self, YamlDocument, YamlNode};
use crate::db::{DataFile, Workspace};
use puppet_syntax::TextRange;
use std::collections::BTreeMap;

/// The key under which data files set options for other keys.
pub const LOOKUP_OPTIONS: &str = "lookup_options";

/// A data file parsed with positions (empty for `hiera.yaml`).
#[salsa::tracked(returns(ref))]
pub fn data_document(db: &dyn salsa::Database, file: DataFile) -> YamlDocument {
    let path = file.path(db);
    if is_config(path) {
        return YamlDocument::default();
    }
    let text = file.text(db);
    match path.extension().and_then(|e| e.to_str()) {
        // Puppet reads `.json` with a JSON parser: YAML's leniencies
        // (trailing commas, comments) are errors there.
        Some("json") => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(_) => yaml::parse_with(text, yaml::Schema::Json),
            Err(e) => YamlDocument {
                root: None,
                errors: vec![yaml::YamlError {
                    range: TextRange::empty(offset_of(text, e.line(), e.column())),
                    message: format!("not valid JSON: {e}"),
                }],
            },
        },
        _ => yaml::parse_with(text, yaml::Schema::Yaml11),
    }
}

/// The byte offset of a 1-based line and column (in characters).
fn offset_of(text: &str, line: usize, column: usize) -> puppet_syntax::TextSize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let in_line: usize = text[start.min(text.len())..]
        .chars()
        .take(column.saturating_sub(1))
        .map(char::len_utf8)
        .sum();
    puppet_syntax::TextSize::from((start + in_line).min(text.len()) as u32)
}

/// The top-level keys a data file binds (none for `hiera.yaml`, or when
/// the file does not parse), a leading `::` dropped as Hiera drops it.
#[salsa::tracked(returns(ref))]
pub fn data_file_keys(db: &dyn salsa::Database, file: DataFile) -> Vec<String> {
    data_document(db, file)
        .root
        .iter()
        .flat_map(|root| root.entries())
        .filter_map(|(key, _)| key.as_str())
        .map(|key| normalize_key(key).to_string())
        .collect()
}

/// A key as Hiera compares it: without a leading `::`.
pub fn normalize_key(key: &str) -> &str {
    key.strip_prefix("::").unwrap_or(key)
}

/// The entry of a data file's top-level mapping for `key` (compared as
/// Hiera compares keys).
pub fn entry<'n>(root: &'n YamlNode, key: &str) -> Option<&'n (YamlNode, YamlNode)> {
    root.entries()
        .iter()
        .find(|(k, _)| k.as_str().map(normalize_key) == Some(key))
}

/// Every key bound by some data file of the workspace, with the files
/// binding it (any level of any hierarchy, and files no level names).
#[salsa::tracked(returns(ref))]
pub fn hiera_key_index(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> BTreeMap<String, Vec<DataFile>> {
    let mut index: BTreeMap<String, Vec<DataFile>> = BTreeMap::new();
    for &file in workspace.data_files(db) {
        for key in data_file_keys(db, file) {
            index.entry(key.clone()).or_default().push(file);
        }
    }
    index
}

/// Where a binding sits in the hierarchies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    /// Index in [`hiera_layers`].
    pub layer: usize,
    /// Index in [`Layer::all_levels`].
    pub level: usize,
}

/// A key's value in one data file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub file: DataFile,
    /// The level reading the file; `None` when no level's paths name it
    /// (Puppet never reads the value).
    pub place: Option<Place>,
    pub key_range: TextRange,
    pub value: YamlNode,
}

/// The bindings of a key in lookup order: the environments' levels, then
/// the module's whose namespace the key is in, each level's files in
/// path order; then the files no level reads.
pub fn bindings(db: &dyn salsa::Database, workspace: Workspace, key: &str) -> Vec<Binding> {
    let key = normalize_key(key);
    let Some(files) = hiera_key_index(db, workspace).get(key) else {
        return Vec::new();
    };
    let layers = hiera_layers(db, workspace);
    let mut out: Vec<Binding> = Vec::new();
    for (l, layer) in layers.iter().enumerate() {
        // Every layer has options, for the keys it answers.
        if !layer.answers(key) && key != LOOKUP_OPTIONS {
            continue;
        }
        for (i, level) in layer.all_levels().enumerate() {
            for file in level.files.iter().filter(|f| files.contains(f)) {
                let place = Place { layer: l, level: i };
                out.extend(binding_in(db, *file, key, Some(place)));
            }
        }
    }
    for &file in files {
        if !out.iter().any(|b| b.file == file) {
            out.extend(binding_in(db, file, key, None));
        }
    }
    out
}

fn binding_in(
    db: &dyn salsa::Database,
    file: DataFile,
    key: &str,
    place: Option<Place>,
) -> Option<Binding> {
    let root = data_document(db, file).root.as_ref()?;
    let (k, value) = entry(root, key)?;
    Some(Binding {
        file,
        place,
        key_range: k.range,
        value: value.clone(),
    })
}

/// The options `lookup_options` give a key: the first found (in lookup
/// order) naming the key exactly, else the first whose name is a regular
/// expression (`'^profile::.*'`) matching it; with the file that gives them.
pub fn lookup_options(
    db: &dyn salsa::Database,
    workspace: Workspace,
    key: &str,
) -> Option<(YamlNode, DataFile)> {
    let key = normalize_key(key);
    let layers = hiera_layers(db, workspace);
    // A module's options apply to its own keys only.
    let found: Vec<Binding> = bindings(db, workspace, LOOKUP_OPTIONS)
        .into_iter()
        .filter(|b| b.place.is_some_and(|p| layers[p.layer].answers(key)))
        .collect();
    let exact = found.iter().find_map(|b| {
        let (_, options) = entry(&b.value, key)?;
        Some((options.clone(), b.file))
    });
    exact.or_else(|| {
        found.iter().find_map(|b| {
            let (_, options) = b.value.entries().iter().find(|(k, _)| {
                k.as_str().is_some_and(|pattern| {
                    pattern.starts_with('^')
                        && regex::Regex::new(pattern).is_ok_and(|re| re.is_match(key))
                })
            })?;
            Some((options.clone(), b.file))
        })
    })
}
