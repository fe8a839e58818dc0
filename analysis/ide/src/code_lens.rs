//! Code lenses: above each class, defined type, function, plan and type
//! alias, how many references it has, and for classes how many places
//! include, contain, require, inherit or declare them. Each lens carries
//! the locations it counts, for the editor to list.

use super::call_hierarchy::calls_of;
use super::occurrences::{occurrences_of, Referent};
use super::{Cancellable, FileRange};
use crate::Analysis;
use puppet_analysis::hir::{file_definitions, DefKind};
use puppet_analysis::index::{index_key, Namespace};
use puppet_syntax::TextRange;
use std::path::Path;

/// A count shown above a definition's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeLens {
    /// The definition's name.
    pub range: TextRange,
    pub title: String,
    /// What the count counts, in workspace order.
    pub locations: Vec<FileRange>,
}

impl Analysis {
    /// The lenses of a file's definitions, in order.
    pub fn code_lenses(&self, path: &Path) -> Cancellable<Vec<CodeLens>> {
        self.with_db(|a| {
            let (db, workspace) = (a.db(), a.workspace());
            let Some(file) = a.file(path) else {
                return Vec::new();
            };
            let mut out = Vec::new();
            for (_, def, place) in file_definitions(db, file) {
                if def.kind == DefKind::Node {
                    continue;
                }
                let referent = Referent::Definition(Namespace::of(def.kind), index_key(&def.name));
                let mut references: Vec<FileRange> = occurrences_of(db, workspace, &referent)
                    .into_iter()
                    .filter(|(_, o)| !o.declaration)
                    .map(|(file, o)| FileRange {
                        path: file.path(db).clone(),
                        range: o.range,
                    })
                    .collect();
                references.sort_by_key(|r| (r.path.clone(), r.range.start()));
                out.push(CodeLens {
                    range: place.name_range,
                    title: counted(references.len(), "reference", "references"),
                    locations: references,
                });
                if def.kind == DefKind::Class {
                    let mut includes: Vec<FileRange> = calls_of(db, workspace, &referent)
                        .into_iter()
                        .map(|(range, _)| range)
                        .collect();
                    includes.sort_by_key(|r| (r.path.clone(), r.range.start()));
                    out.push(CodeLens {
                        range: place.name_range,
                        title: format!("included by {}", includes.len()),
                        locations: includes,
                    });
                }
            }
            out
        })
    }
}

fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
