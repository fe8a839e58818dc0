//! The workspace on disk: indexing (module discovery and loading, with a
//! progress report), file watching, workspace folders and settings.

use super::backend::Backend;
use super::config::Config;
use super::convert;
use super::diagnostics;
use super::progress::Progress;
use puppet_analysis::workspace::add_global_hiera;
use puppet_analysis::workspace::discover;
use puppet_vfs::{DiskFs, FileSystem};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tower_lsp_server::lsp_types::{
    DidChangeWatchedFilesRegistrationOptions, FileChangeType, FileEvent, FileSystemWatcher,
    GlobPattern, Registration, WorkspaceFoldersChangeEvent,
};

/// Files whose change matters, as watch patterns.
const WATCHED: [&str; 12] = [
    "**/*.pp",
    // The Puppet a project requires (with metadata.json).
    "**/Gemfile",
    "**/*.epp",
    "**/*.rb",
    "**/metadata.json",
    "**/environment.conf",
    "**/*.yaml",
    "**/*.yml",
    "**/*.json",
    "**/*.eyaml",
    // Modules' files, which links and `unknown-module-file` check.
    "**/templates/**",
    "**/files/**",
];
/// Files read per blocking task while indexing (one progress step each).
const READ_CHUNK: usize = 200;

/// Files that change the layout (which directories are modules or
/// environments): a change means discovering again.
fn is_layout_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == "metadata.json" || n == "environment.conf" || n == "hiera.yaml")
}

fn is_source_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e == "pp" || e == "epp" || e == "rb")
}

fn read_text(path: &Path) -> Option<String> {
    let bytes = DiskFs.read(path)?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Test-only: `PUPPET_LS_TEST_INDEX_DELAY_MS` holds every indexing run
/// this long before it applies what it read, so that tests can send
/// requests while the workspace is still loading. Not a setting.
const TEST_DELAY_ENV: &str = "PUPPET_LS_TEST_INDEX_DELAY_MS";

fn test_delay() -> Option<Duration> {
    let ms = std::env::var(TEST_DELAY_ENV).ok()?.trim().parse().ok()?;
    Some(Duration::from_millis(ms))
}

/// Asks the client to watch the workspace's files, if it can be asked.
pub async fn register_watchers(backend: Backend) {
    if !backend.support().watch_registration {
        return;
    }
    let options = DidChangeWatchedFilesRegistrationOptions {
        watchers: WATCHED
            .iter()
            .map(|glob| FileSystemWatcher {
                glob_pattern: GlobPattern::String(glob.to_string()),
                kind: None,
            })
            .collect(),
    };
    let registration = Registration {
        id: "puppet-ls/watched-files".to_string(),
        method: "workspace/didChangeWatchedFiles".to_string(),
        register_options: serde_json::to_value(options).ok(),
    };
    if let Err(e) = backend
        .client()
        .register_capability(vec![registration])
        .await
    {
        tracing::warn!("cannot register file watching: {e}");
    }
}

/// Discovers modules under the workspace folders and module paths, loads
/// every file (open documents keep the editor's text), then reports
/// diagnostics. Runs of this are serialized. The first one applied makes
/// the workspace ready (`readiness.rs`).
pub async fn index(backend: Backend) {
    let _running = backend.indexing_lock().lock().await;
    let (roots, global) = {
        let state = backend.state();
        (
            state.search_roots(),
            state.config.global_hiera().map(Path::to_path_buf),
        )
    };
    let progress = Progress::begin(&backend, "Indexing Puppet code");
    let discovered = {
        let roots = roots.clone();
        let discover = move || {
            let mut discovered = discover(&DiskFs, &roots);
            if let Some(global) = &global {
                add_global_hiera(&DiskFs, &mut discovered, global);
            }
            discovered
        };
        match tokio::task::spawn_blocking(discover).await {
            Ok(discovered) => discovered,
            Err(e) => {
                tracing::error!("discovery failed: {e}");
                backend.readiness().settle("discovery failed");
                progress.end("failed".to_string());
                return;
            }
        }
    };
    let paths: Vec<PathBuf> = discovered
        .files
        .iter()
        .chain(&discovered.ruby_files)
        .chain(&discovered.data_files)
        .chain(&discovered.metadata_files)
        .cloned()
        .collect();
    let total = paths.len().max(1);
    let mut loaded = Vec::with_capacity(paths.len());
    for chunk in paths.chunks(READ_CHUNK) {
        let chunk = chunk.to_vec();
        let read = tokio::task::spawn_blocking(move || {
            chunk
                .into_iter()
                .filter_map(|p| read_text(&p).map(|t| (p, t)))
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_default();
        loaded.extend(read);
        let done = loaded.len();
        let percentage = u32::try_from(done * 90 / total).unwrap_or(90);
        progress.report(percentage, format!("{done}/{total} files"));
    }
    let count = loaded.len();
    if let Some(delay) = test_delay() {
        tokio::time::sleep(delay).await;
    }
    {
        let mut state = backend.state();
        state.load_from_disk(discovered.layout, discovered.assets, loaded);
        // The Puppet the project requires (metadata.json, Gemfile) may
        // have changed with the files.
        let config = state.config.clone();
        state.apply_config(config);
    }
    announce_target(&backend);
    backend.readiness().settle("indexed");
    tracing::info!("indexed {count} files under {roots:?}");
    progress.report(95, "checking".to_string());
    diagnostics::workspace_changed(&backend);
    progress.end(format!("{count} files"));
}

/// The `puppet-ls/target` notification: the Puppet the workspace is
/// checked for and where its version came from (`{"version": "8",
/// "strict": "error", "strictVariables": true, "description": "Puppet 8
/// (...; version the default)"}`), for the editor's status.
#[derive(Debug)]
pub enum TargetNotification {}

impl tower_lsp_server::lsp_types::notification::Notification for TargetNotification {
    type Params = serde_json::Value;
    const METHOD: &'static str = "puppet-ls/target";
}

fn announce_target(backend: &Backend) {
    let params = {
        let state = backend.state();
        let target = state.target.target;
        serde_json::json!({
            "version": target.version.to_string(),
            "strict": target.strict.as_str(),
            "strictVariables": target.strict_variables,
            "description": state.target.to_string(),
        })
    };
    let client = backend.client().clone();
    tokio::spawn(async move {
        client.send_notification::<TargetNotification>(params).await;
    });
}

/// `workspace/didChangeWatchedFiles`: files changed outside the editor are
/// read again (open ones keep the editor's text); a new or removed
/// `metadata.json` or `environment.conf` means discovering again.
pub async fn watched_files_changed(backend: &Backend, changes: Vec<FileEvent>) {
    let mut rediscover = false;
    let mut reads = Vec::new();
    let mut deletes = Vec::new();
    let mut created = Vec::new();
    let mut requirements_changed = false;
    for change in changes {
        let Some(path) = convert::uri_to_path(&change.uri) else {
            continue;
        };
        requirements_changed |= path
            .file_name()
            .is_some_and(|n| n == "metadata.json" || n == "Gemfile");
        if is_layout_file(&path) {
            rediscover = true;
            continue;
        } else if change.typ == FileChangeType::DELETED {
            deletes.push(path);
            continue;
        }
        if change.typ == FileChangeType::CREATED {
            created.push(path.clone());
        }
        if is_source_file(&path) || {
            // Data files: those discovery found, or a new file in a data
            // directory of a hierarchy; not any YAML file.
            let state = backend.state();
            state.disk_files.contains(&path) || state.is_analysed(&path)
        } {
            reads.push(path);
        }
    }
    if rediscover {
        tokio::spawn(index(backend.clone()));
        return;
    }
    let read = tokio::task::spawn_blocking(move || {
        reads
            .into_iter()
            .filter_map(|p| read_text(&p).map(|t| (p, t)))
            .collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    {
        let mut state = backend.state();
        let roots = state.search_roots();
        for path in &deletes {
            state.disk_path_deleted(path);
        }
        for path in &created {
            state.host.asset_created(path);
        }
        for (path, text) in read {
            if roots.iter().any(|r| path.starts_with(r)) {
                state.disk_file_changed(&path, text);
            }
        }
        if requirements_changed {
            // The Puppet the project requires may have changed.
            let config = state.config.clone();
            state.apply_config(config);
        }
    }
    if requirements_changed {
        announce_target(backend);
    }
    diagnostics::workspace_changed(backend);
}

/// `workspace/didChangeWorkspaceFolders`.
pub fn folders_changed(backend: &Backend, event: WorkspaceFoldersChangeEvent) {
    {
        let mut state = backend.state();
        for folder in &event.removed {
            if let Some(path) = convert::uri_to_path(&folder.uri) {
                state.roots.retain(|r| *r != path);
            }
        }
        for folder in &event.added {
            if let Some(path) = convert::uri_to_path(&folder.uri) {
                if !state.roots.contains(&path) {
                    state.roots.push(path);
                }
            }
        }
    }
    tokio::spawn(index(backend.clone()));
}

/// `workspace/didChangeConfiguration`: new settings; new module paths mean
/// indexing again, anything else only new diagnostics.
pub fn configuration_changed(backend: &Backend, settings: &Value) {
    if settings.is_null() {
        return;
    }
    let (reindex, lenses_changed) = {
        let mut state = backend.state();
        let config = Config::for_workspace(settings, state.roots.first().map(PathBuf::as_path));
        let lenses_changed = config.code_lens != state.config.code_lens;
        let reindex = config.module_paths() != state.config.module_paths()
            || config.global_hiera() != state.config.global_hiera();
        state.apply_config(config);
        (reindex, lenses_changed)
    };
    if lenses_changed && backend.support().code_lens_refresh {
        let client = backend.client().clone();
        tokio::spawn(async move {
            let _ = client.code_lens_refresh().await;
        });
    }
    if reindex {
        tokio::spawn(index(backend.clone()));
    } else {
        announce_target(backend);
        diagnostics::workspace_changed(backend);
    }
}
