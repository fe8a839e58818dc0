//! The IDE requests: each a thin conversion around one of the analysis'
//! queries (`puppet_ide`), run on a snapshot off the runtime.
//! Those that read only their own document (symbols, folding, selection,
//! formatting) answer at once; the others resolve names across files and
//! wait for the initial workspace load (`on_workspace_snapshot`).

use super::backend::Backend;
use super::convert::{self, FileLines};
use super::snapshot::Snapshot;
use puppet_ide::inlay_hints::InlayKind;
use puppet_ide::SemanticTokenKind;
use puppet_ide::{self as ide, completion::CompletionKind, FileRange, FoldKind, HighlightKind};
use tower_lsp_server::jsonrpc::{self, Result};
use tower_lsp_server::lsp_types::*;

/// What the server offers, for `initialize`.
pub fn capabilities(caps: &mut ServerCapabilities) {
    caps.hover_provider = Some(HoverProviderCapability::Simple(true));
    caps.completion_provider = Some(CompletionOptions {
        trigger_characters: Some(
            ["$", ":", "'", "\"", "[", ">"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        ),
        ..Default::default()
    });
    caps.signature_help_provider = Some(SignatureHelpOptions {
        trigger_characters: Some(vec!["(".into(), ",".into()]),
        retrigger_characters: Some(vec![" ".into()]),
        ..Default::default()
    });
    caps.definition_provider = Some(OneOf::Left(true));
    caps.type_definition_provider = Some(TypeDefinitionProviderCapability::Simple(true));
    caps.references_provider = Some(OneOf::Left(true));
    caps.document_highlight_provider = Some(OneOf::Left(true));
    caps.document_symbol_provider = Some(OneOf::Left(true));
    caps.workspace_symbol_provider = Some(OneOf::Left(true));
    caps.rename_provider = Some(OneOf::Right(RenameOptions {
        prepare_provider: Some(true),
        work_done_progress_options: Default::default(),
    }));
    caps.folding_range_provider = Some(FoldingRangeProviderCapability::Simple(true));
    caps.call_hierarchy_provider = Some(CallHierarchyServerCapability::Simple(true));
    caps.linked_editing_range_provider = Some(LinkedEditingRangeServerCapabilities::Simple(true));
    caps.code_lens_provider = Some(CodeLensOptions {
        resolve_provider: Some(false),
    });
    caps.document_link_provider = Some(DocumentLinkOptions {
        resolve_provider: Some(false),
        work_done_progress_options: Default::default(),
    });
    caps.selection_range_provider = Some(SelectionRangeProviderCapability::Simple(true));
    caps.semantic_tokens_provider = Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
        SemanticTokensOptions {
            legend: SemanticTokensLegend {
                token_types: SemanticTokenKind::LEGEND
                    .iter()
                    .map(|s| SemanticTokenType::new(s))
                    .collect(),
                token_modifiers: ide::MODIFIER_LEGEND
                    .iter()
                    .map(|s| SemanticTokenModifier::new(s))
                    .collect(),
            },
            range: Some(true),
            full: Some(SemanticTokensFullOptions::Bool(true)),
            ..Default::default()
        },
    ));
    caps.inlay_hint_provider = Some(OneOf::Left(true));
    caps.document_formatting_provider = Some(OneOf::Left(true));
    caps.document_range_formatting_provider = Some(OneOf::Left(true));
    caps.document_on_type_formatting_provider = Some(DocumentOnTypeFormattingOptions {
        first_trigger_character: ",".to_string(),
        more_trigger_character: Some(vec!["\n".to_string()]),
    });
    super::code_actions::capabilities(caps);
}

fn completion_kind(kind: CompletionKind) -> CompletionItemKind {
    match kind {
        CompletionKind::Variable | CompletionKind::Parameter => CompletionItemKind::VARIABLE,
        CompletionKind::Class => CompletionItemKind::CLASS,
        CompletionKind::DefinedType => CompletionItemKind::STRUCT,
        CompletionKind::ResourceType => CompletionItemKind::INTERFACE,
        CompletionKind::Attribute | CompletionKind::Metaparameter => CompletionItemKind::PROPERTY,
        CompletionKind::Value => CompletionItemKind::ENUM_MEMBER,
        CompletionKind::Function => CompletionItemKind::FUNCTION,
        CompletionKind::Type | CompletionKind::TypeAlias => CompletionItemKind::TYPE_PARAMETER,
        CompletionKind::Keyword => CompletionItemKind::KEYWORD,
        CompletionKind::Fact => CompletionItemKind::CONSTANT,
        CompletionKind::Key => CompletionItemKind::FIELD,
        CompletionKind::Snippet => CompletionItemKind::SNIPPET,
    }
}

/// The line index of a request's document (an `InvalidParams` error for
/// an unknown one).
pub fn index_of(
    snap: &Snapshot,
    path: &std::path::Path,
) -> jsonrpc::Result<std::sync::Arc<puppet_syntax::line_index::LineIndex>> {
    snap.line_index(path)
        .ok_or_else(|| jsonrpc::Error::invalid_params("unknown document"))
}

pub async fn hover(b: &Backend, params: HoverParams) -> Result<Option<Hover>> {
    b.on_workspace_snapshot("textDocument/hover", move |snap| {
        let pos = snap.file_position(&params.text_document_position_params)?;
        let index = index_of(snap, &pos.path)?;
        Ok(snap.analysis.hover(&pos)?.map(|h| Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: h.markdown,
            }),
            range: Some(convert::range(&index, h.range, snap.encoding)),
        }))
    })
    .await
}

pub async fn completion(
    b: &Backend,
    params: CompletionParams,
) -> Result<Option<CompletionResponse>> {
    b.on_workspace_snapshot("textDocument/completion", move |snap| {
        let pos = snap.file_position(&params.text_document_position)?;
        let index = index_of(snap, &pos.path)?;
        let items = snap
            .analysis
            .completions(&pos)?
            .into_iter()
            .map(|c| {
                let range = convert::range(&index, c.replace_range, snap.encoding);
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

pub async fn signature_help(
    b: &Backend,
    params: SignatureHelpParams,
) -> Result<Option<SignatureHelp>> {
    b.on_workspace_snapshot("textDocument/signatureHelp", move |snap| {
        let pos = snap.file_position(&params.text_document_position_params)?;
        let Some(help) = snap.analysis.signature_help(&pos)? else {
            return Ok(None);
        };
        let utf8 = snap.encoding == puppet_syntax::line_index::ColumnEncoding::Utf8;
        let signatures = help
            .signatures
            .into_iter()
            .map(|sig| {
                // Label offsets are in the negotiated encoding's units.
                let units = |byte: usize| {
                    let prefix = sig.label.get(..byte).unwrap_or(&sig.label);
                    (if utf8 {
                        prefix.len()
                    } else {
                        prefix.encode_utf16().count()
                    }) as u32
                };
                SignatureInformation {
                    parameters: Some(
                        sig.parameters
                            .iter()
                            .map(|p| {
                                let (a, z) = p.label_range_in_signature_label;
                                ParameterInformation {
                                    label: ParameterLabel::LabelOffsets([units(a), units(z)]),
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

pub async fn definition(
    b: &Backend,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    b.on_workspace_snapshot("textDocument/definition", move |snap| {
        let pos = snap.file_position(&params.text_document_position_params)?;
        let targets = snap.analysis.goto_definition(&pos)?;
        let links: Vec<LocationLink> = targets
            .iter()
            .filter_map(|t| convert::location_link(snap, None, t))
            .collect();
        Ok((!links.is_empty()).then_some(GotoDefinitionResponse::Link(links)))
    })
    .await
}

pub async fn type_definition(
    b: &Backend,
    params: request::GotoTypeDefinitionParams,
) -> Result<Option<request::GotoTypeDefinitionResponse>> {
    b.on_workspace_snapshot("textDocument/typeDefinition", move |snap| {
        let pos = snap.file_position(&params.text_document_position_params)?;
        let targets = snap.analysis.goto_type_definition(&pos)?;
        let links: Vec<LocationLink> = targets
            .iter()
            .filter_map(|t| convert::location_link(snap, None, t))
            .collect();
        Ok((!links.is_empty()).then_some(request::GotoTypeDefinitionResponse::Link(links)))
    })
    .await
}

/// `textDocument/linkedEditingRange`: a heredoc's two tags.
pub async fn linked_editing_ranges(
    b: &Backend,
    params: LinkedEditingRangeParams,
) -> Result<Option<LinkedEditingRanges>> {
    b.on_snapshot(move |snap| {
        let pos = snap.file_position(&params.text_document_position_params)?;
        let index = index_of(snap, &pos.path)?;
        let Some(linked) = snap.analysis.linked_editing_ranges(&pos.path, pos.offset)? else {
            return Ok(None);
        };
        Ok(Some(LinkedEditingRanges {
            ranges: linked
                .ranges
                .iter()
                .map(|&r| convert::range(&index, r, snap.encoding))
                .collect(),
            word_pattern: Some(linked.word_pattern.to_string()),
        }))
    })
    .await
}

/// `textDocument/documentLink`: the templates and files a manifest names.
pub async fn document_links(
    b: &Backend,
    params: DocumentLinkParams,
) -> Result<Option<Vec<DocumentLink>>> {
    b.on_workspace_snapshot("textDocument/documentLink", move |snap| {
        let path = snap.path(&params.text_document.uri)?;
        let index = index_of(snap, &path)?;
        let links = snap.analysis.document_links(&path)?;
        Ok(Some(
            links
                .iter()
                .filter_map(|link| {
                    Some(DocumentLink {
                        range: convert::range(&index, link.range, snap.encoding),
                        target: Some(convert::path_to_uri(&link.target)?),
                        tooltip: Some(format!("Open {}", link.target.display())),
                        data: None,
                    })
                })
                .collect(),
        ))
    })
    .await
}

/// The command a lens runs: the editor lists the locations (the VS Code
/// extension maps it to its references view).
pub const SHOW_REFERENCES: &str = "puppet-ls.showReferences";

/// `textDocument/codeLens`, when `codeLens.references` is on: reference
/// and include counts above definitions.
pub async fn code_lenses(b: &Backend, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
    b.on_workspace_snapshot("textDocument/codeLens", move |snap| {
        if !snap.config.code_lens {
            return Ok(None);
        }
        let path = snap.path(&params.text_document.uri)?;
        let index = index_of(snap, &path)?;
        let lenses = snap.analysis.code_lenses(&path)?;
        Ok(Some(
            lenses
                .iter()
                .map(|lens| {
                    let range = convert::range(&index, lens.range, snap.encoding);
                    let locations: Vec<Location> = lens
                        .locations
                        .iter()
                        .filter_map(|l| convert::location(snap, l))
                        .collect();
                    // Nothing to list: a title without an action.
                    let command = if locations.is_empty() {
                        ""
                    } else {
                        SHOW_REFERENCES
                    };
                    CodeLens {
                        range,
                        command: Some(Command {
                            title: lens.title.clone(),
                            command: command.to_string(),
                            arguments: Some(vec![
                                serde_json::json!(params.text_document.uri),
                                serde_json::json!(range.start),
                                serde_json::json!(locations),
                            ]),
                        }),
                        data: None,
                    }
                })
                .collect(),
        ))
    })
    .await
}

pub async fn references(b: &Backend, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
    b.on_workspace_snapshot("textDocument/references", move |snap| {
        let pos = snap.file_position(&params.text_document_position)?;
        let refs = snap
            .analysis
            .find_references(&pos, params.context.include_declaration)?;
        Ok(Some(
            refs.iter()
                .filter_map(|r| convert::location(snap, r))
                .collect(),
        ))
    })
    .await
}

pub async fn document_highlight(
    b: &Backend,
    params: DocumentHighlightParams,
) -> Result<Option<Vec<DocumentHighlight>>> {
    b.on_workspace_snapshot("textDocument/documentHighlight", move |snap| {
        let pos = snap.file_position(&params.text_document_position_params)?;
        let index = index_of(snap, &pos.path)?;
        let highlights = snap.analysis.highlight(&pos)?;
        Ok(Some(
            highlights
                .into_iter()
                .map(|(range, kind)| DocumentHighlight {
                    range: convert::range(&index, range, snap.encoding),
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

pub async fn prepare_rename(
    b: &Backend,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    b.on_workspace_snapshot("textDocument/prepareRename", move |snap| {
        let pos = snap.file_position(&params)?;
        let index = index_of(snap, &pos.path)?;
        match snap.analysis.prepare_rename(&pos)? {
            Ok(range) => Ok(Some(PrepareRenameResponse::Range(convert::range(
                &index,
                range,
                snap.encoding,
            )))),
            Err(message) => Err(jsonrpc::Error::invalid_params(message).into()),
        }
    })
    .await
}

pub async fn rename(b: &Backend, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let support = b.support().edits;
    b.on_workspace_snapshot("textDocument/rename", move |snap| {
        let pos = snap.file_position(&params.text_document_position)?;
        match snap.analysis.rename(&pos, &params.new_name)? {
            Ok(change) => Ok(convert::workspace_edit(snap, &change, support)),
            Err(message) => Err(jsonrpc::Error::invalid_params(message).into()),
        }
    })
    .await
}

fn document_symbol(
    snap: &Snapshot,
    index: &puppet_syntax::line_index::LineIndex,
    sym: &ide::DocumentSymbol,
) -> DocumentSymbol {
    let range = convert::range(index, sym.full_range, snap.encoding);
    let mut selection = convert::range(index, sym.focus_range, snap.encoding);
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
                .map(|c| document_symbol(snap, index, c))
                .collect(),
        ),
    }
}

pub async fn document_symbols(
    b: &Backend,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    b.on_snapshot(move |snap| {
        let path = snap.path(&params.text_document.uri)?;
        let index = index_of(snap, &path)?;
        let symbols = snap.analysis.document_symbols(&path)?;
        Ok(Some(DocumentSymbolResponse::Nested(
            symbols
                .iter()
                .map(|s| document_symbol(snap, &index, s))
                .collect(),
        )))
    })
    .await
}

pub async fn workspace_symbols(
    b: &Backend,
    params: WorkspaceSymbolParams,
) -> Result<Option<OneOf<Vec<SymbolInformation>, Vec<WorkspaceSymbol>>>> {
    b.on_workspace_snapshot("workspace/symbol", move |snap| {
        let targets = snap.analysis.workspace_symbols(&params.query, 256)?;
        #[allow(deprecated)]
        let symbols = targets
            .iter()
            .filter_map(|t| {
                let location = convert::location(
                    snap,
                    &FileRange {
                        path: t.path.clone(),
                        range: t.focus_range,
                    },
                )?;
                Some(SymbolInformation {
                    name: t.name.clone(),
                    kind: convert::symbol_kind(t.kind),
                    tags: None,
                    deprecated: None,
                    location,
                    container_name: None,
                })
            })
            .collect();
        Ok(Some(OneOf::Left(symbols)))
    })
    .await
}

pub async fn folding_ranges(
    b: &Backend,
    params: FoldingRangeParams,
) -> Result<Option<Vec<FoldingRange>>> {
    b.on_snapshot(move |snap| {
        let path = snap.path(&params.text_document.uri)?;
        let index = index_of(snap, &path)?;
        let folds = snap.analysis.folding_ranges(&path)?;
        Ok(Some(
            folds
                .iter()
                .filter_map(|f| {
                    let r = convert::range(&index, f.range, snap.encoding);
                    // A block folds up to the line before its closing brace.
                    let end_line = match f.kind {
                        FoldKind::Comment => r.end.line,
                        FoldKind::Region => r.end.line.saturating_sub(1),
                    };
                    (end_line > r.start.line).then(|| FoldingRange {
                        start_line: r.start.line,
                        end_line,
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

pub async fn selection_ranges(
    b: &Backend,
    params: SelectionRangeParams,
) -> Result<Option<Vec<SelectionRange>>> {
    b.on_snapshot(move |snap| {
        let path = snap.path(&params.text_document.uri)?;
        let index = index_of(snap, &path)?;
        let offsets: Vec<_> = params
            .positions
            .iter()
            .map(|p| convert::offset(&index, *p, snap.encoding))
            .collect();
        let chains = snap.analysis.selection_ranges(&path, &offsets)?;
        Ok(Some(
            chains
                .iter()
                .zip(&params.positions)
                .map(|(chain, position)| {
                    let mut parent: Option<SelectionRange> = None;
                    for r in chain.iter().rev() {
                        parent = Some(SelectionRange {
                            range: convert::range(&index, *r, snap.encoding),
                            parent: parent.map(Box::new),
                        });
                    }
                    parent.unwrap_or(SelectionRange {
                        range: Range::new(*position, *position),
                        parent: None,
                    })
                })
                .collect(),
        ))
    })
    .await
}

pub async fn semantic_tokens(
    b: &Backend,
    uri: Uri,
    range: Option<Range>,
) -> Result<Option<SemanticTokens>> {
    b.on_workspace_snapshot("textDocument/semanticTokens", move |snap| {
        let path = snap.path(&uri)?;
        let index = index_of(snap, &path)?;
        let range = range.map(|r| convert::text_range(&index, r, snap.encoding));
        let tokens = snap.analysis.semantic_tokens(&path, range)?;
        let mut data = Vec::with_capacity(tokens.len());
        let (mut line, mut col) = (0u32, 0u32);
        for t in tokens {
            let r = convert::range(&index, t.range, snap.encoding);
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
        Ok(Some(SemanticTokens {
            result_id: None,
            data,
        }))
    })
    .await
}

pub async fn inlay_hints(b: &Backend, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
    b.on_workspace_snapshot("textDocument/inlayHint", move |snap| {
        let path = snap.path(&params.text_document.uri)?;
        let index = index_of(snap, &path)?;
        let range = convert::text_range(&index, params.range, snap.encoding);
        let hints = snap.analysis.inlay_hints(&path, range)?;
        Ok(Some(
            hints
                .into_iter()
                .map(|h| InlayHint {
                    position: convert::position(&index, h.offset, snap.encoding),
                    label: InlayHintLabel::String(h.label),
                    kind: Some(match h.kind {
                        InlayKind::Type => InlayHintKind::TYPE,
                        InlayKind::Parameter => InlayHintKind::PARAMETER,
                    }),
                    text_edits: None,
                    tooltip: None,
                    padding_left: Some(h.kind == InlayKind::Type),
                    padding_right: Some(h.kind == InlayKind::Parameter),
                    data: None,
                })
                .collect(),
        ))
    })
    .await
}

/// The edits formatting makes to an open document's current text (the
/// line index holds it), or none when it is not formatted (it does not
/// parse, or it is a template). The client's `tabSize` is not used: the
/// style guide fixes two spaces, as `puppet-ls fmt` does.
fn format_edits(
    snap: &Snapshot,
    uri: &Uri,
    format: impl FnOnce(
        &str,
        puppet_syntax::SourceKind,
        &puppet_syntax::line_index::LineIndex,
    ) -> std::result::Result<
        Vec<puppet_syntax::TextEdit>,
        puppet_format::NotFormatted,
    >,
) -> jsonrpc::Result<Option<Vec<TextEdit>>> {
    let path = snap.path(uri)?;
    let index = index_of(snap, &path)?;
    let kind = puppet_syntax::SourceKind::from_path(&path);
    match format(index.text(), kind, &index) {
        Ok(edits) => Ok(Some(convert::text_edits(&index, &edits, snap.encoding))),
        Err(why) => {
            tracing::info!("{}: not formatted: {why}", path.display());
            Ok(None)
        }
    }
}

pub async fn formatting(
    b: &Backend,
    params: DocumentFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    b.on_snapshot(move |snap| {
        Ok(format_edits(
            snap,
            &params.text_document.uri,
            |text, kind, _| puppet_format::format_document(text, kind, &Default::default()),
        )?)
    })
    .await
}

pub async fn range_formatting(
    b: &Backend,
    params: DocumentRangeFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    b.on_snapshot(move |snap| {
        let encoding = snap.encoding;
        Ok(format_edits(
            snap,
            &params.text_document.uri,
            |text, kind, index| {
                let range = convert::text_range(index, params.range, encoding);
                puppet_format::format_range(text, kind, range, &Default::default())
            },
        )?)
    })
    .await
}

/// After `,` or a line break: the list around the cursor, aligned.
pub async fn on_type_formatting(
    b: &Backend,
    params: DocumentOnTypeFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    b.on_snapshot(move |snap| {
        let typed = match params.ch.as_str() {
            "," => puppet_format::Typed::Comma,
            "\n" => puppet_format::Typed::Newline,
            _ => return Ok(None),
        };
        let encoding = snap.encoding;
        let position = params.text_document_position;
        Ok(format_edits(
            snap,
            &position.text_document.uri,
            |text, kind, index| {
                let offset = convert::offset(index, position.position, encoding);
                puppet_format::format_on_type(text, kind, offset, typed, &Default::default())
            },
        )?)
    })
    .await
}
