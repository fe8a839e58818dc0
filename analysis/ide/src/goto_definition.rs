//! Go to definition: from any occurrence (see `occurrences`) to where its
//! referent is defined: a definition's name in Puppet code, the name in a
//! Ruby plugin, a variable's parameter or assignment, a resource's
//! declaration, a template file.

use super::cursor::token_at;
use super::hiera_data::{data_key_definition, lookup_key_at, lookup_key_definition};
use super::module_metadata::metadata_definition;
use super::occurrences::{file_occurrences, occurrence_at, occurrences_of, Occurrence, Referent};
use super::parameter_info::parameter_at;
use super::targets::index_targets;
use super::type_aliases::alias_targets;
use super::{Cancellable, FilePosition, NavigationTarget, SymbolKind};
use crate::Analysis;
use puppet_analysis::db::{parse, SourceFile, Workspace};
use puppet_analysis::infer::infer_range;
use puppet_analysis::ruby_plugins::{ruby_file_sites, RubySiteKind};
use puppet_syntax::{SyntaxKind, TextRange, TextSize};

impl Analysis {
    /// Where the thing under the cursor is defined (several places for a
    /// duplicate definition; empty when nothing is there or it is defined
    /// outside the workspace).
    pub fn goto_definition(&self, pos: &FilePosition) -> Cancellable<Vec<NavigationTarget>> {
        self.with_db(|a| {
            let db = a.db();
            if let Some(data) = a.data_file(&pos.path) {
                return data_key_definition(db, a.workspace(), data, pos.offset);
            }
            if let Some(metadata) = a.metadata_file(&pos.path) {
                return metadata_definition(db, a.workspace(), metadata, pos.offset);
            }
            let Some(file) = a.file(&pos.path) else {
                return Vec::new();
            };
            let root = parse(db, file).syntax_node();
            if let Some(call) = token_at(&root, pos.offset).and_then(|t| lookup_key_at(&t)) {
                return lookup_key_definition(db, a.workspace(), &call.key);
            }
            match occurrence_at(db, a.workspace(), file, pos.offset) {
                Some(occurrence) => definition_targets(db, a.workspace(), &occurrence.referent),
                None => Vec::new(),
            }
        })
    }
}

/// The Ruby files defining a type or function of this name.
pub(crate) fn ruby_targets(
    db: &dyn salsa::Database,
    workspace: Workspace,
    kind: RubySiteKind,
    name: &str,
) -> Vec<NavigationTarget> {
    let mut out = Vec::new();
    for &file in workspace.ruby_files(db) {
        for site in ruby_file_sites(db, file) {
            if site.kind == kind && site.name == name {
                out.push(NavigationTarget {
                    path: file.path(db).clone(),
                    full_range: site.range,
                    focus_range: site.range,
                    name: site.name.clone(),
                    kind: match kind {
                        RubySiteKind::Type => SymbolKind::ResourceType,
                        RubySiteKind::Function => SymbolKind::Function,
                    },
                });
            }
        }
    }
    out
}

pub(crate) fn definition_targets(
    db: &dyn salsa::Database,
    workspace: Workspace,
    referent: &Referent,
) -> Vec<NavigationTarget> {
    match referent {
        Referent::Definition(namespace, name) => index_targets(db, workspace, *namespace, name),
        Referent::RubyType(name) => ruby_targets(db, workspace, RubySiteKind::Type, name),
        Referent::RubyFunction(name) => ruby_targets(db, workspace, RubySiteKind::Function, name),
        // Every assignment of the variable (exclusive branches may each
        // assign it), found among its file's declarations.
        Referent::Variable { file, range, name } => {
            let mut ranges: Vec<TextRange> = file_occurrences(db, workspace, *file)
                .iter()
                .filter(|o| o.declaration && o.referent == *referent)
                .map(|o| o.range)
                .collect();
            if ranges.is_empty() {
                ranges.push(*range);
            }
            ranges.sort_by_key(|r| r.start());
            ranges.dedup();
            ranges
                .into_iter()
                .map(|r| variable_target(db, *file, r, name))
                .collect()
        }
        Referent::ExternalVariable(_) => Vec::new(),
        Referent::Resource { title, .. } => occurrences_of(db, workspace, referent)
            .into_iter()
            .filter(|(_, o)| o.declaration)
            .map(|(file, o)| NavigationTarget {
                path: file.path(db).clone(),
                full_range: enclosing(db, file, o.range, SyntaxKind::RESOURCE_BODY),
                focus_range: o.range,
                name: title.clone(),
                kind: SymbolKind::Resource,
            })
            .collect(),
        Referent::Template(path) => {
            let file = workspace.files(db).iter().find(|f| f.path(db) == path);
            let known = file.is_some() || path.is_file();
            let len = file.map_or(0, |f| f.text(db).len() as u32);
            known
                .then(|| NavigationTarget {
                    path: path.clone(),
                    full_range: TextRange::up_to(TextSize::new(len)),
                    focus_range: TextRange::empty(TextSize::new(0)),
                    name: path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    kind: SymbolKind::Template,
                })
                .into_iter()
                .collect()
        }
    }
}

fn variable_target(
    db: &dyn salsa::Database,
    file: SourceFile,
    range: TextRange,
    name: &str,
) -> NavigationTarget {
    let param = enclosing(db, file, range, SyntaxKind::PARAM);
    let full_range = if param != range {
        param
    } else {
        enclosing(db, file, range, SyntaxKind::ASSIGNMENT_EXPR)
    };
    NavigationTarget {
        path: file.path(db).clone(),
        full_range,
        focus_range: range,
        name: name.to_string(),
        kind: if param != range {
            SymbolKind::Parameter
        } else {
            SymbolKind::Variable
        },
    }
}

/// The range of the nearest ancestor of `kind` around `range`, or `range`.
fn enclosing(
    db: &dyn salsa::Database,
    file: SourceFile,
    range: TextRange,
    kind: SyntaxKind,
) -> TextRange {
    let root = parse(db, file).syntax_node();
    puppet_syntax::covering_node(&root, range)
        .and_then(|n| n.ancestors().find(|a| a.kind() == kind))
        .map_or(range, |n| n.text_range())
}

impl Analysis {
    /// Go to type definition: from a variable or parameter to the type
    /// aliases of the workspace its type names (`Webapp::Port $port`,
    /// `Optional[Webapp::Port]`), in the order the type mentions them. A
    /// variable (also inside a string: `"${port}"`, `"$port"`) goes by its
    /// type at that point, an attribute setting a parameter in a
    /// declaration (`class { 'webapp': port => 1 }`) by the declared type.
    pub fn goto_type_definition(&self, pos: &FilePosition) -> Cancellable<Vec<NavigationTarget>> {
        self.with_db(|a| {
            let Some(file) = a.file(&pos.path) else {
                return Vec::new();
            };
            let db = a.db();
            let root = parse(db, file).syntax_node();
            let Some(token) = token_at(&root, pos.offset) else {
                return Vec::new();
            };
            let is_variable = token.kind() == SyntaxKind::VARIABLE
                || token
                    .parent()
                    .is_some_and(|p| p.kind() == SyntaxKind::VARIABLE_EXPR);
            let ty = if is_variable {
                let types = infer_range(db, a.workspace(), file, token.text_range());
                crate::hover::variable_inferred(&types, &token)
                    .ty
                    .to_string()
            } else {
                let parameter = match occurrence_at(db, a.workspace(), file, pos.offset) {
                    Some(Occurrence {
                        referent: Referent::Variable { file, range, .. },
                        ..
                    }) => parameter_at(db, a.workspace(), file, range),
                    _ => None,
                };
                match parameter.and_then(|p| p.type_text) {
                    Some(text) => text,
                    None => return Vec::new(),
                }
            };
            alias_targets(db, a.workspace(), &ty)
        })
    }
}
