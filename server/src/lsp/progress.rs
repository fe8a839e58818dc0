//! `window/workDoneProgress` for long server-side work (indexing): the
//! token is created with `window/workDoneProgress/create` when the client
//! supports it; otherwise every call is a no-op.
//!
//! The report runs in a task of its own, fed the latest step through a
//! watch channel: the work never waits for the client's answer to
//! `create`. A client that answers late (or only once its own request is
//! answered) would otherwise hold up indexing, and with it every request
//! waiting for the workspace (`readiness.rs`). Steps sent meanwhile are
//! coalesced: the editor sees the latest.

use super::backend::Backend;
use tokio::sync::watch;
use tower_lsp_server::lsp_types::request::WorkDoneProgressCreate;
use tower_lsp_server::lsp_types::{NumberOrString, WorkDoneProgressCreateParams};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Report(u32, String),
    End(String),
}

/// A progress report in the editor (or nothing).
pub struct Progress {
    step: Option<watch::Sender<Option<Step>>>,
}

impl Progress {
    /// Begins a report at 0% (in the background).
    pub fn begin(backend: &Backend, title: &str) -> Progress {
        if !backend.support().work_done_progress {
            return Progress { step: None };
        }
        let (step, steps) = watch::channel(None);
        tokio::spawn(run(backend.clone(), title.to_string(), steps));
        Progress { step: Some(step) }
    }

    pub fn report(&self, percentage: u32, message: String) {
        if let Some(step) = &self.step {
            step.send_replace(Some(Step::Report(percentage.min(100), message)));
        }
    }

    pub fn end(self, message: String) {
        if let Some(step) = &self.step {
            step.send_replace(Some(Step::End(message)));
        }
    }
}

/// Creates the token, begins, then follows the steps until the end (or
/// until the work is dropped without one).
async fn run(backend: Backend, title: String, mut steps: watch::Receiver<Option<Step>>) {
    let token = NumberOrString::String(format!("puppet-ls/{}", backend.next_token()));
    let created = backend
        .client()
        .send_request::<WorkDoneProgressCreate>(WorkDoneProgressCreateParams {
            token: token.clone(),
        })
        .await;
    if let Err(e) = created {
        tracing::info!("workDoneProgress/create refused: {e}");
        return;
    }
    let ongoing = backend
        .client()
        .progress(token, title)
        .with_percentage(0)
        .begin()
        .await;
    loop {
        let step = steps.borrow_and_update().clone();
        match step {
            Some(Step::End(message)) => {
                ongoing.finish_with_message(message).await;
                return;
            }
            Some(Step::Report(percentage, message)) => {
                ongoing.report_with_message(message, percentage).await;
            }
            None => {}
        }
        if steps.changed().await.is_err() {
            ongoing.finish().await;
            return;
        }
    }
}
