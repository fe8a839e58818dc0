//! The server's mutable state, behind one std `Mutex` that is never held
//! across an `.await`: the analysis host, the open documents, the settings
//! and the workspace roots.

use super::config::Config;
use super::documents::Documents;
use super::lint::LintResults;
use crate::target::TargetChoice;
use puppet_analysis::docs::DocSource;
use puppet_analysis::hiera::layers::is_hiera_path;
use puppet_analysis::host::AnalysisHost;
use puppet_analysis::metadata::is_metadata_path;
use puppet_analysis::workspace::Layout;
use puppet_vfs::DiskFs;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct State {
    pub host: AnalysisHost,
    pub documents: Documents,
    pub config: Config,
    /// Workspace folders (the roots whose files are reported).
    pub roots: Vec<PathBuf>,
    /// Files last loaded from disk by indexing or file watching.
    pub disk_files: BTreeSet<PathBuf>,
    /// `initialize` has been answered; document notifications apply.
    pub initialized: bool,
    /// `shutdown` was received: nothing changes any more.
    pub shut_down: bool,
    /// Each file's last puppet-lint findings.
    pub lint: Arc<LintResults>,
    /// The Puppet the workspace is checked for, and why.
    pub target: TargetChoice,
}

/// An empty host that finds Puppet's reference text for hovers where
/// Puppet is installed (or in `$PUPPET_LS_PUPPET_LIB`, a directory holding
/// `puppet/`).
fn host_with_docs() -> AnalysisHost {
    let mut host = AnalysisHost::new(Layout::default());
    let extra = std::env::var_os("PUPPET_LS_PUPPET_LIB").map(PathBuf::from);
    host.set_docs(DocSource::discover(Arc::new(DiskFs), extra));
    host
}

impl Default for State {
    fn default() -> State {
        State {
            host: host_with_docs(),
            documents: Documents::default(),
            config: Config::default(),
            roots: Vec::new(),
            disk_files: BTreeSet::new(),
            initialized: false,
            shut_down: false,
            lint: Arc::default(),
            target: TargetChoice::choose(&[], || None),
        }
    }
}

impl State {
    /// Puts new settings in force: the Hiera node of hovers, and the Puppet
    /// the workspace is checked for (every verdict that depends on it is
    /// recomputed, without a restart). Returns whether the target changed.
    pub fn apply_config(&mut self, config: Config) -> bool {
        self.host.set_hiera_node(config.hiera_node());
        let target = config.target_choice(&self.roots);
        let changed = target != self.target;
        if changed {
            tracing::info!("checking for {target}");
        }
        self.host.set_target(target.target, &target.source_text());
        self.target = target;
        self.config = config;
        changed
    }

    /// Gives the analysis an open document's current text. The one place
    /// editor text reaches the host: the editor's `edits` reparse the
    /// previous tree incrementally; without them (an opened document), or
    /// if the analysis' text did not match, the whole text is set.
    pub fn sync_document(&mut self, path: &Path, edits: Option<&[puppet_syntax::TextEdit]>) {
        let Some(doc) = self.documents.get(path) else {
            return;
        };
        if !self.is_analysed(path) {
            return;
        }
        if let Some(edits) = edits {
            if self.host.apply_edits(path, edits, doc.index.clone()) {
                return;
            }
            tracing::warn!(
                "{}: incremental edit out of step; setting the text",
                path.display()
            );
        }
        let text = doc.text().to_string();
        self.host.set_file(path, text);
    }

    /// Whether the analysis takes a document: Puppet sources and templates,
    /// Ruby plugins, and of YAML and JSON only Hiera's files and modules'
    /// `metadata.json` (an editor may send any YAML or JSON file it has
    /// open).
    pub fn is_analysed(&self, path: &Path) -> bool {
        if is_metadata_path(path) {
            let root = path.parent();
            return self
                .host
                .layout()
                .modules
                .iter()
                .any(|m| Some(m.root.as_path()) == root);
        }
        match path.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml" | "json" | "eyaml") => {
                let analysis = self.host.analysis();
                is_hiera_path(analysis.db(), analysis.workspace(), path)
            }
            _ => true,
        }
    }

    /// After a document is closed: the analysis goes back to the file on
    /// disk if the workspace has it, else forgets it.
    pub fn revert_to_disk(&mut self, path: &Path, disk_text: Option<String>) {
        match disk_text {
            Some(text) if self.disk_files.contains(path) => self.host.set_file(path, text),
            _ => {
                self.disk_files.remove(path);
                self.host.remove_file(path);
            }
        }
    }

    /// Directories whose files belong to the workspace: the folders and
    /// the configured module paths.
    pub fn search_roots(&self) -> Vec<PathBuf> {
        let mut roots = self.roots.clone();
        for path in self.config.module_paths() {
            if !roots.contains(path) {
                roots.push(path.clone());
            }
        }
        roots
    }

    /// Replaces what was loaded from disk with a new discovery's result;
    /// open documents keep the editor's text.
    pub fn load_from_disk(
        &mut self,
        layout: Layout,
        assets: Vec<PathBuf>,
        files: Vec<(PathBuf, String)>,
    ) {
        self.host.set_layout(layout);
        self.host.set_assets(assets.into_iter().collect());
        let loaded: BTreeSet<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
        for gone in self.disk_files.difference(&loaded) {
            if !self.documents.is_open(gone) {
                self.host.remove_file(gone);
            }
        }
        let files: Vec<(PathBuf, String)> = files
            .into_iter()
            .filter(|(p, _)| !self.documents.is_open(p))
            .collect();
        self.host.set_files(files);
        self.disk_files = loaded;
        // Documents opened before the layout showed they belong to the
        // analysis (a metadata.json or Hiera file opened while indexing)
        // are given their editor's text now.
        let pending: Vec<PathBuf> = self
            .documents
            .iter()
            .map(|(path, _)| path.to_path_buf())
            .filter(|path| self.host.text(path).is_none())
            .collect();
        for path in pending {
            self.sync_document(&path, None);
        }
    }

    /// A file changed or appeared on disk (ignored while open: the editor's
    /// text wins).
    pub fn disk_file_changed(&mut self, path: &Path, text: String) {
        self.disk_files.insert(path.to_path_buf());
        if !self.documents.is_open(path) {
            self.host.set_file(path, text);
        }
    }

    /// A file or directory was deleted on disk.
    pub fn disk_path_deleted(&mut self, path: &Path) {
        self.host.assets_deleted(path);
        let gone: Vec<PathBuf> = self
            .disk_files
            .iter()
            .filter(|p| p.starts_with(path))
            .cloned()
            .collect();
        for file in gone {
            self.disk_files.remove(&file);
            if !self.documents.is_open(&file) {
                self.host.remove_file(&file);
            }
        }
    }
}
