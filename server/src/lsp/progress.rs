//! `window/workDoneProgress` for long server-side work (indexing): the
//! token is created with `window/workDoneProgress/create` when the client
//! supports it; otherwise every call is a no-op.

use super::backend::Backend;
use tower_lsp_server::lsp_types::request::WorkDoneProgressCreate;
use tower_lsp_server::lsp_types::{NumberOrString, WorkDoneProgressCreateParams};
use tower_lsp_server::{Bounded, NotCancellable, OngoingProgress};

/// A progress report in the editor (or nothing).
pub struct Progress {
    ongoing: Option<OngoingProgress<Bounded, NotCancellable>>,
}

impl Progress {
    /// Begins a report at 0%.
    pub async fn begin(backend: &Backend, title: &str) -> Progress {
        if !backend.support().work_done_progress {
            return Progress { ongoing: None };
        }
        let token = NumberOrString::String(format!("puppet-ls/{}", backend.next_token()));
        let created = backend
            .client()
            .send_request::<WorkDoneProgressCreate>(WorkDoneProgressCreateParams {
                token: token.clone(),
            })
            .await;
        if let Err(e) = created {
            tracing::info!("workDoneProgress/create refused: {e}");
            return Progress { ongoing: None };
        }
        let ongoing = backend
            .client()
            .progress(token, title)
            .with_percentage(0)
            .begin()
            .await;
        Progress {
            ongoing: Some(ongoing),
        }
    }

    pub async fn report(&self, percentage: u32, message: String) {
        if let Some(ongoing) = &self.ongoing {
            ongoing
                .report_with_message(message, percentage.min(100))
                .await;
        }
    }

    pub async fn end(self, message: String) {
        if let Some(ongoing) = self.ongoing {
            ongoing.finish_with_message(message).await;
        }
    }
}
