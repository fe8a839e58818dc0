//! The language server over stdio (tower-lsp-server on tokio).
//!
//! - `backend.rs`: the `LanguageServer` impl; new request handlers go
//!   there, answering through `Backend::on_snapshot`.
//! - `ordered.rs` + `sync.rs`: document notifications applied in arrival
//!   order; `documents.rs`: the open documents; `state.rs`: everything
//!   mutable, behind one std mutex never held across an await.
//! - `snapshot.rs`: read-only snapshots and running requests on blocking
//!   threads (panics and cancellations become error replies).
//! - `diagnostics.rs` (push and pull), `workspace.rs` (indexing, file
//!   watching, folders, settings), `progress.rs`, `config.rs`.
//! - `readiness.rs`: the initial workspace load as a signal that
//!   requests needing the workspace wait for (bounded).
//! - `convert.rs`: analysis plain data to and from LSP types.
//! - `transport.rs`: checks every incoming message before the library
//!   sees it.

mod backend;
mod config;
mod convert;
mod diagnostics;
mod documents;
mod features;
mod ordered;
mod progress;
mod readiness;
mod snapshot;
mod state;
mod sync;
mod transport;
mod workspace;

use std::process::ExitCode;
use tower_lsp_server::{LspService, Server};

/// Stack size of the runtime's threads: deep Puppet expressions recurse.
const STACK_SIZE: usize = 16 * 1024 * 1024;
/// Messages handled at once (the library's default is 4). A message's
/// handler starts only when a slot is free, and requests held for the
/// initial load occupy slots: with few, they would hold up the handlers
/// of `$/cancelRequest` and `shutdown` until the load ends.
const MAX_CONCURRENT_REQUESTS: usize = 64;

/// Log levels accepted by `--log-level`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl LogLevel {
    fn filter(self) -> tracing::Level {
        match self {
            LogLevel::Error => tracing::Level::ERROR,
            LogLevel::Warn => tracing::Level::WARN,
            LogLevel::Info => tracing::Level::INFO,
            LogLevel::Debug => tracing::Level::DEBUG,
            LogLevel::Trace => tracing::Level::TRACE,
        }
    }
}

/// Serves LSP over stdin/stdout until `exit` (or the end of input). The
/// exit status is success only after a `shutdown` request, as LSP asks.
pub fn run(log_level: LogLevel) -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(log_level.filter())
        .with_ansi(false)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(STACK_SIZE)
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::error!("cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let clean = runtime.block_on(async {
        let (service, socket) = LspService::build(backend::Backend::new)
            .custom_method("puppet-ls/syntaxTree", backend::Backend::syntax_tree)
            .custom_method(
                transport::INVALID_MESSAGE,
                |_: &backend::Backend, params| transport::invalid_message(params),
            )
            .finish();
        let backend = service.inner().clone();
        let service = ordered::Ordered::new(service);
        Server::new(transport::guarded_stdin(), tokio::io::stdout(), socket)
            .concurrency_level(MAX_CONCURRENT_REQUESTS)
            .serve(service)
            .await;
        backend.is_shut_down()
    });
    // Background work (a diagnostics pass, indexing) is abandoned.
    runtime.shutdown_background();
    if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
