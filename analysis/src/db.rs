//! The incremental database (salsa): inputs are file texts and the
//! workspace's file set; everything else is derived, memoized, and
//! recomputed only when its inputs really changed (with early cutoff: a
//! query whose new result equals the old one does not invalidate its
//! dependents).
//!
//! The layering follows rust-analyzer: `parse(file)` -> position-free
//! `file_summary(file)` -> workspace `definition_index` -> per-file
//! analyses and diagnostics. An edit inside a class body changes that file's
//! parse but not its summary, so the index and every other file are reused.

use puppet_syntax::line_index::LineIndex;
use puppet_syntax::{Parse, SharedText, SourceKind};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// One Puppet source file (manifest or template) and its current text.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub text: SharedText,
    pub kind: SourceKind,
    /// The tree of `text` when it was made outside the database: by an
    /// editor's edit, incrementally (`Parse::reparse` on the previous
    /// tree), or at load, in parallel. `parse` then uses it instead of
    /// parsing the whole text again.
    #[returns(ref)]
    pub reparsed: Option<Reparsed>,
    /// The file's items: its top level, then its definitions in text order
    /// (kept by the host, see `puppet_runtime::hir::items`).
    #[returns(ref)]
    pub items: Vec<Item>,
    /// Where the items are (parallel to `items`).
    #[returns(ref)]
    pub places: puppet_runtime::hir::items::FilePlaces,
}

/// One item of a file (its top level or a definition), kept by the host:
/// it sets the content only when an edit changed it, so what derives from
/// an unchanged item stays valid without being looked at.
#[salsa::input(debug)]
pub struct Item {
    #[returns(copy)]
    pub file: SourceFile,
    #[returns(copy)]
    pub kind: puppet_runtime::hir::items::ItemKind,
    /// See `puppet_runtime::hir::items::CollectedItem::name`.
    #[returns(ref)]
    pub name: String,
    /// Directly in a class's body.
    #[returns(copy)]
    pub in_class: bool,
    #[returns(ref)]
    pub content: puppet_runtime::hir::items::ItemContent,
    /// What a definition declares (`None` for the top level): kept apart
    /// from the content so that typing in a body leaves the workspace
    /// index alone.
    #[returns(ref)]
    pub signature: Option<crate::declared::Signature>,
    /// What the item publishes to others: its parameters and the variables
    /// its own scope assigns (class variables; top- and node-scope
    /// variables), and the resource defaults it sets. Kept apart from the
    /// content for the same reason.
    #[returns(ref)]
    pub published: crate::declared::Published,
}

/// A tree made outside the database for one exact text (the same `Arc`).
#[derive(Debug, Clone)]
pub struct Reparsed {
    pub text: SharedText,
    pub parse: Parse,
    /// The text's line index when an editor's edits made it (moved after
    /// each edit, not rebuilt): what [`line_index`] gives for this text.
    pub lines: Option<Arc<LineIndex>>,
}

impl PartialEq for Reparsed {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.text, &other.text) && self.parse == other.parse
    }
}

impl Eq for Reparsed {}

/// A Ruby plugin file of a module (custom types, functions and facts).
#[salsa::input(debug)]
pub struct RubyFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub text: Arc<str>,
}

/// A Hiera file: `hiera.yaml`, or a data file (YAML, JSON, eYAML) in a
/// data directory of an environment or module.
#[salsa::input(debug)]
pub struct DataFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub text: Arc<str>,
}

/// A module's `metadata.json` (its name, version, dependencies).
#[salsa::input(debug)]
pub struct MetadataFile {
    #[returns(ref)]
    pub path: PathBuf,
    #[returns(ref)]
    pub text: Arc<str>,
}

/// The set of files analysed together (all roots of a workspace).
#[salsa::input(debug)]
pub struct Workspace {
    #[returns(ref)]
    pub files: Vec<SourceFile>,
    #[returns(ref)]
    pub ruby_files: Vec<RubyFile>,
    #[returns(ref)]
    pub data_files: Vec<DataFile>,
    #[returns(ref)]
    pub metadata_files: Vec<MetadataFile>,
    #[returns(ref)]
    pub layout: crate::layout::Layout,
    /// The files of modules' `templates/` and `files/` directories, which
    /// templates, `file()` and `puppet:///modules/` sources name.
    #[returns(ref)]
    pub assets: BTreeSet<PathBuf>,
    /// The Puppet checked for (version, `strict`, `strict_variables`):
    /// verdicts that differ between Puppet 7 and 8 read it.
    #[returns(copy)]
    pub target: puppet_runtime::target::Target,
}

/// The syntax tree of a file. Cheap to clone (a green tree and errors).
#[salsa::tracked(returns(ref))]
pub fn parse(db: &dyn salsa::Database, file: SourceFile) -> Parse {
    let text = file.text(db);
    if let Some(r) = file.reparsed(db) {
        if Arc::ptr_eq(&r.text, text) {
            return r.parse.clone();
        }
    }
    puppet_syntax::parse(text, *file.kind(db))
}

/// Where a file's lines start, kept while its text is unchanged (the
/// server converts positions of closed files with it). After an edit, the
/// index the edit moved, when there is one.
#[salsa::tracked(returns(ref))]
pub fn line_index(db: &dyn salsa::Database, file: SourceFile) -> Arc<LineIndex> {
    let text = file.text(db);
    let edited = file
        .reparsed(db)
        .as_ref()
        .filter(|r| Arc::ptr_eq(&r.text, text))
        .and_then(|r| r.lines.clone());
    edited.unwrap_or_else(|| Arc::new(LineIndex::from_shared(text.clone())))
}

/// The database: storage plus a log of executed queries, kept only when
/// asked for ([`RootDatabase::log_executions`]): tests use it to prove
/// what was (not) recomputed.
#[salsa::db]
#[derive(Clone)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
    executions: Arc<Mutex<Vec<String>>>,
    logging: Arc<AtomicBool>,
}

impl Default for RootDatabase {
    fn default() -> Self {
        let executions: Arc<Mutex<Vec<String>>> = Arc::default();
        let logging = Arc::new(AtomicBool::new(false));
        let (log, on) = (executions.clone(), logging.clone());
        let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
            if !on.load(Ordering::Relaxed) {
                return;
            }
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                if let Ok(mut log) = log.lock() {
                    log.push(format!("{database_key:?}"));
                }
            }
        })));
        RootDatabase {
            storage,
            executions,
            logging,
        }
    }
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

impl RootDatabase {
    /// Starts logging executed queries (for tests; off by default).
    pub fn log_executions(&self) {
        self.logging.store(true, Ordering::Relaxed);
    }

    /// The queries executed since the last call (e.g. `file_signatures(Id(2))`).
    pub fn take_executions(&self) -> Vec<String> {
        self.executions
            .lock()
            .map(|mut log| std::mem::take(&mut *log))
            .unwrap_or_default()
    }
}

/// The built-ins of the Puppet the workspace is checked for.
pub fn workspace_builtins(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> &'static crate::builtins::Builtins {
    crate::builtins::builtins_for(workspace.target(db).version)
}
