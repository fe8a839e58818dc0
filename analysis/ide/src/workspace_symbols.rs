//! Workspace symbols: a fuzzy, case-insensitive search over the definition
//! index (classes, defined types, nodes, functions, plans, type aliases)
//! and the Ruby types and functions of modules. Only the names in the index
//! are scored; positions are looked up (in the memoized source maps) for
//! the results kept, so a query never reparses the workspace.

use super::goto_definition::symbol_kind;
use super::{Cancellable, NavigationTarget, SymbolKind};
use crate::Analysis;
use puppet_analysis::index::{definition, definition_index};
use puppet_analysis::ruby_plugins::{ruby_file_sites, RubySiteKind};

/// How well a name matches a query (lower is better): exact, prefix,
/// prefix of `::` segments (`n::c` for `ntp::config`), subsequence.
pub fn match_score(name: &str, query: &str) -> Option<u8> {
    let name = name.to_lowercase();
    let query = query.trim().to_lowercase();
    if name == query {
        return Some(0);
    }
    if name.starts_with(&query) {
        return Some(1);
    }
    if segment_prefix(&name, &query) {
        return Some(2);
    }
    let mut chars = name.chars();
    query.chars().all(|q| chars.any(|c| c == q)).then_some(3)
}

/// Some segment of `name` starts with the query, or the query's segments
/// are prefixes of consecutive segments of `name`.
fn segment_prefix(name: &str, query: &str) -> bool {
    let segments: Vec<&str> = name.split("::").collect();
    let wanted: Vec<&str> = query.split("::").collect();
    (0..segments.len()).any(|start| {
        segments.len() - start >= wanted.len()
            && wanted
                .iter()
                .zip(&segments[start..])
                .all(|(w, s)| s.starts_with(w))
    })
}

impl Analysis {
    /// The definitions whose names match `query`, best first (then
    /// shorter names, then alphabetically), at most `limit`.
    pub fn workspace_symbols(
        &self,
        query: &str,
        limit: usize,
    ) -> Cancellable<Vec<NavigationTarget>> {
        self.with_db(|a| {
            let db = a.db();
            let workspace = a.workspace();
            // (score, name, where): where is a definition or a Ruby site.
            enum Place {
                Index(puppet_analysis::index::DefLocation),
                Ruby(puppet_analysis::db::RubyFile, usize),
            }
            let mut found: Vec<(u8, String, Place)> = Vec::new();
            for (_, key, locations) in definition_index(db, workspace).iter() {
                let Some(score) = match_score(key, query) else {
                    continue;
                };
                for &location in locations {
                    if let Some(def) = definition(db, location) {
                        found.push((score, def.name.clone(), Place::Index(location)));
                    }
                }
            }
            for &file in workspace.ruby_files(db) {
                for (i, site) in ruby_file_sites(db, file).iter().enumerate() {
                    if let Some(score) = match_score(&site.name, query) {
                        found.push((score, site.name.clone(), Place::Ruby(file, i)));
                    }
                }
            }
            found.sort_by(|a, b| (a.0, a.1.len(), &a.1).cmp(&(b.0, b.1.len(), &b.1)));
            found
                .into_iter()
                .filter_map(|(_, name, place)| match place {
                    Place::Index(location) => {
                        let def = definition(db, location)?;
                        let (full_range, focus_range) = location.ranges(db)?;
                        Some(NavigationTarget {
                            path: location.file.path(db).clone(),
                            full_range,
                            focus_range,
                            name,
                            kind: symbol_kind(def.kind),
                        })
                    }
                    Place::Ruby(file, i) => {
                        let site = ruby_file_sites(db, file).get(i)?;
                        Some(NavigationTarget {
                            path: file.path(db).clone(),
                            full_range: site.range,
                            focus_range: site.range,
                            name,
                            kind: match site.kind {
                                RubySiteKind::Type => SymbolKind::ResourceType,
                                RubySiteKind::Function => SymbolKind::Function,
                            },
                        })
                    }
                })
                .take(limit)
                .collect()
        })
    }
}
