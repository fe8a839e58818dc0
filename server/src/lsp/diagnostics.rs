//! Diagnostics to the editor. Pull (`textDocument/diagnostic`,
//! `workspace/diagnostic`) when the client supports it, else push
//! (`publishDiagnostics`, with document versions): a quick parse-only pass
//! right after a change shows syntax errors at once, the full analysis
//! follows after a short debounce unless a newer version arrived. Only
//! changed sets are pushed. The settings (selected and ignored codes,
//! severities) apply to both. puppet-lint's findings join the analysis'
//! (see `lint.rs`).

use super::backend::Backend;
use super::config::Config;
use super::convert::{self, FileLines};
use super::lint::{self, Staleness};
use super::snapshot::{join_error, RequestError, Snapshot};
use crate::linting::is_reported_by_analysis;
use crate::project_config::SeveritySetting;
use crate::reporting;
use puppet_analysis::diagnostics::Diagnostic;
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use puppet_syntax::Code;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tower_lsp_server::jsonrpc;
use tower_lsp_server::lsp_types::{self as lsp, Uri};

/// Pause between a change and its full analysis, so that fast typing runs
/// one analysis, not one per keystroke.
const DEBOUNCE: Duration = Duration::from_millis(10);
/// At most this many diagnostics per file go to the editor.
const MAX_PER_FILE: usize = 500;

/// What was last pushed for a document (by path).
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    pub uri: Uri,
    pub version: Option<i32>,
    pub diagnostics: Vec<lsp::Diagnostic>,
}

/// Which documents a push covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The open documents (after an edit).
    Open,
    /// Open documents and every workspace file (after indexing, file
    /// changes on disk, settings changes).
    All,
}

/// A file's diagnostics as LSP's, filtered by the settings.
pub fn to_lsp(
    diagnostics: &[Diagnostic],
    config: &Config,
    index: &LineIndex,
    encoding: ColumnEncoding,
) -> Vec<lsp::Diagnostic> {
    diagnostics
        .iter()
        .filter(|d| config.shows(d.code))
        .take(MAX_PER_FILE)
        .map(|d| graded(convert::diagnostic(d, index, encoding), config))
        .collect()
}

/// A diagnostic with the severity the settings give its code.
fn graded(mut diagnostic: lsp::Diagnostic, config: &Config) -> lsp::Diagnostic {
    let Some(lsp::NumberOrString::String(code)) = &diagnostic.code else {
        return diagnostic;
    };
    if let Some(severity) = config.severity_of(code) {
        diagnostic.severity = Some(match severity {
            SeveritySetting::Error => lsp::DiagnosticSeverity::ERROR,
            SeveritySetting::Warning | SeveritySetting::Off => lsp::DiagnosticSeverity::WARNING,
            SeveritySetting::Info => lsp::DiagnosticSeverity::INFORMATION,
        });
    }
    diagnostic
}

/// Every severity, in a fixed order (what `result_id` hashes).
const SEVERITIES: [lsp::DiagnosticSeverity; 4] = [
    lsp::DiagnosticSeverity::ERROR,
    lsp::DiagnosticSeverity::WARNING,
    lsp::DiagnosticSeverity::INFORMATION,
    lsp::DiagnosticSeverity::HINT,
];

/// A stable id for a set of diagnostics (for pull's `resultId`): a hash of
/// every field the client sees, computed from the values rather than by
/// serializing them (which would cost as much as sending them again).
pub fn result_id(items: &[lsp::Diagnostic]) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    items.len().hash(&mut hasher);
    for d in items {
        d.range.hash(&mut hasher);
        SEVERITIES
            .iter()
            .position(|&s| Some(s) == d.severity)
            .hash(&mut hasher);
        d.code.hash(&mut hasher);
        d.code_description
            .as_ref()
            .map(|c| c.href.as_str())
            .hash(&mut hasher);
        d.source.hash(&mut hasher);
        d.message.hash(&mut hasher);
        for info in d.related_information.iter().flatten() {
            info.location.uri.as_str().hash(&mut hasher);
            info.location.range.hash(&mut hasher);
            info.message.hash(&mut hasher);
        }
        d.tags
            .as_ref()
            .map(|t| serde_json::to_string(t).unwrap_or_default())
            .hash(&mut hasher);
        d.data.as_ref().map(|v| v.to_string()).hash(&mut hasher);
    }
    format!("{:016x}", hasher.finish())
}

/// The diagnostics of one file at the snapshot's revision: the analysis'
/// first, then puppet-lint's findings (carried over from an older text of
/// a big open document: see `lint.rs`), at most `MAX_PER_FILE`.
fn file_diagnostics(
    snap: &Snapshot,
    path: &Path,
) -> Result<Option<Vec<lsp::Diagnostic>>, RequestError> {
    let Some(index) = snap.line_index(path) else {
        return Ok(None);
    };
    let config = &snap.config;
    // `definition-location` even when hidden: it hides `autoloader_layout`.
    let analysis = snap.analysis.diagnostics_where(
        path,
        |d| config.shows(d.code) || d.code == Code::DefinitionLocation,
        MAX_PER_FILE,
    )?;
    let mut items = to_lsp(&analysis, config, &index, snap.encoding);
    let room = MAX_PER_FILE - items.len();
    if room > 0 {
        let findings = lint::findings(snap, path, Staleness::CarryOver);
        items.extend(
            findings
                .iter()
                .filter(|(d, _)| {
                    config.shows_name(d.check) && !is_reported_by_analysis(d, &analysis)
                })
                .take(room)
                .map(|(d, range)| {
                    let converted = convert::lint_diagnostic(d, range, &index, snap.encoding);
                    graded(converted, config)
                }),
        );
    }
    Ok(Some(items))
}

/// Files reported when not open: workspace files outside test fixtures.
fn reported_closed_files(snap: &Snapshot) -> Vec<PathBuf> {
    snap.analysis
        .paths()
        .filter(|p| !snap.is_open(p) && reporting::is_reported(p, &snap.roots))
        .map(Path::to_path_buf)
        .collect()
}

/// After a document changed (push mode): syntax at once, the rest after
/// the debounce.
pub fn document_changed(backend: &Backend, path: PathBuf, version: i32) {
    backend.changed();
    lint::after_edit(backend, path.clone(), version);
    if backend.support().pull_diagnostics {
        return;
    }
    let backend = backend.clone();
    tokio::spawn(async move {
        publish_syntax(&backend, &path, version).await;
        tokio::time::sleep(DEBOUNCE).await;
        if current_version(&backend, &path) == Some(version) {
            publish(&backend, Scope::Open).await;
        }
    });
}

/// After something that can change any file's diagnostics.
pub fn workspace_changed(backend: &Backend) {
    backend.changed();
    let backend = backend.clone();
    tokio::spawn(async move { show_again(&backend, Scope::All).await });
}

/// Has the editor show new diagnostics for `scope`: a pull client is asked
/// to pull again (when it can be), a push client is sent them.
pub async fn show_again(backend: &Backend, scope: Scope) {
    if !backend.support().pull_diagnostics {
        publish(backend, scope).await;
    } else if backend.support().diagnostic_refresh {
        if let Err(e) = backend.client().workspace_diagnostic_refresh().await {
            tracing::info!("diagnostic refresh: {e}");
        }
    }
}

pub fn current_version(backend: &Backend, path: &Path) -> Option<i32> {
    backend.state().documents.get(path).map(|d| d.version)
}

/// Pushes the parse and validation problems of a document when it has
/// any, without waiting for the whole analysis.
async fn publish_syntax(backend: &Backend, path: &Path, version: i32) {
    let (uri, index, config) = {
        let state = backend.state();
        let Some(doc) = state.documents.get(path) else {
            return;
        };
        if doc.version != version {
            return;
        }
        (doc.uri.clone(), doc.index.clone(), state.config.clone())
    };
    let encoding = backend.support().encoding;
    // The analysis' own syntax pass: it reuses the incremental reparse,
    // and the full pass right behind reuses its result.
    let snapshot = backend.snapshot();
    let owned = path.to_path_buf();
    let task = tokio::task::spawn_blocking(move || {
        let problems = snapshot.analysis.syntax_diagnostics(&owned).ok()?;
        Some(to_lsp(&problems, &config, &index, encoding))
    });
    let items = match task.await {
        Ok(Some(items)) => items,
        Ok(None) => return,
        Err(e) => {
            tracing::error!("syntax pass: {:?}", join_error(e));
            return;
        }
    };
    // Without problems, the full pass (right behind) says all there is.
    if items.is_empty() {
        return;
    }
    let mut published = backend.published().lock().await;
    if current_version(backend, path) != Some(version) {
        return;
    }
    let entry = Published {
        uri,
        version: Some(version),
        diagnostics: items,
    };
    send(backend, &mut published, path, entry).await;
}

async fn send(
    backend: &Backend,
    published: &mut HashMap<PathBuf, Published>,
    path: &Path,
    entry: Published,
) {
    let previous = published.get(path);
    let nothing_to_clear =
        previous.is_none() && entry.diagnostics.is_empty() && entry.version.is_none();
    if previous == Some(&entry) || nothing_to_clear {
        return;
    }
    backend
        .client()
        .publish_diagnostics(entry.uri.clone(), entry.diagnostics.clone(), entry.version)
        .await;
    if entry.diagnostics.is_empty() && entry.version.is_none() {
        published.remove(path);
    } else {
        published.insert(path.to_path_buf(), entry);
    }
}

/// Computes and pushes diagnostics for `scope`. A cancelled computation
/// of the whole workspace is retried (nothing else would push it); one of
/// the open documents is dropped (the newer edit pushes its own). During
/// the initial load it waits for it: before, every name from another file
/// would be reported unknown.
pub async fn publish(backend: &Backend, scope: Scope) {
    backend.readiness().wait("publishDiagnostics").await;
    for _attempt in 0..20 {
        let snapshot = backend.snapshot();
        let task = tokio::task::spawn_blocking(move || compute(&snapshot, scope));
        match task.await {
            Ok(Ok(results)) => {
                push_results(backend, scope, results).await;
                return;
            }
            Ok(Err(RequestError::Cancelled)) if scope == Scope::All => {
                tokio::time::sleep(DEBOUNCE).await;
            }
            Ok(Err(_)) => return,
            Err(e) => {
                tracing::error!("diagnostics: {:?}", join_error(e));
                return;
            }
        }
    }
}

/// One file's pushed diagnostics, with the version they were computed for.
struct FileResult {
    path: PathBuf,
    uri: Uri,
    version: Option<i32>,
    items: Vec<lsp::Diagnostic>,
}

fn compute(snap: &Snapshot, scope: Scope) -> Result<Vec<FileResult>, RequestError> {
    let mut out = Vec::new();
    for (path, doc) in snap.open_documents() {
        let items = file_diagnostics(snap, path)?.unwrap_or_default();
        out.push(FileResult {
            path: path.to_path_buf(),
            uri: doc.uri.clone(),
            version: Some(doc.version),
            items,
        });
    }
    if scope == Scope::All {
        for path in reported_closed_files(snap) {
            let Some(uri) = convert::path_to_uri(&path) else {
                continue;
            };
            let items = file_diagnostics(snap, &path)?.unwrap_or_default();
            out.push(FileResult {
                path,
                uri,
                version: None,
                items,
            });
        }
    }
    Ok(out)
}

async fn push_results(backend: &Backend, scope: Scope, results: Vec<FileResult>) {
    let mut published = backend.published().lock().await;
    // Versions now: results for a document edited since are stale.
    let versions: HashMap<PathBuf, i32> = backend
        .state()
        .documents
        .iter()
        .map(|(p, d)| (p.to_path_buf(), d.version))
        .collect();
    let mut covered = HashSet::new();
    for result in results {
        if versions.get(&result.path).copied() != result.version {
            continue;
        }
        covered.insert(result.path.clone());
        let entry = Published {
            uri: result.uri,
            version: result.version,
            diagnostics: result.items,
        };
        send(backend, &mut published, &result.path, entry).await;
    }
    if scope == Scope::All {
        // Files no longer reported (deleted, closed outside the workspace).
        let stale: Vec<(PathBuf, Uri)> = published
            .iter()
            .filter(|(path, _)| !covered.contains(*path) && !versions.contains_key(*path))
            .map(|(path, p)| (path.clone(), p.uri.clone()))
            .collect();
        for (path, uri) in stale {
            let entry = Published {
                uri,
                version: None,
                diagnostics: Vec::new(),
            };
            send(backend, &mut published, &path, entry).await;
        }
    }
}

/// `textDocument/diagnostic`.
pub async fn document_report(
    backend: &Backend,
    params: lsp::DocumentDiagnosticParams,
) -> jsonrpc::Result<lsp::DocumentDiagnosticReportResult> {
    let uri = params.text_document.uri;
    let previous = params.previous_result_id;
    backend
        .on_workspace_snapshot("textDocument/diagnostic", move |snap| {
            let path = snap.path(&uri)?;
            let items = file_diagnostics(snap, &path)?.unwrap_or_default();
            let id = result_id(&items);
            let report = if previous.as_deref() == Some(id.as_str()) {
                lsp::DocumentDiagnosticReport::Unchanged(
                    lsp::RelatedUnchangedDocumentDiagnosticReport {
                        related_documents: None,
                        unchanged_document_diagnostic_report:
                            lsp::UnchangedDocumentDiagnosticReport { result_id: id },
                    },
                )
            } else {
                lsp::DocumentDiagnosticReport::Full(lsp::RelatedFullDocumentDiagnosticReport {
                    related_documents: None,
                    full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                        result_id: Some(id),
                        items,
                    },
                })
            };
            Ok(lsp::DocumentDiagnosticReportResult::Report(report))
        })
        .await
}

/// `workspace/diagnostic`: the workspace files that are not open. A file
/// without problems is reported only to clear what the client had.
///
/// Long-polled, as the protocol intends: when the client already has every
/// result (all unchanged), the answer waits until something changes
/// instead of returning nothing new at once (which makes a client ask
/// again and again while idle).
pub async fn workspace_report(
    backend: &Backend,
    params: lsp::WorkspaceDiagnosticParams,
) -> jsonrpc::Result<lsp::WorkspaceDiagnosticReportResult> {
    let previous: Arc<HashMap<String, String>> = Arc::new(
        params
            .previous_result_ids
            .into_iter()
            .map(|p| (p.uri.as_str().to_string(), p.value))
            .collect(),
    );
    let mut changes = backend.changes();
    loop {
        changes.borrow_and_update();
        let known = previous.clone();
        let (items, news) = backend
            .on_workspace_snapshot("workspace/diagnostic", move |snap| {
                workspace_items(snap, &known)
            })
            .await?;
        if news || previous.is_empty() || backend.state().shut_down {
            return Ok(lsp::WorkspaceDiagnosticReportResult::Report(
                lsp::WorkspaceDiagnosticReport { items },
            ));
        }
        if changes.changed().await.is_err() {
            return Ok(lsp::WorkspaceDiagnosticReportResult::Report(
                lsp::WorkspaceDiagnosticReport { items },
            ));
        }
    }
}

/// The reports of the closed workspace files against the client's
/// results, and whether any is new.
fn workspace_items(
    snap: &Snapshot,
    previous: &HashMap<String, String>,
) -> Result<(Vec<lsp::WorkspaceDocumentDiagnosticReport>, bool), RequestError> {
    let mut items = Vec::new();
    let mut news = false;
    for path in reported_closed_files(snap) {
        let Some(uri) = convert::path_to_uri(&path) else {
            continue;
        };
        let diagnostics = file_diagnostics(snap, &path)?.unwrap_or_default();
        let id = result_id(&diagnostics);
        let before = previous.get(uri.as_str());
        if before == Some(&id) {
            items.push(lsp::WorkspaceDocumentDiagnosticReport::Unchanged(
                lsp::WorkspaceUnchangedDocumentDiagnosticReport {
                    uri,
                    version: None,
                    unchanged_document_diagnostic_report: lsp::UnchangedDocumentDiagnosticReport {
                        result_id: id,
                    },
                },
            ));
        } else if !diagnostics.is_empty() || before.is_some() {
            news = true;
            items.push(lsp::WorkspaceDocumentDiagnosticReport::Full(
                lsp::WorkspaceFullDocumentDiagnosticReport {
                    uri,
                    version: None,
                    full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                        result_id: Some(id),
                        items: diagnostics,
                    },
                },
            ));
        }
    }
    Ok((items, news))
}
