//! The language server: LSP over stdio on tokio, with tower-lsp-server.
//!
//! - `state`: the analysis host and open documents under one mutex;
//!   document changes are applied synchronously, before any `.await`, so
//!   they take effect in arrival order.
//! - Requests take a snapshot of the analysis and run on the blocking
//!   pool: a panic becomes an `InternalError` reply, a newer edit cancels
//!   the snapshot and the reply is `ContentModified`.
//! - `features`: the `LanguageServer` handlers; `convert`: positions and
//!   types; `config`: settings; `diagnostics`: publishing and pulling.

mod config;
mod convert;
mod diagnostics;
mod features;
mod state;
mod workspace;

use puppet_analysis::host::Analysis;
use puppet_analysis::ide::Cancellable;
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use state::State;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::{Client, LspService, Server};

/// Runs the server on stdin/stdout until the client exits.
pub fn run() -> std::process::ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Analysis recurses over syntax trees: give blocking threads room.
        .thread_stack_size(16 * 1024 * 1024)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("puppet-ls: cannot start the runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let (service, socket) = LspService::build(Backend::new)
            .custom_method("puppet-ls/syntaxTree", Backend::syntax_tree)
            .finish();
        Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
            .serve(service)
            .await;
    });
    std::process::ExitCode::SUCCESS
}

pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
}

/// What a request needs besides the snapshot: the encoding and the line
/// indexes of the files it answers about.
pub struct Snapshot {
    pub analysis: Analysis,
    pub encoding: ColumnEncoding,
    open: HashMap<PathBuf, Arc<LineIndex>>,
    pub config: config::Config,
    pub resource_operations: bool,
}

impl Snapshot {
    /// The line index of any workspace file (open ones as the editor has them).
    pub fn line_index(&self, path: &Path) -> Option<Arc<LineIndex>> {
        if let Some(i) = self.open.get(path) {
            return Some(i.clone());
        }
        let file = self.analysis.file(path)?;
        Some(Arc::new(LineIndex::new(file.text(self.analysis.db()))))
    }
}

/// The reply when a newer edit made a request's answer stale.
fn content_modified() -> Error {
    Error {
        code: ErrorCode::ServerError(-32801),
        message: "content modified".into(),
        data: None,
    }
}

impl Backend {
    fn new(client: Client) -> Backend {
        Backend {
            client,
            state: Arc::new(Mutex::new(State::new())),
        }
    }

    /// The state; a handler that panicked while holding the lock does not
    /// take the server down with it.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn snapshot(&self) -> Snapshot {
        let state = self.lock();
        Snapshot {
            analysis: state.host.analysis(),
            encoding: state.encoding,
            open: state
                .documents
                .iter()
                .map(|(p, d)| (p.clone(), d.index.clone()))
                .collect(),
            config: state.config.clone(),
            resource_operations: state.support.resource_operations,
        }
    }

    /// Runs `f` on a snapshot on the blocking pool.
    async fn with_snapshot<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot) -> Cancellable<T> + Send + 'static,
    {
        let snapshot = self.snapshot();
        match tokio::task::spawn_blocking(move || f(&snapshot)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(_cancelled)) => Err(content_modified()),
            Err(join_error) => {
                tracing::error!("request handler failed: {join_error}");
                Err(Error::internal_error())
            }
        }
    }
}
