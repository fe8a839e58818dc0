//! Conversions between the analysis' plain data (paths, byte offsets) and
//! LSP types (URIs, line/character positions in the negotiated encoding).
//! Out-of-range positions are clamped, never a panic.

use puppet_analysis::ide::{SourceChange, SymbolKind};
use puppet_syntax::line_index::{ColumnEncoding, LineCol, LineIndex};
use puppet_syntax::{TextRange, TextSize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tower_lsp_server::lsp_types::{self as lsp, Position, Range, Uri};
use tower_lsp_server::UriExt;

pub fn position(index: &LineIndex, offset: TextSize, enc: ColumnEncoding) -> Position {
    let lc = index.line_col(offset, enc);
    Position::new(lc.line, lc.col)
}

pub fn range(index: &LineIndex, range: TextRange, enc: ColumnEncoding) -> Range {
    Range::new(
        position(index, range.start(), enc),
        position(index, range.end(), enc),
    )
}

/// The byte offset of an LSP position (clamped to the line and the text).
pub fn offset(index: &LineIndex, pos: Position, enc: ColumnEncoding) -> TextSize {
    index.offset(
        LineCol {
            line: pos.line,
            col: pos.character,
        },
        enc,
    )
}

pub fn text_range(index: &LineIndex, r: Range, enc: ColumnEncoding) -> TextRange {
    let start = offset(index, r.start, enc);
    let end = offset(index, r.end, enc).max(start);
    TextRange::new(start, end)
}

pub fn path(uri: &Uri) -> Option<PathBuf> {
    if !uri
        .scheme()
        .is_some_and(|s| s.as_str().eq_ignore_ascii_case("file"))
    {
        return None;
    }
    uri.to_file_path().map(|p| p.into_owned())
}

pub fn uri(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path)
}

pub fn symbol_kind(kind: SymbolKind) -> lsp::SymbolKind {
    match kind {
        SymbolKind::Class => lsp::SymbolKind::CLASS,
        SymbolKind::DefinedType => lsp::SymbolKind::STRUCT,
        SymbolKind::Node => lsp::SymbolKind::NAMESPACE,
        SymbolKind::Function => lsp::SymbolKind::FUNCTION,
        SymbolKind::Plan => lsp::SymbolKind::METHOD,
        SymbolKind::TypeAlias => lsp::SymbolKind::TYPE_PARAMETER,
        SymbolKind::ResourceType => lsp::SymbolKind::INTERFACE,
        SymbolKind::Resource => lsp::SymbolKind::OBJECT,
        SymbolKind::Attribute => lsp::SymbolKind::PROPERTY,
        SymbolKind::Parameter => lsp::SymbolKind::TYPE_PARAMETER,
        SymbolKind::Variable => lsp::SymbolKind::VARIABLE,
        SymbolKind::Template => lsp::SymbolKind::FILE,
        SymbolKind::Fact => lsp::SymbolKind::CONSTANT,
    }
}

/// A workspace edit: text edits per document (ranges in each file's
/// current text, read through `index_of`), then file renames when the
/// client supports resource operations.
pub fn workspace_edit(
    change: &SourceChange,
    index_of: &dyn Fn(&Path) -> Option<LineIndex>,
    enc: ColumnEncoding,
    resource_ops: bool,
) -> lsp::WorkspaceEdit {
    let mut per_file: Vec<(Uri, Vec<lsp::TextEdit>)> = Vec::new();
    for (path, edits) in &change.edits {
        let (Some(index), Some(u)) = (index_of(path), uri(path)) else {
            continue;
        };
        let edits = edits
            .iter()
            .map(|e| lsp::TextEdit::new(range(&index, e.range, enc), e.new_text.clone()))
            .collect();
        per_file.push((u, edits));
    }
    if !resource_ops || change.file_moves.is_empty() {
        // lsp-types keys `changes` by `Uri`, which clippy sees as mutable.
        #[allow(clippy::mutable_key_type)]
        let changes: HashMap<Uri, Vec<lsp::TextEdit>> = per_file.into_iter().collect();
        return lsp::WorkspaceEdit {
            changes: Some(changes),
            ..Default::default()
        };
    }
    let mut ops: Vec<lsp::DocumentChangeOperation> = per_file
        .into_iter()
        .map(|(u, edits)| {
            lsp::DocumentChangeOperation::Edit(lsp::TextDocumentEdit {
                text_document: lsp::OptionalVersionedTextDocumentIdentifier {
                    uri: u,
                    version: None,
                },
                edits: edits.into_iter().map(lsp::OneOf::Left).collect(),
            })
        })
        .collect();
    for (from, to) in &change.file_moves {
        if let (Some(old_uri), Some(new_uri)) = (uri(from), uri(to)) {
            ops.push(lsp::DocumentChangeOperation::Op(lsp::ResourceOp::Rename(
                lsp::RenameFile {
                    old_uri,
                    new_uri,
                    options: None,
                    annotation_id: None,
                },
            )));
        }
    }
    lsp::WorkspaceEdit {
        document_changes: Some(lsp::DocumentChanges::Operations(ops)),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_in_utf16_and_utf8() {
        let text = "$a = 'é😀'\r\n$b = 1\n";
        let index = LineIndex::new(text);
        let b = TextSize::from(text.find("$b").unwrap() as u32);
        assert_eq!(
            position(&index, b, ColumnEncoding::Utf16),
            Position::new(1, 0)
        );
        let quote = TextSize::from(text.rfind('\'').unwrap() as u32);
        // 'é' is one UTF-16 unit, the emoji two.
        assert_eq!(
            position(&index, quote, ColumnEncoding::Utf16),
            Position::new(0, 9)
        );
        assert_eq!(
            position(&index, quote, ColumnEncoding::Utf8),
            Position::new(0, 12)
        );
        assert_eq!(
            offset(&index, Position::new(0, 9), ColumnEncoding::Utf16),
            quote
        );
        // Clamped past the line's end and past the last line.
        assert_eq!(
            offset(&index, Position::new(1, 99), ColumnEncoding::Utf16),
            TextSize::from(text.len() as u32 - 1)
        );
        let end = offset(&index, Position::new(99, 0), ColumnEncoding::Utf16);
        assert_eq!(end, TextSize::from(text.len() as u32));
    }

    #[test]
    fn uris_and_paths() {
        let u = uri(Path::new("/tmp/a b/x.pp")).unwrap();
        assert_eq!(u.as_str(), "file:///tmp/a%20b/x.pp");
        assert_eq!(path(&u).unwrap(), PathBuf::from("/tmp/a b/x.pp"));
        let other: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(path(&other), None);
    }
}
