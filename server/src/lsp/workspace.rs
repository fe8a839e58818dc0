//! The workspace: discovery at start-up (with a progress report), files
//! changed outside the editor, workspace folders added or removed.

use super::Backend;
use puppet_analysis::workspace::discover;
use std::path::PathBuf;
use tower_lsp_server::lsp_types::{self as lsp, FileChangeType};

impl Backend {
    /// Discovers modules and files under the roots and module paths and
    /// loads every file that is not open in the editor.
    pub(super) async fn index_workspace(&self) {
        let (paths, progress) = {
            let state = self.lock();
            (state.discovery_paths(), state.support.work_done_progress)
        };
        let token = lsp::NumberOrString::String("puppet-ls/indexing".into());
        let report = if progress {
            let created = self
                .client
                .send_request::<lsp::request::WorkDoneProgressCreate>(
                    lsp::WorkDoneProgressCreateParams {
                        token: token.clone(),
                    },
                )
                .await
                .is_ok();
            if created {
                Some(
                    self.client
                        .progress(token, "Indexing Puppet code")
                        .with_message(format!("{} roots", paths.len()))
                        .begin()
                        .await,
                )
            } else {
                None
            }
        } else {
            None
        };
        let loaded = tokio::task::spawn_blocking(move || {
            let discovered = discover(&paths);
            let files: Vec<(PathBuf, String)> = discovered
                .files
                .into_iter()
                .chain(discovered.ruby_files)
                .filter_map(|path| {
                    let bytes = std::fs::read(&path).ok()?;
                    Some((path, String::from_utf8_lossy(&bytes).into_owned()))
                })
                .collect();
            (discovered.layout, files)
        })
        .await;
        if let Ok((layout, files)) = loaded {
            let count = files.len();
            {
                let mut state = self.lock();
                state.host.set_layout(layout);
                let files: Vec<(PathBuf, String)> = files
                    .into_iter()
                    .filter(|(p, _)| !state.documents.contains_key(p))
                    .collect();
                state.host.set_files(files);
            }
            tracing::info!("indexed {count} files");
            if let Some(report) = &report {
                report.report(format!("{count} files")).await;
            }
        }
        if let Some(report) = report {
            report.finish_with_message("done").await;
        }
        self.publish_all().await;
    }

    /// Files created, changed or deleted outside the editor.
    pub(super) async fn files_changed(&self, changes: Vec<lsp::FileEvent>) {
        let mut rediscover = false;
        for change in changes {
            let Some(path) = super::convert::path(&change.uri) else {
                continue;
            };
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if matches!(
                name,
                "metadata.json" | "environment.conf" | "Puppetfile" | ".fixtures.yml"
            ) {
                rediscover = true;
                continue;
            }
            let mut state = self.lock();
            if state.documents.contains_key(&path) {
                continue;
            }
            if change.typ == FileChangeType::DELETED {
                state.host.remove_file(&path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                state.set_text(&path, text);
            }
        }
        if rediscover {
            self.index_workspace().await;
        } else {
            self.publish_all().await;
        }
    }
}
