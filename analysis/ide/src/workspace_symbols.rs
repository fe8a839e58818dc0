//! Workspace symbols: a fuzzy, case-insensitive search over every
//! definition of the workspace (classes, defined types, nodes, functions,
//! plans, type aliases, and the Ruby types and functions of modules).
//!
//! The search runs over a symbol index kept by the database: each file's
//! symbols are derived once from its position-free signatures, and the
//! workspace's list is rebuilt only when some file's set of definitions
//! changes (an edit inside a body leaves it as it is). A query lower-cases
//! itself once, scores names without allocating, keeps the best `limit`
//! and only then looks their positions up, so it never reparses anything.

use super::targets::symbol_kind;
use super::{Cancellable, NavigationTarget, SymbolKind};
use crate::Analysis;
use puppet_analysis::db::{RubyFile, SourceFile, Workspace};
use puppet_analysis::index::{definition, index_key, DefLocation};
use puppet_analysis::ruby_plugins::{ruby_file_sites, RubySiteKind};

/// One definition in the index.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SymbolEntry {
    /// The name lower-cased, without a leading `::`: what queries match.
    key: Box<str>,
    /// The name as written, shown to the user.
    name: Box<str>,
    place: Place,
}

/// Where a symbol's positions are found when it is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Puppet(DefLocation),
    /// A Ruby file and the index of the site in its sites.
    Ruby(RubyFile, usize),
}

/// The symbols a Puppet file defines.
#[salsa::tracked(returns(ref))]
fn file_symbols(db: &dyn salsa::Database, file: SourceFile) -> Vec<SymbolEntry> {
    file.items(db)
        .iter()
        .filter_map(|&item| {
            let def = item.signature(db).as_ref()?;
            Some(SymbolEntry {
                key: index_key(&def.name).into(),
                name: def.name.as_str().into(),
                place: Place::Puppet(DefLocation { file, item }),
            })
        })
        .collect()
}

/// The symbols a Ruby plugin file defines.
#[salsa::tracked(returns(ref))]
fn ruby_symbols(db: &dyn salsa::Database, file: RubyFile) -> Vec<SymbolEntry> {
    ruby_file_sites(db, file)
        .iter()
        .enumerate()
        .map(|(i, site)| SymbolEntry {
            key: site.name.as_str().into(),
            name: site.name.as_str().into(),
            place: Place::Ruby(file, i),
        })
        .collect()
}

/// Every symbol of the workspace. Recomputed when a file is added or
/// removed or when some file's symbols change; otherwise the per-file
/// results compare equal and this list is reused.
#[salsa::tracked(returns(ref))]
fn symbol_index(db: &dyn salsa::Database, workspace: Workspace) -> Vec<SymbolEntry> {
    let puppet = workspace.files(db).iter().map(|&f| file_symbols(db, f));
    let ruby = workspace
        .ruby_files(db)
        .iter()
        .map(|&f| ruby_symbols(db, f));
    puppet.chain(ruby).flatten().cloned().collect()
}

/// A query, prepared once for scoring many names.
struct SymbolQuery {
    text: String,
    segments: Vec<String>,
}

impl SymbolQuery {
    fn new(query: &str) -> SymbolQuery {
        let text = query.trim().to_lowercase();
        let segments = text.split("::").map(str::to_owned).collect();
        SymbolQuery { text, segments }
    }

    /// How well a lower-cased name matches (lower is better): exact,
    /// prefix, prefix of `::` segments (`n::c` for `ntp::config`),
    /// subsequence.
    fn score(&self, key: &str) -> Option<u8> {
        if key == self.text {
            Some(0)
        } else if key.starts_with(&self.text) {
            Some(1)
        } else if self.segment_prefix(key) {
            Some(2)
        } else {
            let mut chars = key.chars();
            self.text
                .chars()
                .all(|q| chars.any(|c| c == q))
                .then_some(3)
        }
    }

    /// The query's segments are prefixes of consecutive segments of `key`
    /// (a one-segment query: of any segment).
    fn segment_prefix(&self, key: &str) -> bool {
        let count = key.split("::").count();
        (0..count).any(|start| {
            count - start >= self.segments.len()
                && self
                    .segments
                    .iter()
                    .zip(key.split("::").skip(start))
                    .all(|(w, s)| s.starts_with(w.as_str()))
        })
    }
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
            let index = symbol_index(db, a.workspace());
            let query = SymbolQuery::new(query);
            let mut found: Vec<(u8, &SymbolEntry)> = index
                .iter()
                .filter_map(|entry| Some((query.score(&entry.key)?, entry)))
                .collect();
            let order = |a: &(u8, &SymbolEntry), b: &(u8, &SymbolEntry)| {
                (a.0, a.1.name.len(), &a.1.name).cmp(&(b.0, b.1.name.len(), &b.1.name))
            };
            // Only the best `limit` are sorted: a one-letter query matches
            // most of the workspace.
            if found.len() > limit && limit > 0 {
                found.select_nth_unstable_by(limit - 1, order);
            }
            found.truncate(limit);
            found.sort_by(order);
            found
                .into_iter()
                .filter_map(|(_, entry)| navigation_target(db, entry))
                .collect()
        })
    }
}

/// Where a symbol is, in its file's current text.
fn navigation_target(db: &dyn salsa::Database, entry: &SymbolEntry) -> Option<NavigationTarget> {
    match entry.place {
        Place::Puppet(location) => {
            let def = definition(db, location)?;
            let (full_range, focus_range) = location.ranges(db)?;
            Some(NavigationTarget {
                path: location.file.path(db).clone(),
                full_range,
                focus_range,
                name: entry.name.to_string(),
                kind: symbol_kind(def.kind),
            })
        }
        Place::Ruby(file, i) => {
            let site = ruby_file_sites(db, file).get(i)?;
            Some(NavigationTarget {
                path: file.path(db).clone(),
                full_range: site.range,
                focus_range: site.range,
                name: entry.name.to_string(),
                kind: match site.kind {
                    RubySiteKind::Type => SymbolKind::ResourceType,
                    RubySiteKind::Function => SymbolKind::Function,
                },
            })
        }
    }
}
