//! The documents the editor has open: text, version and line index, kept
//! exactly as the editor sees them (the analysis gets a copy of the text).

use puppet_syntax::line_index::{ColumnEncoding, ContentChange, LineIndex};
use puppet_syntax::TextEdit;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower_lsp_server::lsp_types::Uri;

/// One open document. The line index holds the text.
#[derive(Debug, Clone)]
pub struct Document {
    pub uri: Uri,
    pub version: i32,
    pub index: Arc<LineIndex>,
}

impl Document {
    pub fn text(&self) -> &str {
        self.index.text()
    }
}

/// Why a change was not applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeError {
    NotOpen,
}

/// Open documents by path.
#[derive(Debug, Default)]
pub struct Documents {
    by_path: BTreeMap<PathBuf, Document>,
}

impl Documents {
    /// Opens (or reopens, replacing) a document.
    pub fn open(&mut self, path: PathBuf, uri: Uri, version: i32, text: &str) -> &Document {
        let doc = Document {
            uri,
            version,
            index: Arc::new(LineIndex::new(text)),
        };
        self.by_path.insert(path.clone(), doc);
        &self.by_path[&path]
    }

    /// Applies one `didChange`'s changes in order, each against the result
    /// of the previous one; gives them back as byte edits (for the
    /// analysis' incremental reparse).
    pub fn change(
        &mut self,
        path: &Path,
        version: i32,
        changes: &[ContentChange],
        encoding: ColumnEncoding,
    ) -> Result<Vec<TextEdit>, ChangeError> {
        let doc = self.by_path.get_mut(path).ok_or(ChangeError::NotOpen)?;
        if version <= doc.version {
            tracing::warn!(
                "{}: version {version} after {}; applying anyway",
                path.display(),
                doc.version
            );
        }
        let (index, edits) = doc.index.changed(changes, encoding);
        doc.index = Arc::new(index);
        doc.version = version;
        Ok(edits)
    }

    pub fn close(&mut self, path: &Path) -> Option<Document> {
        self.by_path.remove(path)
    }

    pub fn get(&self, path: &Path) -> Option<&Document> {
        self.by_path.get(path)
    }

    pub fn is_open(&self, path: &Path) -> bool {
        self.by_path.contains_key(path)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Path, &Document)> {
        self.by_path.iter().map(|(p, d)| (p.as_path(), d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puppet_syntax::line_index::LineCol;

    #[test]
    fn changes_apply_to_open_documents_only() {
        let mut docs = Documents::default();
        let uri: Uri = "file:///a.pp".parse().unwrap();
        docs.open(PathBuf::from("/a.pp"), uri, 1, "$x = 1\n");
        let change = ContentChange {
            range: Some((LineCol { line: 0, col: 5 }, LineCol { line: 0, col: 6 })),
            text: "'é'".to_string(),
        };
        let edits = docs
            .change(
                Path::new("/a.pp"),
                2,
                std::slice::from_ref(&change),
                ColumnEncoding::Utf16,
            )
            .unwrap();
        assert_eq!(edits.len(), 1);
        let doc = docs.get(Path::new("/a.pp")).unwrap();
        assert_eq!(doc.text(), "$x = 'é'\n");
        assert_eq!(doc.version, 2);
        assert_eq!(
            docs.change(Path::new("/b.pp"), 1, &[change], ColumnEncoding::Utf16)
                .unwrap_err(),
            ChangeError::NotOpen
        );
        assert!(docs.close(Path::new("/a.pp")).is_some());
        assert!(!docs.is_open(Path::new("/a.pp")));
    }
}
