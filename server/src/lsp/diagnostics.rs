//! Diagnostics to the client: pushed (`publishDiagnostics`, with the
//! document version) or pulled (`textDocument/diagnostic`,
//! `workspace/diagnostic`), filtered by the configuration.

use super::{convert, Backend, Snapshot};
use puppet_analysis::diagnostics::Diagnostic;
use puppet_syntax::line_index::LineIndex;
use puppet_syntax::Severity;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tower_lsp_server::lsp_types::{self as lsp, NumberOrString};

/// How long a burst of keystrokes may run before diagnostics are computed.
const DEBOUNCE: Duration = Duration::from_millis(25);

/// A file's diagnostics as LSP diagnostics, without the ignored codes.
pub fn to_lsp(
    snapshot: &Snapshot,
    path: &Path,
    diagnostics: &[Diagnostic],
) -> Vec<lsp::Diagnostic> {
    let Some(index) = snapshot.line_index(path) else {
        return Vec::new();
    };
    diagnostics
        .iter()
        .filter(|d| snapshot.config.shows(d.code))
        .map(|d| convert_one(&index, snapshot, d))
        .collect()
}

fn convert_one(index: &LineIndex, snapshot: &Snapshot, d: &Diagnostic) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: convert::range(index, d.range, snapshot.encoding),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        source: Some("puppet-ls".into()),
        message: d.message.clone(),
        tags: (d.code.starts_with("unused-")).then(|| vec![lsp::DiagnosticTag::UNNECESSARY]),
        ..Default::default()
    }
}

impl Backend {
    /// After a change: once the edits settle, computes and pushes the
    /// document's diagnostics (push mode only), unless a newer version
    /// arrived meanwhile.
    pub(super) fn schedule_diagnostics(&self, path: PathBuf, version: i32) {
        if self.lock().support.pull_diagnostics {
            return;
        }
        let client = self.client.clone();
        let state = self.state.clone();
        let backend = Backend { client, state };
        tokio::spawn(async move {
            tokio::time::sleep(DEBOUNCE).await;
            backend.publish(&path, Some(version)).await;
        });
    }

    /// Computes and publishes one file's diagnostics (if the file is still
    /// at `version`).
    pub(super) async fn publish(&self, path: &Path, version: Option<i32>) {
        let current = self.lock().documents.get(path).map(|d| d.version);
        if version.is_some() && current != version {
            return;
        }
        let owned = path.to_path_buf();
        let result = self
            .with_snapshot(move |s| {
                let diagnostics = s.analysis.diagnostics(&owned)?;
                Ok(to_lsp(s, &owned, &diagnostics))
            })
            .await;
        let Ok(diagnostics) = result else { return };
        if version.is_some() && self.lock().documents.get(path).map(|d| d.version) != version {
            return;
        }
        if let Some(uri) = convert::uri(path) {
            self.client
                .publish_diagnostics(uri, diagnostics, current)
                .await;
        }
    }

    /// Pushes the diagnostics of every file with problems (after indexing
    /// or a change of configuration), in push mode.
    pub(super) async fn publish_all(&self) {
        if self.lock().support.pull_diagnostics {
            let _ = self.client.workspace_diagnostic_refresh().await;
            return;
        }
        let result = self
            .with_snapshot(|s| {
                let mut out = Vec::new();
                let paths: Vec<PathBuf> = s.analysis.paths().map(Path::to_path_buf).collect();
                for path in paths {
                    let d = s.analysis.diagnostics(&path)?;
                    let converted = to_lsp(s, &path, &d);
                    if !converted.is_empty() || s.open.contains_key(&path) {
                        out.push((path, converted));
                    }
                }
                Ok(out)
            })
            .await;
        let Ok(all) = result else { return };
        for (path, diagnostics) in all {
            let version = self.lock().documents.get(&path).map(|d| d.version);
            if let Some(uri) = convert::uri(&path) {
                self.client
                    .publish_diagnostics(uri, diagnostics, version)
                    .await;
            }
        }
    }
}
