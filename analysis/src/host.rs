//! The entry point for clients (the CLI and the language server): owns the
//! database and the mapping from paths to files, applies changes, and
//! answers in plain data. Setting a file to the text it already has is a
//! no-op, so nothing is recomputed needlessly.

use crate::db::{DataFile, RootDatabase, RubyFile, SourceFile, Workspace};
use crate::diagnostics::{file_diagnostics, Diagnostic};
use crate::workspace::{discover, Layout, Module};
use puppet_syntax::SourceKind;
use salsa::Setter;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct AnalysisHost {
    db: RootDatabase,
    workspace: Workspace,
    files: BTreeMap<PathBuf, SourceFile>,
    ruby_files: BTreeMap<PathBuf, RubyFile>,
    data_files: BTreeMap<PathBuf, DataFile>,
}

/// What kind of input a path is, by its extension.
enum InputKind {
    Source,
    Ruby,
    Data,
}

impl InputKind {
    fn of(path: &Path) -> InputKind {
        match path.extension().and_then(|e| e.to_str()) {
            Some("rb") => InputKind::Ruby,
            Some("yaml" | "yml" | "json" | "eyaml") => InputKind::Data,
            _ => InputKind::Source,
        }
    }
}

impl AnalysisHost {
    /// An empty workspace with the given modules.
    pub fn new(layout: Layout) -> AnalysisHost {
        let db = RootDatabase::default();
        let workspace = Workspace::new(&db, Vec::new(), Vec::new(), Vec::new(), layout);
        AnalysisHost {
            db,
            workspace,
            files: BTreeMap::new(),
            ruby_files: BTreeMap::new(),
            data_files: BTreeMap::new(),
        }
    }

    /// Discovers modules and files under `paths` and loads them.
    pub fn from_paths(paths: &[PathBuf]) -> AnalysisHost {
        let discovered = discover(paths);
        let mut host = AnalysisHost::new(discovered.layout);
        let loaded: Vec<(PathBuf, String)> = discovered
            .files
            .into_iter()
            .chain(discovered.ruby_files)
            .chain(discovered.data_files)
            .filter_map(|path| {
                let bytes = std::fs::read(&path).ok()?;
                Some((path, String::from_utf8_lossy(&bytes).into_owned()))
            })
            .collect();
        host.set_files(loaded);
        host
    }

    /// A workspace from in-memory files, with modules inferred from their
    /// paths (`.../<module>/manifests/...`): for tests and fixtures.
    pub fn from_files(files: Vec<(PathBuf, String)>) -> AnalysisHost {
        let mut modules: BTreeMap<PathBuf, Module> = BTreeMap::new();
        for (path, _) in &files {
            let components: Vec<_> = path.components().collect();
            for (i, c) in components.iter().enumerate().skip(1) {
                let dir = c.as_os_str().to_string_lossy();
                if matches!(
                    dir.as_ref(),
                    "manifests" | "types" | "functions" | "plans" | "templates"
                ) {
                    let root: PathBuf = components[..i].iter().collect();
                    let name = components[i - 1].as_os_str().to_string_lossy().into_owned();
                    modules.entry(root.clone()).or_insert(Module { name, root });
                    break;
                }
            }
        }
        let mut host = AnalysisHost::new(Layout {
            modules: modules.into_values().collect(),
            environments: Vec::new(),
        });
        host.set_files(files);
        host
    }

    /// Adds or updates several files at once (one change of the file set).
    pub fn set_files(&mut self, files: Vec<(PathBuf, String)>) {
        let mut added = false;
        for (path, text) in files {
            added |= self.set_file_text(&path, text);
        }
        if added {
            self.sync_file_set();
        }
    }

    /// Adds or updates one file.
    pub fn set_file(&mut self, path: &Path, text: String) {
        if self.set_file_text(path, text) {
            self.sync_file_set();
        }
    }

    /// Returns true if the file is new.
    fn set_file_text(&mut self, path: &Path, text: String) -> bool {
        match InputKind::of(path) {
            InputKind::Ruby => {
                return match self.ruby_files.get(path) {
                    Some(&file) => {
                        if **file.text(&self.db) != *text {
                            file.set_text(&mut self.db).to(Arc::from(text));
                        }
                        false
                    }
                    None => {
                        let file = RubyFile::new(&self.db, path.to_path_buf(), Arc::from(text));
                        self.ruby_files.insert(path.to_path_buf(), file);
                        true
                    }
                };
            }
            InputKind::Data => {
                return match self.data_files.get(path) {
                    Some(&file) => {
                        if **file.text(&self.db) != *text {
                            file.set_text(&mut self.db).to(Arc::from(text));
                        }
                        false
                    }
                    None => {
                        let file = DataFile::new(&self.db, path.to_path_buf(), Arc::from(text));
                        self.data_files.insert(path.to_path_buf(), file);
                        true
                    }
                };
            }
            InputKind::Source => {}
        }
        match self.files.get(path) {
            Some(&file) => {
                if **file.text(&self.db) != *text {
                    file.set_text(&mut self.db).to(Arc::from(text));
                    if file.reparsed(&self.db).is_some() {
                        file.set_reparsed(&mut self.db).to(None);
                    }
                }
                false
            }
            None => {
                let file = SourceFile::new(
                    &self.db,
                    path.to_path_buf(),
                    Arc::from(text),
                    SourceKind::from_path(path),
                    None,
                );
                self.files.insert(path.to_path_buf(), file);
                true
            }
        }
    }

    /// Applies an editor's edits to a file, in order (each a byte range of
    /// the text before it), reparsing incrementally: an edit inside a
    /// block reparses that block, not the file. Returns the new text, or
    /// `None` (nothing changed) when the file is unknown or an edit does
    /// not fit its text; the caller then sets the whole text.
    pub fn edit_file(
        &mut self,
        path: &Path,
        edits: &[puppet_syntax::TextEdit],
    ) -> Option<Arc<str>> {
        let file = *self.files.get(path)?;
        let mut parse = crate::db::parse(&self.db, file).clone();
        let mut text = file.text(&self.db).to_string();
        for edit in edits {
            let (start, end) = (
                usize::from(edit.delete.start()),
                usize::from(edit.delete.end()),
            );
            if start > end
                || end > text.len()
                || !text.is_char_boundary(start)
                || !text.is_char_boundary(end)
            {
                return None;
            }
            parse = parse.reparse(edit);
            text.replace_range(start..end, &edit.insert);
        }
        let text: Arc<str> = Arc::from(text);
        file.set_text(&mut self.db).to(text.clone());
        file.set_reparsed(&mut self.db)
            .to(Some(crate::db::Reparsed {
                text: text.clone(),
                parse,
            }));
        Some(text)
    }

    pub fn remove_file(&mut self, path: &Path) {
        if self.files.remove(path).is_some()
            || self.ruby_files.remove(path).is_some()
            || self.data_files.remove(path).is_some()
        {
            self.sync_file_set();
        }
    }

    fn sync_file_set(&mut self) {
        let files: Vec<SourceFile> = self.files.values().copied().collect();
        if *self.workspace.files(&self.db) != files {
            self.workspace.set_files(&mut self.db).to(files);
        }
        let ruby: Vec<RubyFile> = self.ruby_files.values().copied().collect();
        if *self.workspace.ruby_files(&self.db) != ruby {
            self.workspace.set_ruby_files(&mut self.db).to(ruby);
        }
        let data: Vec<DataFile> = self.data_files.values().copied().collect();
        if *self.workspace.data_files(&self.db) != data {
            self.workspace.set_data_files(&mut self.db).to(data);
        }
    }

    pub fn set_layout(&mut self, layout: Layout) {
        if *self.workspace.layout(&self.db) != layout {
            self.workspace.set_layout(&mut self.db).to(layout);
        }
    }

    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files.keys().map(PathBuf::as_path)
    }

    pub fn text(&self, path: &Path) -> Option<Arc<str>> {
        self.files.get(path).map(|f| f.text(&self.db).clone())
    }

    /// Every diagnostic of a file, in text order (empty for unknown files).
    pub fn diagnostics(&self, path: &Path) -> Vec<Diagnostic> {
        match self.files.get(path) {
            Some(&file) => file_diagnostics(&self.db, self.workspace, file).clone(),
            None => Vec::new(),
        }
    }

    pub fn layout(&self) -> &Layout {
        self.workspace.layout(&self.db)
    }

    pub fn db(&self) -> &RootDatabase {
        &self.db
    }

    /// A read-only view for another thread. While it exists, a change to
    /// the host cancels the view's running queries (they return
    /// `Err(Cancelled)`); the change waits until the view is dropped.
    pub fn analysis(&self) -> Analysis {
        Analysis {
            db: self.db.clone(),
            workspace: self.workspace,
            files: self.files.clone(),
        }
    }

    pub fn workspace(&self) -> Workspace {
        self.workspace
    }

    pub fn file(&self, path: &Path) -> Option<SourceFile> {
        self.files.get(path).copied()
    }
}

/// A snapshot of the database at one revision (see `AnalysisHost::analysis`).
pub struct Analysis {
    db: RootDatabase,
    workspace: Workspace,
    files: BTreeMap<PathBuf, SourceFile>,
}

impl Analysis {
    /// Every diagnostic of a file, or `Err` when a newer edit cancelled the
    /// computation (the caller drops the view and asks again later).
    pub fn diagnostics(&self, path: &Path) -> Result<Vec<Diagnostic>, salsa::Cancelled> {
        let Some(&file) = self.files.get(path) else {
            return Ok(Vec::new());
        };
        salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| {
            file_diagnostics(&self.db, self.workspace, file).clone()
        }))
    }

    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files.keys().map(PathBuf::as_path)
    }

    /// The syntax and validation problems of a file alone (cheap after an
    /// incremental edit, and shared with the full diagnostics).
    pub fn syntax_diagnostics(&self, path: &Path) -> Result<Vec<Diagnostic>, salsa::Cancelled> {
        let Some(&file) = self.files.get(path) else {
            return Ok(Vec::new());
        };
        salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| {
            crate::diagnostics::syntax_diagnostics(&self.db, file).clone()
        }))
    }

    /// The database at this snapshot's revision.
    pub fn db(&self) -> &RootDatabase {
        &self.db
    }

    pub fn workspace(&self) -> Workspace {
        self.workspace
    }

    pub fn file(&self, path: &Path) -> Option<SourceFile> {
        self.files.get(path).copied()
    }

    /// Every Puppet and EPP file of the workspace, by path.
    pub fn files(&self) -> impl Iterator<Item = (&Path, SourceFile)> {
        self.files.iter().map(|(p, f)| (p.as_path(), *f))
    }
}

/// Splits a multi-file fixture into files: each file starts with a line
/// `#- /path/to/file.pp`.
pub fn parse_fixture(fixture: &str) -> Vec<(PathBuf, String)> {
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for line in fixture.split_inclusive('\n') {
        if let Some(path) = line.trim_start().strip_prefix("#- ") {
            files.push((PathBuf::from(path.trim()), String::new()));
        } else if let Some((_, text)) = files.last_mut() {
            text.push_str(line);
        }
    }
    files
}
