//! The server's state: the analysis host, the open documents and the
//! negotiated settings. One `std::sync::Mutex` guards it; document changes
//! are applied under it before any `.await`, so they take effect in
//! arrival order.

use super::config::Config;
use puppet_analysis::host::AnalysisHost;
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An open document: its version and text (inside the line index).
pub struct Document {
    pub version: i32,
    pub index: Arc<LineIndex>,
}

/// What the client said it can do, from `initialize`.
#[derive(Default, Clone, Copy)]
pub struct ClientSupport {
    pub pull_diagnostics: bool,
    pub resource_operations: bool,
    pub work_done_progress: bool,
    pub watch_files: bool,
}

pub struct State {
    pub host: AnalysisHost,
    pub documents: HashMap<PathBuf, Document>,
    pub encoding: ColumnEncoding,
    pub config: Config,
    pub roots: Vec<PathBuf>,
    pub support: ClientSupport,
    pub shut_down: bool,
}

impl State {
    pub fn new() -> State {
        State {
            host: AnalysisHost::from_files(Vec::new()),
            documents: HashMap::new(),
            encoding: ColumnEncoding::Utf16,
            config: Config::default(),
            roots: Vec::new(),
            support: ClientSupport::default(),
            shut_down: false,
        }
    }

    /// Sets a file's text in the analysis (the one place edits reach it).
    pub fn set_text(&mut self, path: &Path, text: String) {
        self.host.set_file(path, text);
    }

    /// The directories to discover modules in: workspace roots and the
    /// configured module paths.
    pub fn discovery_paths(&self) -> Vec<PathBuf> {
        let mut paths = self.roots.clone();
        paths.extend(self.config.module_paths.iter().cloned());
        paths
    }
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}
