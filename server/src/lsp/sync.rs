//! `didOpen`, `didChange` and `didClose`, applied synchronously in the
//! order they arrive (called from `ordered::Ordered`, before any later
//! message is dispatched). Bad parameters, unknown documents and non-file
//! URIs are logged and ignored: a notification has no reply.

use super::backend::Backend;
use super::convert;
use super::diagnostics;
use super::snapshot::panic_message;
use super::state::State;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::OnceLock;
use tower_lsp_server::lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
};

/// The notifications handled here.
pub const METHODS: [&str; 3] = [
    "textDocument/didOpen",
    "textDocument/didChange",
    "textDocument/didClose",
];

fn params<T: DeserializeOwned>(method: &str, params: Value) -> Option<T> {
    serde_json::from_value(params)
        .map_err(|e| tracing::warn!("{method}: invalid parameters: {e}"))
        .ok()
}

/// Applies one document notification to the state.
pub fn apply(backend: &Backend, method: &str, value: Value) {
    {
        let state = backend.state();
        if !state.initialized || state.shut_down {
            tracing::warn!("{method} outside of a session; ignored");
            return;
        }
    }
    match method {
        "textDocument/didOpen" => {
            if let Some(p) = params(method, value) {
                did_open(backend, p);
            }
        }
        "textDocument/didChange" => {
            if let Some(p) = params(method, value) {
                did_change(backend, p);
            }
        }
        "textDocument/didClose" => {
            if let Some(p) = params(method, value) {
                did_close(backend, p);
            }
        }
        _ => {}
    }
}

fn did_open(backend: &Backend, params: DidOpenTextDocumentParams) {
    let doc = params.text_document;
    let Some(path) = convert::uri_to_path(&doc.uri) else {
        tracing::info!("didOpen: not a file URI: {}", doc.uri.as_str());
        return;
    };
    {
        let mut state = backend.state();
        state
            .documents
            .open(path.clone(), doc.uri, doc.version, &doc.text);
        sync_guarded(&mut state, &path, None);
    }
    diagnostics::document_changed(backend, path, doc.version);
}

fn did_change(backend: &Backend, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    let version = params.text_document.version;
    let Some(path) = convert::uri_to_path(&uri) else {
        tracing::info!("didChange: not a file URI: {}", uri.as_str());
        return;
    };
    let changes: Vec<_> = params
        .content_changes
        .into_iter()
        .map(convert::content_change)
        .collect();
    let encoding = backend.support().encoding;
    {
        let mut state = backend.state();
        let edits = match state.documents.change(&path, version, &changes, encoding) {
            Ok(edits) => edits,
            Err(e) => {
                tracing::warn!("didChange for {}: {e:?}; ignored", path.display());
                return;
            }
        };
        sync_guarded(&mut state, &path, Some(&edits));
    }
    diagnostics::document_changed(backend, path, version);
}

fn did_close(backend: &Backend, params: DidCloseTextDocumentParams) {
    let Some(path) = convert::uri_to_path(&params.text_document.uri) else {
        return;
    };
    // The file on disk, for the analysis to go back to (small and rare:
    // read here so that the order with later notifications holds).
    let disk_text = std::fs::read(&path)
        .ok()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    {
        let mut state = backend.state();
        if state.documents.close(&path).is_none() {
            tracing::warn!("didClose for {}: not open; ignored", path.display());
            return;
        }
        state.revert_to_disk(&path, disk_text);
    }
    diagnostics::workspace_changed(backend);
}

/// Gives the analysis a document's new text under a panic guard: a bug in
/// reparsing or analysis on some strange edit must not end the server.
/// The document store (updated before) keeps every edit; after a panic the
/// analysis is given the whole text again, and if that panics too, it
/// forgets the file until the next change.
fn sync_guarded(state: &mut State, path: &Path, edits: Option<&[puppet_syntax::TextEdit]>) {
    let attempt = catch_unwind(AssertUnwindSafe(|| {
        injected_panic(state, path);
        state.sync_document(path, edits);
    }));
    let Err(payload) = attempt else { return };
    tracing::error!(
        "analysing the change to {} panicked: {}; setting its whole text again",
        path.display(),
        panic_message(payload.as_ref())
    );
    let retry = catch_unwind(AssertUnwindSafe(|| {
        injected_panic(state, path);
        state.sync_document(path, None);
    }));
    if let Err(payload) = retry {
        tracing::error!(
            "setting {} panicked again: {}; the analysis forgets it until its next change",
            path.display(),
            panic_message(payload.as_ref())
        );
        let _ = catch_unwind(AssertUnwindSafe(|| state.host.remove_file(path)));
    }
}

/// For the tests of the guard (`PUPPET_LS_TEST_PANIC_MARKER`, never set in
/// use): a document whose text contains the marker makes its analysis panic.
fn injected_panic(state: &State, path: &Path) {
    static MARKER: OnceLock<Option<String>> = OnceLock::new();
    let marker = MARKER.get_or_init(|| std::env::var("PUPPET_LS_TEST_PANIC_MARKER").ok());
    let Some(marker) = marker.as_deref().filter(|m| !m.is_empty()) else {
        return;
    };
    if state
        .documents
        .get(path)
        .is_some_and(|doc| doc.text().contains(marker))
    {
        panic!("injected panic (PUPPET_LS_TEST_PANIC_MARKER)");
    }
}
