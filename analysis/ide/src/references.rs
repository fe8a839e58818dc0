//! Find references (across the workspace) and document highlight (within
//! one file): every occurrence whose referent is the cursor's.

use super::occurrences::{file_occurrences, occurrence_at, occurrences_of};
use super::{Cancellable, FilePosition, FileRange};
use crate::hiera_data::data_keys_of;
use crate::Analysis;
use puppet_syntax::TextRange;

/// How an occurrence is highlighted: written (a definition, parameter or
/// assignment), read, or named inside a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HighlightKind {
    Read,
    Write,
    Text,
}

impl Analysis {
    /// Every place the thing under the cursor is mentioned, sorted by path
    /// and offset; `include_declaration` adds the places that define it.
    pub fn find_references(
        &self,
        pos: &FilePosition,
        include_declaration: bool,
    ) -> Cancellable<Vec<FileRange>> {
        self.with_db(|a| {
            let Some(file) = a.file(&pos.path) else {
                return Vec::new();
            };
            let db = a.db();
            let Some(at) = occurrence_at(db, a.workspace(), file, pos.offset) else {
                return Vec::new();
            };
            let mut out: Vec<FileRange> = occurrences_of(db, a.workspace(), &at.referent)
                .into_iter()
                .filter(|(_, o)| include_declaration || !o.declaration)
                .map(|(file, o)| FileRange {
                    path: file.path(db).clone(),
                    range: o.range,
                })
                .collect();
            // Hiera keys binding a class parameter, or a class's parameters.
            out.extend(
                data_keys_of(db, a.workspace(), &at.referent)
                    .into_iter()
                    .map(|site| FileRange {
                        path: site.path,
                        range: site.key_range,
                    }),
            );
            out.sort_by_key(|r| (r.path.clone(), r.range.start(), r.range.end()));
            out.dedup();
            out
        })
    }

    /// The occurrences in the cursor's file of the thing under the cursor,
    /// in text order.
    pub fn highlight(&self, pos: &FilePosition) -> Cancellable<Vec<(TextRange, HighlightKind)>> {
        self.with_db(|a| {
            let Some(file) = a.file(&pos.path) else {
                return Vec::new();
            };
            let db = a.db();
            let Some(at) = occurrence_at(db, a.workspace(), file, pos.offset) else {
                return Vec::new();
            };
            let mut out: Vec<(TextRange, HighlightKind)> =
                file_occurrences(db, a.workspace(), file)
                    .iter()
                    .filter(|o| o.referent == at.referent)
                    .map(|o| {
                        let kind = if o.declaration && !o.textual {
                            HighlightKind::Write
                        } else if o.textual {
                            HighlightKind::Text
                        } else {
                            HighlightKind::Read
                        };
                        (o.range, kind)
                    })
                    .collect();
            out.sort_by_key(|(r, _)| (r.start(), r.end()));
            out.dedup();
            out
        })
    }
}
