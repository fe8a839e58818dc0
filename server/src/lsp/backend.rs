//! The `LanguageServer` implementation: lifecycle, workspace and diagnostic
//! handlers. Document notifications (`didOpen`/`didChange`/`didClose`)
//! never reach this impl: `ordered::Ordered` applies them in arrival order
//! (see `sync.rs`).
//!
//! To add an IDE feature, add its handler here (or a custom method in
//! `mod.rs`) and answer through `Backend::on_snapshot`, which runs the
//! work on a blocking thread over a read-only snapshot: convert the LSP
//! position with `Snapshot::file_position`, call the `Analysis` method, and
//! convert the result with the functions of `convert.rs`.

use super::code_actions;
use super::config::Config;
use super::convert::{self, EditSupport};
use super::diagnostics::{self, Published};
use super::features;
use super::readiness::Readiness;
use super::snapshot::Snapshot;
use super::state::State;
use super::workspace;
use puppet_syntax::line_index::ColumnEncoding;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use tower_lsp_server::jsonrpc::{self, Result};
use tower_lsp_server::lsp_types::*;
use tower_lsp_server::{Client, LanguageServer};

/// What the client can do, fixed at `initialize`.
#[derive(Debug, Clone, Copy)]
pub struct ClientSupport {
    pub encoding: ColumnEncoding,
    /// `textDocument/diagnostic`: the client pulls; nothing is pushed.
    pub pull_diagnostics: bool,
    /// `workspace/diagnostic/refresh`.
    pub diagnostic_refresh: bool,
    /// Dynamic registration of `workspace/didChangeWatchedFiles`.
    pub watch_registration: bool,
    /// `window/workDoneProgress/create`.
    pub work_done_progress: bool,
    /// `workspace/codeLens/refresh`.
    pub code_lens_refresh: bool,
    /// What workspace edits may hold (for rename and code actions).
    pub edits: EditSupport,
}

impl ClientSupport {
    fn from_caps(caps: &ClientCapabilities) -> ClientSupport {
        let workspace = caps.workspace.as_ref();
        ClientSupport {
            encoding: convert::negotiate_encoding(caps),
            pull_diagnostics: caps
                .text_document
                .as_ref()
                .is_some_and(|t| t.diagnostic.is_some()),
            // lsp-types reads `workspace.diagnostic`, the spec (and VS
            // Code) say `workspace.diagnostics`: a pull client is taken to
            // support refresh unless it says otherwise.
            diagnostic_refresh: workspace
                .and_then(|w| w.diagnostic.as_ref())
                .and_then(|d| d.refresh_support)
                != Some(false),
            watch_registration: workspace
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|w| w.dynamic_registration)
                == Some(true),
            work_done_progress: caps.window.as_ref().and_then(|w| w.work_done_progress)
                == Some(true),
            code_lens_refresh: workspace
                .and_then(|w| w.code_lens.as_ref())
                .and_then(|c| c.refresh_support)
                == Some(true),
            edits: EditSupport::from_caps(caps),
        }
    }
}

impl Default for ClientSupport {
    fn default() -> ClientSupport {
        ClientSupport::from_caps(&ClientCapabilities::default())
    }
}

/// The server: cheap to clone, shared by handlers and background tasks.
#[derive(Clone)]
pub struct Backend {
    inner: Arc<Inner>,
}

struct Inner {
    client: Client,
    state: Mutex<State>,
    support: OnceLock<ClientSupport>,
    /// What was last pushed per document; the lock also orders publishing.
    published: tokio::sync::Mutex<HashMap<PathBuf, Published>>,
    /// Held while (re)indexing, so that runs do not interleave.
    indexing: tokio::sync::Mutex<()>,
    /// The initial workspace load, which workspace requests wait for.
    readiness: Readiness,
    next_token: AtomicU32,
    /// Counts the changes that can change diagnostics (edits, files, the
    /// configuration, shutdown): a long-polled `workspace/diagnostic`
    /// waits for it to move.
    changes: tokio::sync::watch::Sender<u64>,
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend {
            inner: Arc::new(Inner {
                client,
                state: Mutex::new(State::default()),
                support: OnceLock::new(),
                published: tokio::sync::Mutex::new(HashMap::new()),
                indexing: tokio::sync::Mutex::new(()),
                readiness: Readiness::from_env(),
                next_token: AtomicU32::new(0),
                changes: tokio::sync::watch::Sender::new(0),
            }),
        }
    }

    pub fn client(&self) -> &Client {
        &self.inner.client
    }

    /// The state, locked. Never hold the guard across an `.await`; a
    /// poisoned lock (a panic while holding it) is taken over as it is.
    pub fn state(&self) -> MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Something that can change diagnostics happened.
    pub fn changed(&self) {
        self.inner.changes.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Watches [`Backend::changed`].
    pub fn changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.inner.changes.subscribe()
    }

    pub fn support(&self) -> ClientSupport {
        self.inner.support.get().copied().unwrap_or_default()
    }

    pub fn published(&self) -> &tokio::sync::Mutex<HashMap<PathBuf, Published>> {
        &self.inner.published
    }

    pub fn indexing_lock(&self) -> &tokio::sync::Mutex<()> {
        &self.inner.indexing
    }

    pub fn readiness(&self) -> &Readiness {
        &self.inner.readiness
    }

    /// A fresh number for progress tokens.
    pub fn next_token(&self) -> u32 {
        self.inner.next_token.fetch_add(1, Ordering::Relaxed)
    }

    /// A read-only snapshot of the analysis and the open documents.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot::new(&self.state(), self.support().encoding)
    }

    /// Whether `shutdown` was received (decides the exit status).
    pub fn is_shut_down(&self) -> bool {
        self.state().shut_down
    }

    /// `puppet-ls/syntaxTree`: the tree the server holds for the document
    /// (incrementally reparsed while typing), as `puppet-ls parse --tree`
    /// prints it.
    pub async fn syntax_tree(&self, params: SyntaxTreeParams) -> Result<String> {
        let uri = params.text_document.uri;
        self.on_snapshot(move |snap| {
            let path = snap.path(&uri)?;
            Ok(snap
                .analysis
                .syntax_tree(&path)
                .ok_or_else(|| jsonrpc::Error::invalid_params("unknown document"))?)
        })
        .await
    }
}

/// Parameters of `puppet-ls/syntaxTree`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxTreeParams {
    pub text_document: TextDocumentIdentifier,
}

/// The workspace folders of `initialize` (`rootUri` when there are none).
fn initial_roots(params: &InitializeParams) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| convert::uri_to_path(&f.uri))
        .collect();
    #[allow(deprecated)]
    if roots.is_empty() {
        roots.extend(params.root_uri.as_ref().and_then(convert::uri_to_path));
    }
    roots
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let support = ClientSupport::from_caps(&params.capabilities);
        let _ = self.inner.support.set(support);
        {
            let mut state = self.state();
            state.roots = initial_roots(&params);
            let options = params
                .initialization_options
                .clone()
                .unwrap_or(serde_json::Value::Null);
            let config = Config::for_workspace(&options, state.roots.first().map(PathBuf::as_path));
            state.apply_config(config);
            state.initialized = true;
            // Requests may come from now on; the workspace they ask
            // about is loaded once `initialized` arrives: they wait for it.
            self.inner.readiness.begin();
            tracing::info!(
                "initialize: roots {:?}, encoding {:?}, pull diagnostics {}",
                state.roots,
                support.encoding,
                support.pull_diagnostics
            );
        }
        let diagnostic_provider = support.pull_diagnostics.then(|| {
            DiagnosticServerCapabilities::Options(DiagnosticOptions {
                identifier: Some("puppet-ls".to_string()),
                inter_file_dependencies: true,
                workspace_diagnostics: true,
                work_done_progress_options: WorkDoneProgressOptions::default(),
            })
        });
        let mut capabilities = ServerCapabilities {
            position_encoding: Some(convert::encoding_kind(support.encoding)),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    ..TextDocumentSyncOptions::default()
                },
            )),
            diagnostic_provider,
            workspace: Some(WorkspaceServerCapabilities {
                workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                    supported: Some(true),
                    change_notifications: Some(OneOf::Left(true)),
                }),
                file_operations: None,
            }),
            ..ServerCapabilities::default()
        };
        features::capabilities(&mut capabilities);
        Ok(InitializeResult {
            capabilities,
            server_info: Some(ServerInfo {
                name: "puppet-ls".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        // Both await client replies: run them beside the message loop.
        tokio::spawn(workspace::register_watchers(self.clone()));
        tokio::spawn(workspace::index(self.clone()));
    }

    async fn shutdown(&self) -> Result<()> {
        self.state().shut_down = true;
        self.inner.readiness.settle("shutdown");
        // Long-polled requests answer now.
        self.changed();
        Ok(())
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        workspace::configuration_changed(self, &params.settings);
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        workspace::folders_changed(self, params.event);
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        workspace::watched_files_changed(self, params.changes).await;
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        diagnostics::document_report(self, params).await
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        diagnostics::workspace_report(self, params).await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        features::hover(self, params).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        features::completion(self, params).await
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        features::signature_help(self, params).await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        features::definition(self, params).await
    }

    async fn goto_type_definition(
        &self,
        params: request::GotoTypeDefinitionParams,
    ) -> Result<Option<request::GotoTypeDefinitionResponse>> {
        features::type_definition(self, params).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        features::references(self, params).await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        features::document_highlight(self, params).await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        features::prepare_rename(self, params).await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        features::rename(self, params).await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        features::document_symbols(self, params).await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<OneOf<Vec<SymbolInformation>, Vec<WorkspaceSymbol>>>> {
        features::workspace_symbols(self, params).await
    }

    async fn prepare_call_hierarchy(
        &self,
        params: CallHierarchyPrepareParams,
    ) -> Result<Option<Vec<CallHierarchyItem>>> {
        super::call_hierarchy::prepare(self, params).await
    }

    async fn incoming_calls(
        &self,
        params: CallHierarchyIncomingCallsParams,
    ) -> Result<Option<Vec<CallHierarchyIncomingCall>>> {
        super::call_hierarchy::incoming(self, params).await
    }

    async fn outgoing_calls(
        &self,
        params: CallHierarchyOutgoingCallsParams,
    ) -> Result<Option<Vec<CallHierarchyOutgoingCall>>> {
        super::call_hierarchy::outgoing(self, params).await
    }

    async fn linked_editing_range(
        &self,
        params: LinkedEditingRangeParams,
    ) -> Result<Option<LinkedEditingRanges>> {
        features::linked_editing_ranges(self, params).await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        features::code_lenses(self, params).await
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        features::document_links(self, params).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        features::folding_ranges(self, params).await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        features::selection_ranges(self, params).await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let tokens = features::semantic_tokens(self, params.text_document.uri, None).await?;
        Ok(tokens.map(SemanticTokensResult::Tokens))
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let tokens =
            features::semantic_tokens(self, params.text_document.uri, Some(params.range)).await?;
        Ok(tokens.map(SemanticTokensRangeResult::Tokens))
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        features::inlay_hints(self, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        code_actions::code_actions(self, params).await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        features::formatting(self, params).await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        features::range_formatting(self, params).await
    }

    async fn on_type_formatting(
        &self,
        params: DocumentOnTypeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        features::on_type_formatting(self, params).await
    }
}
