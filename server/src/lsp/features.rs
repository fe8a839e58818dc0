//! The LSP handlers: lifecycle, document sync, and each feature as a thin
//! conversion around the analysis' IDE queries.

use super::state::{ClientSupport, Document};
use super::{convert, diagnostics, Backend, Snapshot};
use puppet_analysis::ide::{
    self, completion::CompletionKind, FilePosition, FoldKind, HighlightKind, SemanticTokenKind,
};
use puppet_syntax::line_index::{ColumnEncoding, ContentChange, LineCol, LineIndex};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{self as lsp, *};
use tower_lsp_server::LanguageServer;

/// Params of `puppet-ls/syntaxTree`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxTreeParams {
    pub text_document: TextDocumentIdentifier,
}

fn semantic_legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: SemanticTokenKind::LEGEND
            .iter()
            .map(|s| SemanticTokenType::new(s))
            .collect(),
        token_modifiers: ide::MODIFIER_LEGEND
            .iter()
            .map(|s| SemanticTokenModifier::new(s))
            .collect(),
    }
}

fn completion_kind(kind: CompletionKind) -> CompletionItemKind {
    match kind {
        CompletionKind::Variable => CompletionItemKind::VARIABLE,
        CompletionKind::Parameter => CompletionItemKind::VARIABLE,
        CompletionKind::Class => CompletionItemKind::CLASS,
        CompletionKind::DefinedType => CompletionItemKind::STRUCT,
        CompletionKind::ResourceType => CompletionItemKind::INTERFACE,
        CompletionKind::Attribute => CompletionItemKind::PROPERTY,
        CompletionKind::Metaparameter => CompletionItemKind::PROPERTY,
        CompletionKind::Value => CompletionItemKind::ENUM_MEMBER,
        CompletionKind::Function => CompletionItemKind::FUNCTION,
        CompletionKind::Type => CompletionItemKind::TYPE_PARAMETER,
        CompletionKind::TypeAlias => CompletionItemKind::TYPE_PARAMETER,
        CompletionKind::Keyword => CompletionItemKind::KEYWORD,
        CompletionKind::Fact => CompletionItemKind::CONSTANT,
        CompletionKind::Key => CompletionItemKind::FIELD,
        CompletionKind::Snippet => CompletionItemKind::SNIPPET,
    }
}

/// A request's document position as a file position, or `None` for a
/// document the server cannot place.
fn file_position(
    s: &Snapshot,
    doc: &TextDocumentPositionParams,
) -> Option<(FilePosition, Arc<LineIndex>)> {
    let path = convert::path(&doc.text_document.uri)?;
    let index = s.line_index(&path)?;
    let offset = convert::offset(&index, doc.position, s.encoding);
    Some((FilePosition { path, offset }, index))
}

fn location(s: &Snapshot, path: &Path, range: puppet_syntax::TextRange) -> Option<Location> {
    let index = s.line_index(path)?;
    Some(Location::new(
        convert::uri(path)?,
        convert::range(&index, range, s.encoding),
    ))
}

fn document_symbol(
    index: &LineIndex,
    enc: ColumnEncoding,
    sym: &ide::DocumentSymbol,
) -> DocumentSymbol {
    let range = convert::range(index, sym.full_range, enc);
    let mut selection = convert::range(index, sym.focus_range, enc);
    if selection.start < range.start || selection.end > range.end {
        selection = range;
    }
    #[allow(deprecated)]
    DocumentSymbol {
        name: if sym.name.is_empty() {
            "?".into()
        } else {
            sym.name.clone()
        },
        detail: sym.detail.clone(),
        kind: convert::symbol_kind(sym.kind),
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: Some(
            sym.children
                .iter()
                .map(|c| document_symbol(index, enc, c))
                .collect(),
        ),
    }
}

impl Backend {
    /// `puppet-ls/syntaxTree`: the document's concrete syntax tree.
    pub async fn syntax_tree(&self, params: SyntaxTreeParams) -> Result<String> {
        let path = convert::path(&params.text_document.uri)
            .ok_or_else(|| tower_lsp_server::jsonrpc::Error::invalid_params("not a file URI"))?;
        let text = {
            let state = self.lock();
            state
                .documents
                .get(&path)
                .map(|d| d.index.text().to_string())
                .or_else(|| state.host.text(&path).map(|t| t.to_string()))
        };
        let Some(text) = text else {
            return Err(tower_lsp_server::jsonrpc::Error::invalid_params(
                "unknown document",
            ));
        };
        let kind = puppet_syntax::SourceKind::from_path(&path);
        tokio::task::spawn_blocking(move || puppet_syntax::parse(&text, kind).debug_tree())
            .await
            .map_err(|_| tower_lsp_server::jsonrpc::Error::internal_error())
    }

    fn open_document(&self, path: PathBuf, version: i32, text: String) {
        let mut state = self.lock();
        let index = Arc::new(LineIndex::new(&text));
        state
            .documents
            .insert(path.clone(), Document { version, index });
        state.set_text(&path, text);
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let caps = &params.capabilities;
        let utf8 = caps
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
        let support = ClientSupport {
            pull_diagnostics: caps
                .text_document
                .as_ref()
                .is_some_and(|t| t.diagnostic.is_some()),
            resource_operations: caps
                .workspace
                .as_ref()
                .and_then(|w| w.workspace_edit.as_ref())
                .and_then(|e| e.resource_operations.as_ref())
                .is_some_and(|ops| ops.contains(&ResourceOperationKind::Rename)),
            work_done_progress: caps
                .window
                .as_ref()
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false),
            watch_files: caps
                .workspace
                .as_ref()
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|d| d.dynamic_registration)
                .unwrap_or(false),
        };
        let mut roots: Vec<PathBuf> = params
            .workspace_folders
            .iter()
            .flatten()
            .filter_map(|f| convert::path(&f.uri))
            .collect();
        #[allow(deprecated)]
        if roots.is_empty() {
            if let Some(root) = params.root_uri.as_ref().and_then(convert::path) {
                roots.push(root);
            }
        }
        {
            let mut state = self.lock();
            state.encoding = if utf8 {
                ColumnEncoding::Utf8
            } else {
                ColumnEncoding::Utf16
            };
            state.support = support;
            state.roots = roots;
            if let Some(options) = &params.initialization_options {
                state.config.update(options);
            }
        }
        let capabilities = ServerCapabilities {
            position_encoding: Some(if utf8 {
                PositionEncodingKind::UTF8
            } else {
                PositionEncodingKind::UTF16
            }),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    ..Default::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(
                    ["$", ":", "'", "\"", "[", ">", " "]
                        .iter()
                        .map(|s| s.to_string())
                        .collect(),
                ),
                ..Default::default()
            }),
            signature_help_provider: Some(SignatureHelpOptions {
                trigger_characters: Some(vec!["(".into(), ",".into()]),
                retrigger_characters: Some(vec![" ".into()]),
                ..Default::default()
            }),
            definition_provider: Some(OneOf::Left(true)),
            references_provider: Some(OneOf::Left(true)),
            document_highlight_provider: Some(OneOf::Left(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            workspace_symbol_provider: Some(OneOf::Left(true)),
            rename_provider: Some(OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: Default::default(),
            })),
            folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
            selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
            semantic_tokens_provider: Some(
                SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
                    legend: semantic_legend(),
                    range: Some(true),
                    full: Some(SemanticTokensFullOptions::Bool(true)),
                    ..Default::default()
                }),
            ),
            inlay_hint_provider: Some(OneOf::Left(true)),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                ..Default::default()
            })),
            diagnostic_provider: support.pull_diagnostics.then(|| {
                DiagnosticServerCapabilities::Options(DiagnosticOptions {
                    identifier: Some("puppet-ls".into()),
                    inter_file_dependencies: true,
                    workspace_diagnostics: true,
                    ..Default::default()
                })
            }),
            workspace: Some(WorkspaceServerCapabilities {
                workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                    supported: Some(true),
                    change_notifications: Some(OneOf::Left(true)),
                }),
                file_operations: None,
            }),
            ..Default::default()
        };
        Ok(InitializeResult {
            capabilities,
            server_info: Some(ServerInfo {
                name: "puppet-ls".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if self.lock().support.watch_files {
            let watchers: Vec<FileSystemWatcher> = [
                "**/*.pp",
                "**/*.epp",
                "**/*.rb",
                "**/metadata.json",
                "**/environment.conf",
            ]
            .iter()
            .map(|g| FileSystemWatcher {
                glob_pattern: GlobPattern::String(g.to_string()),
                kind: None,
            })
            .collect();
            let options = DidChangeWatchedFilesRegistrationOptions { watchers };
            let registration = Registration {
                id: "puppet-ls/watch".into(),
                method: "workspace/didChangeWatchedFiles".into(),
                register_options: serde_json::to_value(options).ok(),
            };
            if let Err(e) = self.client.register_capability(vec![registration]).await {
                tracing::warn!("file watching not registered: {e}");
            }
        }
        self.index_workspace().await;
    }

    async fn shutdown(&self) -> Result<()> {
        self.lock().shut_down = true;
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        let Some(path) = convert::path(&doc.uri) else {
            tracing::warn!(
                "ignoring a document that is not a file: {}",
                doc.uri.as_str()
            );
            return;
        };
        self.open_document(path.clone(), doc.version, doc.text);
        self.schedule_diagnostics(path, doc.version);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let Some(path) = convert::path(&params.text_document.uri) else {
            return;
        };
        let version = params.text_document.version;
        {
            let mut state = self.lock();
            let encoding = state.encoding;
            let Some(doc) = state.documents.get(&path) else {
                tracing::warn!("change to a document that is not open: {}", path.display());
                return;
            };
            let changes: Vec<ContentChange> = params
                .content_changes
                .into_iter()
                .map(|c| ContentChange {
                    range: c.range.map(|r| {
                        (
                            LineCol {
                                line: r.start.line,
                                col: r.start.character,
                            },
                            LineCol {
                                line: r.end.line,
                                col: r.end.character,
                            },
                        )
                    }),
                    text: c.text,
                })
                .collect();
            let text =
                puppet_syntax::line_index::apply_changes(doc.index.text(), &changes, encoding);
            let index = Arc::new(LineIndex::new(&text));
            state
                .documents
                .insert(path.clone(), Document { version, index });
            state.set_text(&path, text);
        }
        self.schedule_diagnostics(path, version);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let Some(path) = convert::path(&params.text_document.uri) else {
            return;
        };
        let on_disk = std::fs::read(&path)
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned());
        {
            let mut state = self.lock();
            state.documents.remove(&path);
            match on_disk {
                Some(text) => state.set_text(&path, text),
                None => state.host.remove_file(&path),
            }
        }
        if !self.lock().support.pull_diagnostics {
            self.publish(&path, None).await;
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let rediscover = {
            let mut state = self.lock();
            let before = state.config.module_paths.clone();
            state.config.update(&params.settings);
            before != state.config.module_paths
        };
        if rediscover {
            self.index_workspace().await;
        } else {
            self.publish_all().await;
        }
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        self.files_changed(params.changes).await;
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        {
            let mut state = self.lock();
            for removed in &params.event.removed {
                if let Some(p) = convert::path(&removed.uri) {
                    state.roots.retain(|r| *r != p);
                }
            }
            for added in &params.event.added {
                if let Some(p) = convert::path(&added.uri) {
                    state.roots.push(p);
                }
            }
        }
        self.index_workspace().await;
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let Some(path) = convert::path(&params.text_document.uri) else {
            return Ok(DocumentDiagnosticReportResult::Report(
                DocumentDiagnosticReport::Full(Default::default()),
            ));
        };
        let items = self
            .with_snapshot(move |s| {
                let d = s.analysis.diagnostics(&path)?;
                Ok(diagnostics::to_lsp(s, &path, &d))
            })
            .await?;
        Ok(DocumentDiagnosticReportResult::Report(
            DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
                related_documents: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                    result_id: None,
                    items,
                },
            }),
        ))
    }

    async fn workspace_diagnostic(
        &self,
        _: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        let items = self
            .with_snapshot(|s| {
                let mut out = Vec::new();
                let paths: Vec<PathBuf> = s.analysis.paths().map(Path::to_path_buf).collect();
                for path in paths {
                    if s.open.contains_key(&path) {
                        continue;
                    }
                    let d = s.analysis.diagnostics(&path)?;
                    let items = diagnostics::to_lsp(s, &path, &d);
                    if let (false, Some(uri)) = (items.is_empty(), convert::uri(&path)) {
                        out.push(WorkspaceDocumentDiagnosticReport::Full(
                            WorkspaceFullDocumentDiagnosticReport {
                                uri,
                                version: None,
                                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                                    result_id: None,
                                    items,
                                },
                            },
                        ));
                    }
                }
                Ok(out)
            })
            .await?;
        Ok(WorkspaceDiagnosticReportResult::Report(
            WorkspaceDiagnosticReport { items },
        ))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        self.with_snapshot(move |s| {
            let Some((pos, index)) = file_position(s, &params.text_document_position_params) else {
                return Ok(None);
            };
            Ok(s.analysis.hover(&pos)?.map(|h| Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: h.markdown,
                }),
                range: Some(convert::range(&index, h.range, s.encoding)),
            }))
        })
        .await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        self.with_snapshot(move |s| {
            let Some((pos, index)) = file_position(s, &params.text_document_position) else {
                return Ok(None);
            };
            let items = s.analysis.completions(&pos)?;
            let items = items
                .into_iter()
                .map(|c| {
                    let range = convert::range(&index, c.replace_range, s.encoding);
                    let text = c.insert_text.clone().unwrap_or_else(|| c.label.clone());
                    CompletionItem {
                        label: c.label,
                        kind: Some(completion_kind(c.kind)),
                        detail: c.detail,
                        documentation: c.documentation.map(Documentation::String),
                        sort_text: c.sort_text,
                        filter_text: c.filter_text,
                        insert_text_format: Some(if c.is_snippet {
                            InsertTextFormat::SNIPPET
                        } else {
                            InsertTextFormat::PLAIN_TEXT
                        }),
                        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(range, text))),
                        ..Default::default()
                    }
                })
                .collect();
            Ok(Some(CompletionResponse::Array(items)))
        })
        .await
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        self.with_snapshot(move |s| {
            let Some((pos, _)) = file_position(s, &params.text_document_position_params) else {
                return Ok(None);
            };
            let Some(help) = s.analysis.signature_help(&pos)? else {
                return Ok(None);
            };
            let signatures = help
                .signatures
                .into_iter()
                .map(|sig| {
                    let utf16 = |byte: usize| {
                        sig.label
                            .get(..byte)
                            .map_or(0, |p| p.encode_utf16().count()) as u32
                    };
                    SignatureInformation {
                        parameters: Some(
                            sig.parameters
                                .iter()
                                .map(|p| {
                                    let (a, b) = p.label_range_in_signature_label;
                                    ParameterInformation {
                                        label: ParameterLabel::LabelOffsets([utf16(a), utf16(b)]),
                                        documentation: p
                                            .documentation
                                            .clone()
                                            .map(Documentation::String),
                                    }
                                })
                                .collect(),
                        ),
                        documentation: sig.documentation.clone().map(Documentation::String),
                        active_parameter: None,
                        label: sig.label,
                    }
                })
                .collect();
            Ok(Some(SignatureHelp {
                signatures,
                active_signature: Some(help.active_signature as u32),
                active_parameter: help.active_parameter.map(|p| p as u32),
            }))
        })
        .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        self.with_snapshot(move |s| {
            let Some((pos, index)) = file_position(s, &params.text_document_position_params) else {
                return Ok(None);
            };
            let targets = s.analysis.goto_definition(&pos)?;
            let origin = s
                .analysis
                .hover(&pos)?
                .map(|h| convert::range(&index, h.range, s.encoding));
            let links: Vec<LocationLink> = targets
                .iter()
                .filter_map(|t| {
                    let target_index = s.line_index(&t.path)?;
                    Some(LocationLink {
                        origin_selection_range: origin,
                        target_uri: convert::uri(&t.path)?,
                        target_range: convert::range(&target_index, t.full_range, s.encoding),
                        target_selection_range: convert::range(
                            &target_index,
                            t.focus_range,
                            s.encoding,
                        ),
                    })
                })
                .collect();
            Ok((!links.is_empty()).then_some(GotoDefinitionResponse::Link(links)))
        })
        .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        self.with_snapshot(move |s| {
            let Some((pos, _)) = file_position(s, &params.text_document_position) else {
                return Ok(None);
            };
            let refs = s
                .analysis
                .find_references(&pos, params.context.include_declaration)?;
            Ok(Some(
                refs.iter()
                    .filter_map(|r| location(s, &r.path, r.range))
                    .collect(),
            ))
        })
        .await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        self.with_snapshot(move |s| {
            let Some((pos, index)) = file_position(s, &params.text_document_position_params) else {
                return Ok(None);
            };
            let highlights = s.analysis.highlight(&pos)?;
            Ok(Some(
                highlights
                    .into_iter()
                    .map(|(range, kind)| DocumentHighlight {
                        range: convert::range(&index, range, s.encoding),
                        kind: Some(match kind {
                            HighlightKind::Read => DocumentHighlightKind::READ,
                            HighlightKind::Write => DocumentHighlightKind::WRITE,
                            HighlightKind::Text => DocumentHighlightKind::TEXT,
                        }),
                    })
                    .collect(),
            ))
        })
        .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let result = self
            .with_snapshot(move |s| {
                let Some((pos, index)) = file_position(s, &params) else {
                    return Ok(Err("no document".to_string()));
                };
                Ok(s.analysis
                    .prepare_rename(&pos)?
                    .map(|r| convert::range(&index, r, s.encoding)))
            })
            .await?;
        match result {
            Ok(range) => Ok(Some(PrepareRenameResponse::Range(range))),
            Err(message) => Err(tower_lsp_server::jsonrpc::Error::invalid_params(message)),
        }
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let result = self
            .with_snapshot(move |s| {
                let Some((pos, _)) = file_position(s, &params.text_document_position) else {
                    return Ok(Err("no document".to_string()));
                };
                Ok(s.analysis.rename(&pos, &params.new_name)?.map(|change| {
                    convert::workspace_edit(
                        &change,
                        &|p| s.line_index(p).map(|i| (*i).clone()),
                        s.encoding,
                        s.resource_operations,
                    )
                }))
            })
            .await?;
        match result {
            Ok(edit) => Ok(Some(edit)),
            Err(message) => Err(tower_lsp_server::jsonrpc::Error::invalid_params(message)),
        }
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        self.with_snapshot(move |s| {
            let Some(path) = convert::path(&params.text_document.uri) else {
                return Ok(None);
            };
            let Some(index) = s.line_index(&path) else {
                return Ok(None);
            };
            let symbols = s.analysis.document_symbols(&path)?;
            Ok(Some(DocumentSymbolResponse::Nested(
                symbols
                    .iter()
                    .map(|sym| document_symbol(&index, s.encoding, sym))
                    .collect(),
            )))
        })
        .await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<OneOf<Vec<SymbolInformation>, Vec<WorkspaceSymbol>>>> {
        self.with_snapshot(move |s| {
            let targets = s.analysis.workspace_symbols(&params.query, 256)?;
            #[allow(deprecated)]
            let symbols = targets
                .iter()
                .filter_map(|t| {
                    Some(SymbolInformation {
                        name: t.name.clone(),
                        kind: convert::symbol_kind(t.kind),
                        tags: None,
                        deprecated: None,
                        location: location(s, &t.path, t.focus_range)?,
                        container_name: None,
                    })
                })
                .collect();
            Ok(Some(OneOf::Left(symbols)))
        })
        .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        self.with_snapshot(move |s| {
            let Some(path) = convert::path(&params.text_document.uri) else {
                return Ok(None);
            };
            let Some(index) = s.line_index(&path) else {
                return Ok(None);
            };
            let folds = s.analysis.folding_ranges(&path)?;
            Ok(Some(
                folds
                    .iter()
                    .filter_map(|f| {
                        let r = convert::range(&index, f.range, s.encoding);
                        (r.end.line > r.start.line).then(|| FoldingRange {
                            start_line: r.start.line,
                            end_line: if f.kind == FoldKind::Comment {
                                r.end.line
                            } else {
                                r.end.line - 1
                            },
                            kind: Some(match f.kind {
                                FoldKind::Comment => FoldingRangeKind::Comment,
                                FoldKind::Region => FoldingRangeKind::Region,
                            }),
                            ..Default::default()
                        })
                    })
                    .collect(),
            ))
        })
        .await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        self.with_snapshot(move |s| {
            let Some(path) = convert::path(&params.text_document.uri) else {
                return Ok(None);
            };
            let Some(index) = s.line_index(&path) else {
                return Ok(None);
            };
            let offsets: Vec<_> = params
                .positions
                .iter()
                .map(|p| convert::offset(&index, *p, s.encoding))
                .collect();
            let ranges = s.analysis.selection_ranges(&path, &offsets)?;
            Ok(Some(
                ranges
                    .iter()
                    .map(|chain| {
                        let mut parent: Option<SelectionRange> = None;
                        for r in chain.iter().rev() {
                            parent = Some(SelectionRange {
                                range: convert::range(&index, *r, s.encoding),
                                parent: parent.map(Box::new),
                            });
                        }
                        parent.unwrap_or(SelectionRange {
                            range: Range::default(),
                            parent: None,
                        })
                    })
                    .collect(),
            ))
        })
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri;
        self.semantic_tokens(uri, None).await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let result = self
            .semantic_tokens(params.text_document.uri, Some(params.range))
            .await?;
        Ok(result.map(|r| match r {
            SemanticTokensResult::Tokens(t) => SemanticTokensRangeResult::Tokens(t),
            SemanticTokensResult::Partial(p) => SemanticTokensRangeResult::Partial(p),
        }))
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.with_snapshot(move |s| {
            let Some(path) = convert::path(&params.text_document.uri) else {
                return Ok(None);
            };
            let Some(index) = s.line_index(&path) else {
                return Ok(None);
            };
            let range = convert::text_range(&index, params.range, s.encoding);
            let hints = s.analysis.inlay_hints(&path, range)?;
            Ok(Some(
                hints
                    .into_iter()
                    .map(|h| InlayHint {
                        position: convert::position(&index, h.offset, s.encoding),
                        label: InlayHintLabel::String(h.label),
                        kind: Some(match h.kind {
                            ide::inlay_hints::InlayKind::Type => InlayHintKind::TYPE,
                            ide::inlay_hints::InlayKind::Parameter => InlayHintKind::PARAMETER,
                        }),
                        text_edits: None,
                        tooltip: None,
                        padding_left: Some(h.kind == ide::inlay_hints::InlayKind::Type),
                        padding_right: Some(h.kind == ide::inlay_hints::InlayKind::Parameter),
                        data: None,
                    })
                    .collect(),
            ))
        })
        .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        self.with_snapshot(move |s| {
            let Some(path) = convert::path(&params.text_document.uri) else {
                return Ok(None);
            };
            let Some(index) = s.line_index(&path) else {
                return Ok(None);
            };
            let range = convert::text_range(&index, params.range, s.encoding);
            let fixes = s.analysis.quick_fixes(&path, range)?;
            let actions = fixes
                .into_iter()
                .map(|fix| {
                    let edit = convert::workspace_edit(
                        &fix.change,
                        &|p| s.line_index(p).map(|i| (*i).clone()),
                        s.encoding,
                        s.resource_operations,
                    );
                    let diagnostics: Vec<lsp::Diagnostic> = params
                        .context
                        .diagnostics
                        .iter()
                        .filter(|d| {
                            matches!(&d.code, Some(NumberOrString::String(c)) if *c == fix.code)
                        })
                        .cloned()
                        .collect();
                    CodeActionOrCommand::CodeAction(CodeAction {
                        title: fix.title,
                        kind: Some(CodeActionKind::QUICKFIX),
                        diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
                        edit: Some(edit),
                        is_preferred: Some(fix.preferred),
                        ..Default::default()
                    })
                })
                .collect();
            Ok(Some(actions))
        })
        .await
    }
}

impl Backend {
    async fn semantic_tokens(
        &self,
        uri: Uri,
        range: Option<Range>,
    ) -> Result<Option<SemanticTokensResult>> {
        self.with_snapshot(move |s| {
            let Some(path) = convert::path(&uri) else {
                return Ok(None);
            };
            let Some(index) = s.line_index(&path) else {
                return Ok(None);
            };
            let range = range.map(|r| convert::text_range(&index, r, s.encoding));
            let tokens = s.analysis.semantic_tokens(&path, range)?;
            let mut data = Vec::with_capacity(tokens.len());
            let (mut line, mut col) = (0u32, 0u32);
            for t in tokens {
                let r = convert::range(&index, t.range, s.encoding);
                if r.end.line != r.start.line || r.end.character <= r.start.character {
                    continue;
                }
                let delta_line = r.start.line - line;
                let delta_start = if delta_line == 0 {
                    r.start.character - col
                } else {
                    r.start.character
                };
                data.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: r.end.character - r.start.character,
                    token_type: t.kind as u32,
                    token_modifiers_bitset: t.modifiers,
                });
                line = r.start.line;
                col = r.start.character;
            }
            Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
                result_id: None,
                data,
            })))
        })
        .await
    }
}
