//! Rename: every occurrence of the thing under the cursor (see
//! `occurrences`), with the new name checked against Puppet's name rules.
//! Renaming a class, defined type, function or type alias whose file is
//! where autoloading looks for it also moves the file to where autoloading
//! will look for the new name. Variables and parameters are renamed with
//! their qualified references (`$mod::cls::x`) and, for parameters of
//! classes and defined types, the attributes that set them.

use super::occurrences::{occurrence_at, occurrences_of, NameStyle, Occurrence, Referent};
use super::{Cancellable, FilePosition, SourceChange, TextEdit};
use crate::hiera_data::data_keys_of;
use crate::Analysis;
use puppet_analysis::db::Workspace;
use puppet_analysis::hir::DefKind;
use puppet_analysis::index::{index_key, lookup, Namespace};
use puppet_analysis::resolve::scope::BUILTIN_VARIABLES;
use puppet_analysis::workspace::{autoload_expectation, autoload_path};
use puppet_syntax::validation::{is_classref_decl, is_classref_ext_decl, is_param_name};
use puppet_syntax::TextRange;

impl Analysis {
    /// The range a rename at the cursor would replace, or why nothing
    /// there can be renamed.
    pub fn prepare_rename(&self, pos: &FilePosition) -> Cancellable<Result<TextRange, String>> {
        self.with_db(|a| {
            let occurrence = renamable_at(a, pos)?;
            Ok(occurrence.edit_range)
        })
    }

    /// The edits (and file moves) renaming the thing under the cursor to
    /// `new_name`, or why it cannot be done.
    pub fn rename(
        &self,
        pos: &FilePosition,
        new_name: &str,
    ) -> Cancellable<Result<SourceChange, String>> {
        self.with_db(|a| {
            let occurrence = renamable_at(a, pos)?;
            let db = a.db();
            let workspace = a.workspace();
            let mut change = SourceChange::default();
            let new_name = match &occurrence.referent {
                Referent::Variable { .. } => {
                    let name = new_name.trim().trim_start_matches('$');
                    if !is_param_name(name) {
                        return Err(format!("'{name}' is not a valid variable name"));
                    }
                    name.to_string()
                }
                Referent::Definition(namespace, old) => {
                    let name = check_definition_name(*namespace, new_name.trim())?;
                    if index_key(&name) != *old
                        && !lookup(db, workspace, *namespace, &name).is_empty()
                    {
                        return Err(format!("'{name}' is already defined"));
                    }
                    change.file_moves = file_moves(db, workspace, *namespace, old, &name);
                    name
                }
                _ => return Err("this cannot be renamed".to_string()),
            };
            for (file, o) in occurrences_of(db, workspace, &occurrence.referent) {
                let new_text = match o.style {
                    NameStyle::Capitalized => capitalize(&new_name),
                    NameStyle::Lower => new_name.to_lowercase(),
                    NameStyle::Variable => new_name.clone(),
                };
                change
                    .edits
                    .entry(file.path(db).clone())
                    .or_default()
                    .push(TextEdit {
                        range: o.edit_range,
                        new_text,
                    });
            }
            // The Hiera keys binding the renamed parameter or class's
            // parameters follow.
            for site in data_keys_of(db, workspace, &occurrence.referent) {
                let (range, new_text) = match &occurrence.referent {
                    Referent::Variable { .. } => (site.param_range, new_name.clone()),
                    _ => (site.class_range, new_name.to_lowercase()),
                };
                change
                    .edits
                    .entry(site.path)
                    .or_default()
                    .push(TextEdit { range, new_text });
            }
            for edits in change.edits.values_mut() {
                edits.sort_by_key(|e| (e.range.start(), e.range.end()));
                edits.dedup();
            }
            Ok(change)
        })
    }
}

/// The occurrence under the cursor if it can be renamed.
fn renamable_at(a: &Analysis, pos: &FilePosition) -> Result<Occurrence, String> {
    let db = a.db();
    let file = a
        .file(&pos.path)
        .ok_or_else(|| "the file is not part of the workspace".to_string())?;
    let occurrence = occurrence_at(db, a.workspace(), file, pos.offset)
        .ok_or_else(|| "there is nothing to rename here".to_string())?;
    match &occurrence.referent {
        Referent::Variable { .. } => Ok(occurrence),
        Referent::Definition(namespace, name) => {
            if !lookup(db, a.workspace(), *namespace, name).is_empty() {
                return Ok(occurrence);
            }
            let builtin = match namespace {
                Namespace::Function => a.stdlib().resolve_function(name).is_some(),
                Namespace::Type | Namespace::DefinedType | Namespace::Class => {
                    a.builtins().resource_type(name).is_some()
                        || a.builtins().is_core_type_without_data(name)
                        || puppet_analysis::model::Type::from_name(&capitalize(name)).is_some()
                }
                Namespace::Node => false,
            };
            Err(if builtin {
                format!("'{name}' is built into Puppet and cannot be renamed")
            } else {
                format!("'{name}' is not defined in the workspace")
            })
        }
        Referent::RubyType(name) | Referent::RubyFunction(name) => Err(format!(
            "'{name}' is defined in Ruby; rename it in its Ruby file"
        )),
        Referent::ExternalVariable(name) => {
            let leaf = name.trim_start_matches("::");
            Err(if a.builtins().fact(leaf).is_some() {
                format!("'${leaf}' is a fact and cannot be renamed")
            } else if BUILTIN_VARIABLES.contains(&leaf) {
                format!("'${leaf}' is set by Puppet and cannot be renamed")
            } else {
                format!("'${leaf}' is not defined in the workspace")
            })
        }
        Referent::Resource { .. } => Err("resource titles cannot be renamed".to_string()),
        Referent::Template(_) => Err("templates cannot be renamed".to_string()),
    }
}

/// A new name for a definition, checked: lower-case qualified names for
/// classes, defined types and functions, capitalized ones for type aliases.
fn check_definition_name(namespace: Namespace, name: &str) -> Result<String, String> {
    let name = name.trim_start_matches("::");
    let valid = match namespace {
        Namespace::Type => is_classref_ext_decl(name),
        _ => is_classref_decl(name),
    };
    if name.is_empty() || !valid {
        let rule = match namespace {
            Namespace::Type => "capitalized segments separated by '::' (e.g. Mod::Port)",
            _ => "lower-case segments separated by '::' (e.g. mod::config)",
        };
        return Err(format!("'{name}' is not a valid name: expected {rule}"));
    }
    Ok(name.to_string())
}

/// `a::b` -> `A::B`.
fn capitalize(name: &str) -> String {
    name.split("::")
        .map(|segment| {
            let mut chars = segment.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<String>>()
        .join("::")
}

/// The autoload directory of a kind of definition.
fn autoload_dir(kind: DefKind) -> Option<&'static str> {
    match kind {
        DefKind::Class | DefKind::DefinedType => Some("manifests"),
        DefKind::Function => Some("functions"),
        DefKind::TypeAlias => Some("types"),
        DefKind::Plan => Some("plans"),
        DefKind::Node => None,
    }
}

/// Files defining `old` where autoloading expects it, moved to where it
/// will expect `new`.
fn file_moves(
    db: &dyn salsa::Database,
    workspace: Workspace,
    namespace: Namespace,
    old: &str,
    new: &str,
) -> Vec<(std::path::PathBuf, std::path::PathBuf)> {
    let layout = workspace.layout(db);
    let mut moves = Vec::new();
    for resolved in lookup(db, workspace, namespace, old) {
        let path = resolved.location.file.path(db);
        let Some(dir) = autoload_dir(resolved.definition.kind) else {
            continue;
        };
        let Some(expected) = autoload_expectation(layout, path) else {
            continue;
        };
        if expected.dir != dir || expected.namespace != index_key(old) {
            continue;
        }
        if let Some(target) = autoload_path(layout, dir, new).filter(|t| t != path) {
            moves.push((path.clone(), target));
        }
    }
    moves
}
