//! Requests answered off the async runtime: a `Snapshot` (the analysis at
//! one revision plus the open documents' line indexes) is taken under the
//! state lock, then moved to a blocking thread. A panic there becomes an
//! `InternalError` reply, a cancellation by a newer edit `ContentModified`.
//! Requests that read other files than their own document take their
//! snapshot through `on_workspace_snapshot`, after the initial load.

use super::backend::Backend;
use super::config::Config;
use super::convert::{self, FileLines};
use super::lint::LintResults;
use super::state::State;
use puppet_ide::Analysis;
use puppet_ide::{Cancelled, FilePosition};
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower_lsp_server::jsonrpc;
use tower_lsp_server::lsp_types::{TextDocumentPositionParams, Uri};

/// An open document as a snapshot sees it.
#[derive(Debug, Clone)]
pub struct OpenDocument {
    pub uri: Uri,
    pub version: i32,
    pub index: Arc<LineIndex>,
}

/// Everything a request needs, detached from the server's state.
pub struct Snapshot {
    pub analysis: Analysis,
    pub encoding: ColumnEncoding,
    pub config: Config,
    /// Workspace folders.
    pub roots: Vec<PathBuf>,
    /// Each file's last puppet-lint findings (shared, not a copy).
    pub lint: Arc<LintResults>,
    open: BTreeMap<PathBuf, OpenDocument>,
}

impl Snapshot {
    pub fn new(state: &State, encoding: ColumnEncoding) -> Snapshot {
        Snapshot {
            analysis: puppet_ide::snapshot(&state.host),
            encoding,
            config: state.config.clone(),
            roots: state.roots.clone(),
            lint: state.lint.clone(),
            open: state
                .documents
                .iter()
                .map(|(path, doc)| {
                    let open = OpenDocument {
                        uri: doc.uri.clone(),
                        version: doc.version,
                        index: doc.index.clone(),
                    };
                    (path.to_path_buf(), open)
                })
                .collect(),
        }
    }

    /// The open documents, by path.
    pub fn open_documents(&self) -> impl Iterator<Item = (&Path, &OpenDocument)> {
        self.open.iter().map(|(p, d)| (p.as_path(), d))
    }

    pub fn is_open(&self, path: &Path) -> bool {
        self.open.contains_key(path)
    }

    /// The local path of a document URI, or an `InvalidParams` error.
    pub fn path(&self, uri: &Uri) -> Result<PathBuf, jsonrpc::Error> {
        convert::uri_to_path(uri).ok_or_else(|| {
            jsonrpc::Error::invalid_params(format!("not a file URI: {}", uri.as_str()))
        })
    }

    /// The byte position of an LSP position (clamped into the text), for
    /// the position-based IDE requests.
    pub fn file_position(
        &self,
        params: &TextDocumentPositionParams,
    ) -> Result<FilePosition, jsonrpc::Error> {
        let path = self.path(&params.text_document.uri)?;
        let index = self
            .line_index(&path)
            .ok_or_else(|| jsonrpc::Error::invalid_params("unknown document"))?;
        let offset = convert::offset(&index, params.position, self.encoding);
        Ok(FilePosition { path, offset })
    }
}

impl FileLines for Snapshot {
    fn encoding(&self) -> ColumnEncoding {
        self.encoding
    }

    fn line_index(&self, path: &Path) -> Option<Arc<LineIndex>> {
        if let Some(doc) = self.open.get(path) {
            return Some(doc.index.clone());
        }
        self.analysis.line_index(path)
    }

    fn version(&self, path: &Path) -> Option<i32> {
        self.open.get(path).map(|d| d.version)
    }
}

/// Why a request on a snapshot failed: `?` works on both kinds.
#[derive(Debug)]
pub enum RequestError {
    /// A newer edit cancelled the computation.
    Cancelled,
    Rpc(jsonrpc::Error),
}

impl From<Cancelled> for RequestError {
    fn from(_: Cancelled) -> RequestError {
        RequestError::Cancelled
    }
}

impl From<jsonrpc::Error> for RequestError {
    fn from(error: jsonrpc::Error) -> RequestError {
        RequestError::Rpc(error)
    }
}

impl Backend {
    /// Runs `f` over a snapshot on a blocking thread. The snapshot is
    /// dropped there, so no await ever holds it (an edit waits for every
    /// snapshot to be gone).
    pub async fn on_snapshot<T, F>(&self, f: F) -> jsonrpc::Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot) -> Result<T, RequestError> + Send + 'static,
    {
        let snapshot = self.snapshot();
        let result = tokio::task::spawn_blocking(move || f(&snapshot)).await;
        match result {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(RequestError::Rpc(error))) => Err(error),
            Ok(Err(RequestError::Cancelled)) => Err(jsonrpc::Error::content_modified()),
            Err(join) => Err(join_error(join)),
        }
    }

    /// `on_snapshot` for a request whose answer depends on other files:
    /// while the initial workspace load is under way the snapshot is taken
    /// only once it is applied (or its bound passed), so that the answer is
    /// the one a second later would get, not one from the open documents
    /// alone. `method` names the request in the log.
    pub async fn on_workspace_snapshot<T, F>(&self, method: &str, f: F) -> jsonrpc::Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Snapshot) -> Result<T, RequestError> + Send + 'static,
    {
        self.readiness().wait(method).await;
        self.on_snapshot(f).await
    }
}

/// The message a panic carried.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// A failed blocking task as a reply: an uncaught cancellation is
/// `ContentModified`, any other panic `InternalError` with its message.
pub fn join_error(join: tokio::task::JoinError) -> jsonrpc::Error {
    let Ok(payload) = join.try_into_panic() else {
        return jsonrpc::Error::request_cancelled();
    };
    if payload.downcast_ref::<Cancelled>().is_some() {
        return jsonrpc::Error::content_modified();
    }
    let message = panic_message(payload.as_ref());
    tracing::error!("request panicked: {message}");
    jsonrpc::Error {
        message: format!("internal error: {message}").into(),
        ..jsonrpc::Error::internal_error()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::jsonrpc::ErrorCode;

    #[tokio::test]
    async fn panics_and_cancellations_become_error_replies() {
        let panicked = tokio::task::spawn_blocking(|| panic!("boom"))
            .await
            .unwrap_err();
        let error = join_error(panicked);
        assert_eq!(error.code, ErrorCode::InternalError);
        assert!(error.message.contains("boom"));
        let cancelled = tokio::task::spawn_blocking(|| {
            std::panic::resume_unwind(Box::new(Cancelled::PendingWrite))
        })
        .await
        .unwrap_err();
        assert_eq!(join_error(cancelled).code, ErrorCode::ContentModified);
    }
}
