//! The one place where analysis plain data (byte offsets and ranges, paths,
//! `ide` types) and LSP types meet. Positions are converted with the
//! document's `LineIndex` in the encoding negotiated at `initialize`;
//! out-of-range positions clamp (the line index never fails).

use puppet_analysis::diagnostics::Diagnostic;
use puppet_ide::{self as ide, FileRange, NavigationTarget, SourceChange};
use puppet_lint_checks::{LintDiagnostic, LintSeverity};
use puppet_syntax::line_index::{ColumnEncoding, ContentChange, LineCol, LineIndex};
use puppet_syntax::{Severity, TextRange, TextSize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower_lsp_server::lsp_types as lsp;
use tower_lsp_server::UriExt;

/// Line indexes and versions of the files a result refers to, for results
/// spanning several files (locations, workspace edits).
pub trait FileLines {
    fn encoding(&self) -> ColumnEncoding;
    /// The line index of a file's current text, if the file is known.
    fn line_index(&self, path: &Path) -> Option<Arc<LineIndex>>;
    /// The version of an open document (`None` when not open).
    fn version(&self, path: &Path) -> Option<i32>;
}

/// The encoding to use: UTF-8 when the client offers it, else LSP's
/// mandatory UTF-16.
pub fn negotiate_encoding(caps: &lsp::ClientCapabilities) -> ColumnEncoding {
    let offered = caps
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    match offered {
        Some(kinds) if kinds.contains(&lsp::PositionEncodingKind::UTF8) => ColumnEncoding::Utf8,
        _ => ColumnEncoding::Utf16,
    }
}

/// The LSP name of an encoding, for the server capabilities.
pub fn encoding_kind(encoding: ColumnEncoding) -> lsp::PositionEncodingKind {
    match encoding {
        ColumnEncoding::Utf8 => lsp::PositionEncodingKind::UTF8,
        ColumnEncoding::Utf16 => lsp::PositionEncodingKind::UTF16,
        ColumnEncoding::Utf32 => lsp::PositionEncodingKind::UTF32,
    }
}

pub fn position(index: &LineIndex, offset: TextSize, encoding: ColumnEncoding) -> lsp::Position {
    let lc = index.line_col(offset, encoding);
    lsp::Position::new(lc.line, lc.col)
}

pub fn range(index: &LineIndex, range: TextRange, encoding: ColumnEncoding) -> lsp::Range {
    lsp::Range::new(
        position(index, range.start(), encoding),
        position(index, range.end(), encoding),
    )
}

fn line_col(pos: lsp::Position) -> LineCol {
    LineCol {
        line: pos.line,
        col: pos.character,
    }
}

/// The byte offset of a position (clamped to the text).
pub fn offset(index: &LineIndex, pos: lsp::Position, encoding: ColumnEncoding) -> TextSize {
    index.offset(line_col(pos), encoding)
}

/// The byte range of an LSP range (clamped; a reversed range is ordered).
pub fn text_range(index: &LineIndex, range: lsp::Range, encoding: ColumnEncoding) -> TextRange {
    let a = offset(index, range.start, encoding);
    let b = offset(index, range.end, encoding);
    TextRange::new(a.min(b), a.max(b))
}

/// An editor's content change, for `puppet_syntax::line_index::apply_changes`.
pub fn content_change(change: lsp::TextDocumentContentChangeEvent) -> ContentChange {
    ContentChange {
        range: change.range.map(|r| (line_col(r.start), line_col(r.end))),
        text: change.text,
    }
}

/// The local path of a `file:` URI; `None` for other schemes.
pub fn uri_to_path(uri: &lsp::Uri) -> Option<PathBuf> {
    if !uri
        .scheme()
        .is_some_and(|s| s.as_str().eq_ignore_ascii_case("file"))
    {
        return None;
    }
    let path = uri.to_file_path()?.into_owned();
    path.is_absolute().then_some(path)
}

/// The `file:` URI of an absolute path.
pub fn path_to_uri(path: &Path) -> Option<lsp::Uri> {
    if !path.is_absolute() {
        return None;
    }
    lsp::Uri::from_file_path(path)
}

/// Parses a URI string (for URIs built by hand, as in tests).
#[cfg(test)]
pub fn parse_uri(text: &str) -> Option<lsp::Uri> {
    <lsp::Uri as std::str::FromStr>::from_str(text).ok()
}

pub fn severity(severity: Severity) -> lsp::DiagnosticSeverity {
    match severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
    }
}

/// An analysis diagnostic as LSP's: its stable code, `source` "puppet-ls".
pub fn diagnostic(d: &Diagnostic, index: &LineIndex, encoding: ColumnEncoding) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: range(index, d.range, encoding),
        severity: Some(severity(d.severity)),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        source: Some("puppet-ls".to_string()),
        message: d.message.to_string(),
        ..lsp::Diagnostic::default()
    }
}

/// One of puppet-lint's findings, under its check's name, at `at` (its
/// range in the current text).
pub fn lint_diagnostic(
    d: &LintDiagnostic,
    at: TextRange,
    index: &LineIndex,
    encoding: ColumnEncoding,
) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: range(index, at, encoding),
        severity: Some(match d.severity {
            LintSeverity::Error => lsp::DiagnosticSeverity::ERROR,
            LintSeverity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.check.to_string())),
        source: Some("puppet-lint".to_string()),
        message: d.message.clone(),
        ..lsp::Diagnostic::default()
    }
}

pub fn symbol_kind(kind: ide::SymbolKind) -> lsp::SymbolKind {
    use ide::SymbolKind as K;
    match kind {
        K::Class => lsp::SymbolKind::CLASS,
        K::DefinedType => lsp::SymbolKind::STRUCT,
        K::Node => lsp::SymbolKind::NAMESPACE,
        K::Function => lsp::SymbolKind::FUNCTION,
        K::Plan => lsp::SymbolKind::METHOD,
        K::TypeAlias => lsp::SymbolKind::TYPE_PARAMETER,
        K::ResourceType => lsp::SymbolKind::INTERFACE,
        K::Resource => lsp::SymbolKind::OBJECT,
        K::Attribute => lsp::SymbolKind::PROPERTY,
        K::Parameter => lsp::SymbolKind::FIELD,
        K::Variable => lsp::SymbolKind::VARIABLE,
        K::Template => lsp::SymbolKind::FILE,
        K::Fact => lsp::SymbolKind::CONSTANT,
        K::File => lsp::SymbolKind::FILE,
        K::Module => lsp::SymbolKind::MODULE,
    }
}

pub fn location(lines: &dyn FileLines, target: &FileRange) -> Option<lsp::Location> {
    let index = lines.line_index(&target.path)?;
    Some(lsp::Location::new(
        path_to_uri(&target.path)?,
        range(&index, target.range, lines.encoding()),
    ))
}

/// A navigation target as a link: the whole definition, with the cursor on
/// its name. `origin` is the range of the reference in the source document.
pub fn location_link(
    lines: &dyn FileLines,
    origin: Option<lsp::Range>,
    target: &NavigationTarget,
) -> Option<lsp::LocationLink> {
    let index = lines.line_index(&target.path)?;
    Some(lsp::LocationLink {
        origin_selection_range: origin,
        target_uri: path_to_uri(&target.path)?,
        target_range: range(&index, target.full_range, lines.encoding()),
        target_selection_range: range(&index, target.focus_range, lines.encoding()),
    })
}

pub fn text_edit(
    index: &LineIndex,
    edit: &ide::TextEdit,
    encoding: ColumnEncoding,
) -> lsp::TextEdit {
    lsp::TextEdit::new(range(index, edit.range, encoding), edit.new_text.clone())
}

/// Edits of one document (byte ranges of its current text).
pub fn text_edits(
    index: &LineIndex,
    edits: &[puppet_syntax::TextEdit],
    encoding: ColumnEncoding,
) -> Vec<lsp::TextEdit> {
    edits
        .iter()
        .map(|edit| lsp::TextEdit::new(range(index, edit.delete, encoding), edit.insert.clone()))
        .collect()
}

/// What the client's workspace edits may contain.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EditSupport {
    /// `documentChanges` (versioned text edits, in order).
    pub document_changes: bool,
    /// `RenameFile` operations inside `documentChanges`.
    pub rename_files: bool,
}

impl EditSupport {
    pub fn from_caps(caps: &lsp::ClientCapabilities) -> EditSupport {
        let edit = caps
            .workspace
            .as_ref()
            .and_then(|w| w.workspace_edit.as_ref());
        let document_changes = edit.and_then(|e| e.document_changes) == Some(true);
        let rename_files = document_changes
            && edit
                .and_then(|e| e.resource_operations.as_ref())
                .is_some_and(|ops| ops.contains(&lsp::ResourceOperationKind::Rename));
        EditSupport {
            document_changes,
            rename_files,
        }
    }
}

/// A workspace change as a `WorkspaceEdit`: versioned `documentChanges`
/// with file renames after the text edits when the client supports them,
/// else a plain `changes` map (file moves are then left out). `None` when a
/// file it touches is unknown.
pub fn workspace_edit(
    lines: &dyn FileLines,
    change: &SourceChange,
    support: EditSupport,
) -> Option<lsp::WorkspaceEdit> {
    let encoding = lines.encoding();
    let mut files = Vec::new();
    for (path, edits) in &change.edits {
        let index = lines.line_index(path)?;
        let edits: Vec<lsp::TextEdit> = edits
            .iter()
            .map(|e| text_edit(&index, e, encoding))
            .collect();
        files.push((path, path_to_uri(path)?, edits));
    }
    if !support.document_changes {
        if !change.file_moves.is_empty() {
            tracing::warn!("the client cannot rename files; file moves left out");
        }
        // lsp-types' own map type (the URI's cache is not part of its key).
        #[allow(clippy::mutable_key_type)]
        let changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = files
            .into_iter()
            .map(|(_, uri, edits)| (uri, edits))
            .collect();
        return Some(lsp::WorkspaceEdit::new(changes));
    }
    let mut operations: Vec<lsp::DocumentChangeOperation> = files
        .into_iter()
        .map(|(path, uri, edits)| {
            lsp::DocumentChangeOperation::Edit(lsp::TextDocumentEdit {
                text_document: lsp::OptionalVersionedTextDocumentIdentifier {
                    uri,
                    version: lines.version(path),
                },
                edits: edits.into_iter().map(lsp::OneOf::Left).collect(),
            })
        })
        .collect();
    if support.rename_files {
        for (from, to) in &change.file_moves {
            operations.push(lsp::DocumentChangeOperation::Op(lsp::ResourceOp::Rename(
                lsp::RenameFile {
                    old_uri: path_to_uri(from)?,
                    new_uri: path_to_uri(to)?,
                    options: None,
                    annotation_id: None,
                },
            )));
        }
    } else if !change.file_moves.is_empty() {
        tracing::warn!("the client cannot rename files; file moves left out");
    }
    Some(lsp::WorkspaceEdit {
        document_changes: Some(lsp::DocumentChanges::Operations(operations)),
        ..lsp::WorkspaceEdit::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    struct Files {
        encoding: ColumnEncoding,
        texts: BTreeMap<PathBuf, (Arc<LineIndex>, Option<i32>)>,
    }

    impl Files {
        fn new(encoding: ColumnEncoding, files: &[(&str, &str, Option<i32>)]) -> Files {
            Files {
                encoding,
                texts: files
                    .iter()
                    .map(|(p, t, v)| (PathBuf::from(p), (Arc::new(LineIndex::new(t)), *v)))
                    .collect(),
            }
        }
    }

    impl FileLines for Files {
        fn encoding(&self) -> ColumnEncoding {
            self.encoding
        }
        fn line_index(&self, path: &Path) -> Option<Arc<LineIndex>> {
            self.texts.get(path).map(|(i, _)| i.clone())
        }
        fn version(&self, path: &Path) -> Option<i32> {
            self.texts.get(path).and_then(|(_, v)| *v)
        }
    }

    fn pos(line: u32, character: u32) -> lsp::Position {
        lsp::Position::new(line, character)
    }

    #[test]
    fn utf16_positions_count_surrogate_pairs() {
        // `é` is 2 bytes / 1 UTF-16 unit; the emoji 4 bytes / 2 units.
        let index = LineIndex::new("$é = '\u{1f600}'\n$x = 1\n");
        let x = TextSize::from(u32::try_from("$é = '\u{1f600}'\n".len()).unwrap());
        assert_eq!(position(&index, x, ColumnEncoding::Utf16), pos(1, 0));
        let quote = TextSize::from(u32::try_from("$é = '\u{1f600}".len()).unwrap());
        assert_eq!(position(&index, quote, ColumnEncoding::Utf16), pos(0, 8));
        assert_eq!(position(&index, quote, ColumnEncoding::Utf8), pos(0, 11));
        assert_eq!(offset(&index, pos(0, 8), ColumnEncoding::Utf16), quote);
        assert_eq!(offset(&index, pos(0, 11), ColumnEncoding::Utf8), quote);
        // Inside the surrogate pair: the start of the emoji.
        assert_eq!(
            offset(&index, pos(0, 7), ColumnEncoding::Utf16),
            TextSize::from(7)
        );
    }

    #[test]
    fn crlf_lines_and_clamping() {
        let index = LineIndex::new("a\r\nbc\r\n");
        assert_eq!(
            position(&index, TextSize::from(3), ColumnEncoding::Utf16),
            pos(1, 0)
        );
        // The `\r` belongs to the end of its line.
        assert_eq!(
            position(&index, TextSize::from(1), ColumnEncoding::Utf16),
            pos(0, 1)
        );
        assert_eq!(
            offset(&index, pos(0, 50), ColumnEncoding::Utf16),
            TextSize::from(1)
        );
        assert_eq!(
            offset(&index, pos(99, 3), ColumnEncoding::Utf16),
            TextSize::from(7)
        );
        let reversed = lsp::Range::new(pos(1, 2), pos(0, 0));
        assert_eq!(
            text_range(&index, reversed, ColumnEncoding::Utf16),
            TextRange::new(0.into(), 5.into())
        );
        assert_eq!(
            position(&index, TextSize::from(999), ColumnEncoding::Utf16),
            pos(2, 0)
        );
    }

    #[test]
    fn negotiates_utf8_only_when_offered() {
        let mut caps = lsp::ClientCapabilities::default();
        assert_eq!(negotiate_encoding(&caps), ColumnEncoding::Utf16);
        caps.general = Some(lsp::GeneralClientCapabilities {
            position_encodings: Some(vec![
                lsp::PositionEncodingKind::UTF16,
                lsp::PositionEncodingKind::UTF8,
            ]),
            ..Default::default()
        });
        assert_eq!(negotiate_encoding(&caps), ColumnEncoding::Utf8);
    }

    #[test]
    fn paths_and_uris_round_trip() {
        let path = Path::new("/srv/puppet/modules/ntp/manifests/my file é.pp");
        let uri = path_to_uri(path).unwrap();
        assert!(uri.as_str().starts_with("file:///srv/puppet/"));
        assert!(uri.as_str().contains("my%20file"));
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
        assert_eq!(
            uri_to_path(&parse_uri("untitled:Untitled-1").unwrap()),
            None
        );
        assert_eq!(path_to_uri(Path::new("relative.pp")), None);
    }

    #[test]
    fn workspace_edit_with_and_without_document_changes() {
        let lines = Files::new(
            ColumnEncoding::Utf16,
            &[
                ("/m/a.pp", "class é::old {}\n", Some(7)),
                ("/m/b.pp", "include é::old\n", None),
            ],
        );
        let edit = |start: u32, end: u32| ide::TextEdit {
            range: TextRange::new(start.into(), end.into()),
            new_text: "é::new".to_string(),
        };
        let mut change = SourceChange::default();
        change
            .edits
            .insert(PathBuf::from("/m/a.pp"), vec![edit(6, 13)]);
        change
            .edits
            .insert(PathBuf::from("/m/b.pp"), vec![edit(8, 15)]);
        change
            .file_moves
            .push((PathBuf::from("/m/a.pp"), PathBuf::from("/m/new.pp")));

        let full = EditSupport {
            document_changes: true,
            rename_files: true,
        };
        let json = serde_json::to_value(workspace_edit(&lines, &change, full).unwrap()).unwrap();
        let ops = json["documentChanges"].as_array().unwrap();
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[0]["textDocument"]["version"], 7);
        assert_eq!(ops[1]["textDocument"]["version"], serde_json::Value::Null);
        // UTF-16 columns: `é` counts one unit.
        assert_eq!(ops[0]["edits"][0]["range"]["end"]["character"], 12);
        assert_eq!(ops[2]["kind"], "rename");
        assert_eq!(ops[2]["newUri"], "file:///m/new.pp");

        let plain = workspace_edit(&lines, &change, EditSupport::default()).unwrap();
        assert!(plain.document_changes.is_none());
        assert_eq!(plain.changes.unwrap().len(), 2);

        change
            .edits
            .insert(PathBuf::from("/unknown.pp"), vec![edit(0, 0)]);
        assert!(workspace_edit(&lines, &change, full).is_none());
    }

    #[test]
    fn navigation_targets_and_diagnostics() {
        let lines = Files::new(ColumnEncoding::Utf8, &[("/m/a.pp", "class a {\n}\n", None)]);
        let target = NavigationTarget {
            path: PathBuf::from("/m/a.pp"),
            full_range: TextRange::new(0.into(), 11.into()),
            focus_range: TextRange::new(6.into(), 7.into()),
            name: "a".to_string(),
            kind: ide::SymbolKind::Class,
        };
        let link = location_link(&lines, None, &target).unwrap();
        assert_eq!(link.target_range.end, pos(1, 1));
        assert_eq!(
            link.target_selection_range,
            lsp::Range::new(pos(0, 6), pos(0, 7))
        );
        let loc = location(
            &lines,
            &FileRange {
                path: PathBuf::from("/m/a.pp"),
                range: target.focus_range,
            },
        )
        .unwrap();
        assert_eq!(loc.uri.as_str(), "file:///m/a.pp");
        assert_eq!(symbol_kind(ide::SymbolKind::Class), lsp::SymbolKind::CLASS);

        let index = LineIndex::new("x\n");
        let d = diagnostic(
            &Diagnostic {
                range: TextRange::new(0.into(), 1.into()),
                severity: Severity::Warning,
                code: puppet_syntax::Code::UnknownClass,
                message: "m".into(),
                related: None,
            },
            &index,
            ColumnEncoding::Utf16,
        );
        assert_eq!(
            d.code,
            Some(lsp::NumberOrString::String("unknown-class".into()))
        );
        assert_eq!(d.severity, Some(lsp::DiagnosticSeverity::WARNING));
        assert_eq!(d.source.as_deref(), Some("puppet-ls"));
    }
}
