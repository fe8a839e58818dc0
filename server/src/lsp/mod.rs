//! The language server over stdio (tower-lsp-server on tokio).
//!
//! - `backend.rs`: the `LanguageServer` impl; new request handlers go
//!   there, answering through `Backend::on_snapshot`.
//! - `ordered.rs` + `sync.rs`: document notifications applied in arrival
//!   order; `documents.rs`: the open documents; `state.rs`: everything
//!   mutable, behind one std mutex never held across an await.
//! - `snapshot.rs`: read-only snapshots and running requests on blocking
//!   threads (panics and cancellations become error replies).
//! - `diagnostics.rs` (push and pull), `lint.rs` (puppet-lint's checks
//!   off the keystroke's path), `workspace.rs` (indexing, file
//!   watching, folders, settings), `progress.rs`, `config.rs`.
//! - `readiness.rs`: the initial workspace load as a signal that
//!   requests needing the workspace wait for (bounded).
//! - `convert.rs`: analysis plain data to and from LSP types.
//! - `transport.rs`: checks every incoming message before the library
//!   sees it.

mod backend;
mod call_hierarchy;
mod code_actions;
mod config;
mod convert;
mod diagnostics;
mod documents;
mod features;
mod lint;
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
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

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
    fn filter(self) -> LevelFilter {
        match self {
            LogLevel::Error => LevelFilter::ERROR,
            LogLevel::Warn => LevelFilter::WARN,
            LogLevel::Info => LevelFilter::INFO,
            LogLevel::Debug => LevelFilter::DEBUG,
            LogLevel::Trace => LevelFilter::TRACE,
        }
    }
}

/// puppet-ls's own crates: `--log-level` is for them.
const OWN_CRATES: [&str; 4] = [
    "puppet_ls",
    "puppet_analysis",
    "puppet_syntax",
    "puppet_format",
];

/// What is logged: puppet-ls's crates at `level`, the libraries (the
/// database, the LSP framework) at warnings only, so that `--log-level
/// info` shows what the server does, not the internals of its libraries.
/// `PUPPET_LS_LOG` (`salsa=debug,puppet_analysis=trace`) adds or
/// overrides targets.
pub fn log_filter(level: LogLevel, overrides: Option<&str>) -> Targets {
    let mut targets = Targets::new().with_default(LevelFilter::WARN.min(level.filter()));
    for own in OWN_CRATES {
        targets = targets.with_target(own, level.filter());
    }
    let overrides = overrides.and_then(|text| match text.parse::<Targets>() {
        Ok(parsed) => Some(parsed),
        Err(e) => {
            eprintln!("puppet-ls: PUPPET_LS_LOG ignored: {e}");
            None
        }
    });
    if let Some(overrides) = overrides {
        for (target, level) in &overrides {
            targets = targets.with_target(target, level);
        }
        if let Some(default) = overrides.default_level() {
            targets = targets.with_default(default);
        }
    }
    targets
}

/// Serves LSP over stdin/stdout until `exit` (or the end of input). The
/// exit status is success only after a `shutdown` request, as LSP asks.
pub fn run(log_level: LogLevel) -> ExitCode {
    let filter = log_filter(log_level, std::env::var("PUPPET_LS_LOG").ok().as_deref());
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .finish()
        .with(filter)
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

#[cfg(test)]
mod log_filter_tests {
    use super::{log_filter, LogLevel};
    use tracing::Level;

    #[test]
    fn the_level_is_for_puppet_ls_and_libraries_log_warnings() {
        let filter = log_filter(LogLevel::Info, None);
        assert!(filter.would_enable("puppet_ls::lsp::sync", &Level::INFO));
        assert!(filter.would_enable("puppet_analysis::db", &Level::INFO));
        assert!(!filter.would_enable("puppet_analysis::db", &Level::DEBUG));
        assert!(!filter.would_enable("salsa::function::execute", &Level::INFO));
        assert!(filter.would_enable("salsa::function::execute", &Level::WARN));
        let quiet = log_filter(LogLevel::Error, None);
        assert!(!quiet.would_enable("tower_lsp_server", &Level::WARN));
        assert!(!quiet.would_enable("puppet_ls", &Level::WARN));
    }

    #[test]
    fn the_environment_adds_and_overrides_targets() {
        let filter = log_filter(LogLevel::Warn, Some("salsa=debug,puppet_analysis=trace"));
        assert!(filter.would_enable("salsa::function", &Level::DEBUG));
        assert!(filter.would_enable("puppet_analysis::infer", &Level::TRACE));
        assert!(!filter.would_enable("puppet_ls", &Level::INFO));
        // Unparsable text is ignored (reported on stderr), not fatal.
        let filter = log_filter(LogLevel::Info, Some("=,=nonsense=="));
        assert!(filter.would_enable("puppet_ls", &Level::INFO));
    }
}
