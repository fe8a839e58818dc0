//! The entry point for clients (the CLI and the language server): owns the
//! database and the mapping from paths to files, applies changes, and
//! answers in plain data. Setting a file to the text it already has is a
//! no-op, so nothing is recomputed needlessly.

use crate::db::{DataFile, Item, MetadataFile, RootDatabase, RubyFile, SourceFile, Workspace};
use crate::diagnostics::{file_diagnostics, Diagnostic};
use crate::docs::DocSource;
use crate::hiera::lookup::Node;
use crate::hir::items::{FilePlaces, ItemCache, ItemContent};
use crate::hir::{ItemKind, Published};
use crate::workspace::{discover, Discovered, Layout, Module};
use puppet_runtime::target::Target;
use puppet_syntax::line_index::LineIndex;
use puppet_syntax::{SharedText, SourceKind};
use puppet_vfs::FileSystem;
use rayon::prelude::*;
use salsa::Durability;
use salsa::Setter;
use std::collections::{BTreeMap, BTreeSet};
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct AnalysisHost {
    db: RootDatabase,
    workspace: Workspace,
    /// Shared with the snapshots, which copy it only when a file is added
    /// or removed while one is alive.
    files: Arc<BTreeMap<PathBuf, SourceFile>>,
    ruby_files: BTreeMap<PathBuf, RubyFile>,
    data_files: BTreeMap<PathBuf, DataFile>,
    metadata_files: BTreeMap<PathBuf, MetadataFile>,
    /// The item whose content was last set by an edit (low durability).
    edited: Option<Item>,
    /// Each source file's items as last collected, reused for the
    /// definitions an edit leaves alone.
    item_caches: HashMap<SourceFile, ItemCache>,
    /// Puppet's installed reference text (none unless the owner found it).
    docs: Arc<DocSource>,
    /// The node whose Hiera values hovers show (set by the user).
    hiera_node: Option<Arc<Node>>,
    /// Where the target Puppet's version came from, in words (for hovers).
    target_source: Arc<str>,
}

/// An edit whose range lies in `text`, on character boundaries.
fn edit_fits(edit: &puppet_syntax::TextEdit, text: &str) -> bool {
    let (start, end) = (
        usize::from(edit.delete.start()),
        usize::from(edit.delete.end()),
    );
    start <= end && end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end)
}

/// A file to load: a new Puppet source already parsed (off the database,
/// in parallel), or any other file, which goes through the ordinary update.
enum Loaded {
    Parsed(PathBuf, crate::db::Reparsed),
    Plain(PathBuf, String),
}

/// Parses the new Puppet sources among `files` on every core (parsing is
/// most of loading a workspace), keeping their order.
fn parse_new_sources(
    files: Vec<(PathBuf, String)>,
    known: &BTreeMap<PathBuf, SourceFile>,
) -> Vec<Loaded> {
    use rayon::prelude::*;
    files
        .into_par_iter()
        .map(|(path, text)| {
            let new_source =
                matches!(InputKind::of(&path), InputKind::Source) && !known.contains_key(&path);
            if !new_source {
                return Loaded::Plain(path, text);
            }
            let text = Arc::new(text);
            let parse = puppet_syntax::parse(&text, SourceKind::from_path(&path));
            Loaded::Parsed(
                path,
                crate::db::Reparsed {
                    text,
                    parse,
                    lines: None,
                },
            )
        })
        .collect()
}

/// What an item declares (its signature) and publishes to the index,
/// computed from its content alone.
struct Publication {
    signature: Option<crate::hir::Signature>,
    published: Published,
}

fn publication(db: &dyn salsa::Database, item: Item) -> Publication {
    let signature = match (item.kind(db), item.content(db)) {
        (ItemKind::Definition(kind), ItemContent::Definition(green)) => {
            crate::hir::signature::signature(kind, item.name(db).clone(), &green.syntax())
        }
        _ => None,
    };
    Publication {
        signature,
        published: crate::hir::published(crate::hir::item_body(db, item)),
    }
}

/// Maps `items` on every core, each worker asking its own clone of `view`
/// (a salsa view is not shared between threads); results in order.
fn on_every_core<V, T, R>(view: V, items: &[T], f: impl Fn(&V, &T) -> R + Sync + Send) -> Vec<R>
where
    V: Clone + Send,
    T: Sync,
    R: Send,
{
    use rayon::prelude::*;
    let base = std::sync::Mutex::new(view);
    items
        .par_iter()
        .map_init(
            || base.lock().unwrap_or_else(|e| e.into_inner()).clone(),
            |view, item| f(view, item),
        )
        .collect()
}

/// What kind of input a path is, by its name and extension.
enum InputKind {
    Source,
    Ruby,
    Data,
    Metadata,
}

impl InputKind {
    fn of(path: &Path) -> InputKind {
        if crate::metadata::is_metadata_path(path) {
            return InputKind::Metadata;
        }
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
        // The file set and layout change rarely: what reads only them (the
        // definition index, everything resolved through it) is checked in
        // constant time after a keystroke.
        let workspace = Workspace::builder(
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            layout,
            BTreeSet::new(),
            Target::default(),
        )
        .durability(Durability::HIGH)
        .new(&db);
        AnalysisHost {
            db,
            workspace,
            files: Arc::default(),
            ruby_files: BTreeMap::new(),
            data_files: BTreeMap::new(),
            metadata_files: BTreeMap::new(),
            edited: None,
            item_caches: HashMap::new(),
            docs: Arc::default(),
            hiera_node: None,
            target_source: Arc::from("the default"),
        }
    }

    /// Discovers modules and files under `paths` and loads them, reading
    /// through `fs` (the disk for the CLI, memory in tests).
    pub fn from_paths(fs: &dyn FileSystem, paths: &[PathBuf]) -> AnalysisHost {
        AnalysisHost::from_discovered(fs, discover(fs, paths))
    }

    /// Loads what discovery found, reading through `fs`.
    pub fn from_discovered(fs: &dyn FileSystem, discovered: Discovered) -> AnalysisHost {
        let mut host = AnalysisHost::new(discovered.layout);
        host.set_assets(discovered.assets.into_iter().collect());
        let paths: Vec<PathBuf> = discovered
            .files
            .into_iter()
            .chain(discovered.ruby_files)
            .chain(discovered.data_files)
            .chain(discovered.metadata_files)
            .collect();
        let loaded: Vec<(PathBuf, String)> = paths
            .into_par_iter()
            .filter_map(|path| {
                let bytes = fs.read(&path)?;
                Some((path, String::from_utf8_lossy(&bytes).into_owned()))
            })
            .collect();
        host.set_files(loaded);
        host
    }

    /// A workspace from in-memory files, with modules inferred from their
    /// paths (`.../<module>/manifests/...`, `.../<module>/lib/...`): for
    /// tests and fixtures.
    pub fn from_files(files: Vec<(PathBuf, String)>) -> AnalysisHost {
        let mut modules: BTreeMap<PathBuf, Module> = BTreeMap::new();
        for (path, _) in &files {
            // A metadata.json is at its module's root.
            if let Some(root) = path
                .parent()
                .filter(|_| crate::metadata::is_metadata_path(path))
            {
                if let Some(name) = root.file_name() {
                    let name = name.to_string_lossy().into_owned();
                    let root = root.to_path_buf();
                    modules.entry(root.clone()).or_insert(Module { name, root });
                }
                continue;
            }
            let components: Vec<_> = path.components().collect();
            for (i, c) in components.iter().enumerate().skip(1) {
                let dir = c.as_os_str().to_string_lossy();
                // `lib/` holds the module's Ruby plugins (whose own
                // `functions/` directories are no module's).
                if matches!(
                    dir.as_ref(),
                    "manifests" | "types" | "functions" | "plans" | "templates" | "lib"
                ) {
                    let root: PathBuf = components[..i].iter().collect();
                    let name = components[i - 1].as_os_str().to_string_lossy().into_owned();
                    modules.entry(root.clone()).or_insert(Module { name, root });
                    break;
                }
            }
        }
        let layout = Layout {
            modules: modules.into_values().collect(),
            environments: Vec::new(),
            global_hiera: None,
        };
        let assets = files
            .iter()
            .map(|(path, _)| path)
            .filter(|path| layout.is_asset(path))
            .cloned()
            .collect();
        let mut host = AnalysisHost::new(layout);
        host.set_assets(assets);
        host.set_files(files);
        host
    }

    /// A workspace discovered from in-memory files (a fixture, see
    /// [`parse_fixture`]) as from disk, with `root` as its root: for tests
    /// that need environments as well as modules.
    pub fn discover_fixture(root: &str, fixture: &str) -> AnalysisHost {
        AnalysisHost::discover_files(root, parse_fixture(fixture))
    }

    /// A workspace discovered from in-memory files under `root`.
    pub fn discover_files(root: &str, files: Vec<(PathBuf, String)>) -> AnalysisHost {
        let fs: puppet_vfs::MemoryFs = files.into_iter().collect();
        AnalysisHost::from_paths(&fs, &[PathBuf::from(root)])
    }

    /// Adds or updates several files at once (one change of the file set),
    /// as loaded from disk: their content is expected to stay as it is.
    pub fn set_files(&mut self, files: Vec<(PathBuf, String)>) {
        let mut added = false;
        let mut unpublished = Vec::new();
        for loaded in parse_new_sources(files, &self.files) {
            added |= match loaded {
                Loaded::Parsed(path, parsed) => {
                    let text = parsed.text.clone();
                    let file = self.new_source(path, text, Some(parsed), Durability::HIGH);
                    unpublished.extend(self.sync_items(file, Durability::HIGH));
                    true
                }
                Loaded::Plain(path, text) => self.set_file_text(&path, text, Durability::HIGH),
            };
        }
        self.publish_all(&unpublished);
        if added {
            self.sync_file_set();
        }
    }

    /// Adds or updates one file (an editor's change of its whole text).
    pub fn set_file(&mut self, path: &Path, text: String) {
        if self.set_file_text(path, text, Durability::LOW) {
            self.sync_file_set();
        }
    }

    /// Adds a new Puppet source, with its tree when it was parsed already.
    fn add_source(
        &mut self,
        path: PathBuf,
        text: SharedText,
        parsed: Option<crate::db::Reparsed>,
        durability: Durability,
    ) {
        let file = self.new_source(path, text, parsed, durability);
        let changed = self.sync_items(file, durability);
        self.publish_all(&changed);
    }

    /// The input of a new Puppet source, before its items are synced.
    fn new_source(
        &mut self,
        path: PathBuf,
        text: SharedText,
        parsed: Option<crate::db::Reparsed>,
        durability: Durability,
    ) -> SourceFile {
        let file = SourceFile::builder(
            path.clone(),
            text,
            SourceKind::from_path(&path),
            parsed,
            Vec::new(),
            FilePlaces::default(),
        )
        .durability(durability)
        .new(&self.db);
        Arc::make_mut(&mut self.files).insert(path, file);
        file
    }

    /// Returns true if the file is new.
    fn set_file_text(&mut self, path: &Path, text: String, durability: Durability) -> bool {
        // Ruby and data files are plain text inputs: set, or created.
        macro_rules! set_text_input {
            ($map:expr, $input:ty) => {
                match $map.get(path) {
                    Some(&file) => {
                        if **file.text(&self.db) != *text {
                            file.set_text(&mut self.db)
                                .with_durability(durability)
                                .to(Arc::from(text));
                        }
                        false
                    }
                    None => {
                        let file = <$input>::builder(path.to_path_buf(), Arc::from(text))
                            .durability(durability)
                            .new(&self.db);
                        $map.insert(path.to_path_buf(), file);
                        true
                    }
                }
            };
        }
        match InputKind::of(path) {
            InputKind::Ruby => return set_text_input!(self.ruby_files, RubyFile),
            InputKind::Data => return set_text_input!(self.data_files, DataFile),
            InputKind::Metadata => return set_text_input!(self.metadata_files, MetadataFile),
            InputKind::Source => {}
        }
        match self.files.get(path) {
            Some(&file) => {
                if **file.text(&self.db) != *text {
                    file.set_text(&mut self.db)
                        .with_durability(durability)
                        .to(Arc::from(text));
                    if file.reparsed(&self.db).is_some() {
                        file.set_reparsed(&mut self.db).to(None);
                    }
                    let changed = self.sync_items(file, durability);
                    self.publish_all(&changed);
                }
                false
            }
            None => {
                self.add_source(path.to_path_buf(), Arc::from(text), None, durability);
                true
            }
        }
    }

    /// Brings a file's item inputs up to date with its text: items are
    /// matched with the previous ones by kind and name, and a field is set
    /// only when it changed. An edited item's content gets `durability`
    /// (low while typing), so that only what derives from it is looked at
    /// again; signatures and what items publish are set with high
    /// durability: they change rarely, and when they do everything reading
    /// them must be recomputed anyway.
    /// Gives back the items whose content changed or that are new: they
    /// still have to be published ([`AnalysisHost::publish_all`]).
    #[must_use]
    fn sync_items(&mut self, file: SourceFile, durability: Durability) -> Vec<Item> {
        let root = crate::db::parse(&self.db, file).syntax_node();
        let source = *file.kind(&self.db);
        let collected = self
            .item_caches
            .entry(file)
            .or_default()
            .collect(&root, source);
        let previous = file.items(&self.db);
        // Usually an edit changes no item's kind or name: items then pair
        // up in order. Otherwise they are matched by kind and name.
        let same_shape = previous.len() == collected.len()
            && previous.iter().zip(&collected).all(|(&item, c)| {
                item.kind(&self.db) == c.kind && **item.name(&self.db) == *c.name
            });
        let mut in_order = same_shape.then(|| previous.clone().into_iter());
        let mut pool: HashMap<(ItemKind, String), VecDeque<Item>> = HashMap::new();
        if !same_shape {
            for &item in previous {
                pool.entry((item.kind(&self.db), item.name(&self.db).clone()))
                    .or_default()
                    .push_back(item);
            }
        }
        let mut items = Vec::with_capacity(collected.len());
        let mut places = Vec::with_capacity(collected.len());
        let mut changed = Vec::new();
        for c in collected {
            let reused = match &mut in_order {
                Some(previous) => previous.next(),
                None => pool
                    .get_mut(&(c.kind, c.name.to_string()))
                    .and_then(VecDeque::pop_front),
            };
            let item = match reused {
                Some(item) => {
                    if *item.content(&self.db) != c.content {
                        item.set_content(&mut self.db)
                            .with_durability(durability)
                            .to(c.content);
                        changed.push(item);
                    }
                    if item.in_class(&self.db) != c.in_class {
                        item.set_in_class(&mut self.db)
                            .with_durability(Durability::HIGH)
                            .to(c.in_class);
                    }
                    item
                }
                None => {
                    let item = Item::builder(
                        file,
                        c.kind,
                        c.name.to_string(),
                        c.in_class,
                        c.content,
                        None,
                        Published::default(),
                    )
                    .durability(Durability::HIGH)
                    .new(&self.db);
                    changed.push(item);
                    item
                }
            };
            items.push(item);
            places.push(c.place);
        }
        if *file.items(&self.db) != items {
            file.set_items(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(items);
        }
        let places = FilePlaces { items: places };
        if *file.places(&self.db) != places {
            file.set_places(&mut self.db)
                .with_durability(durability)
                .to(places);
        }
        if durability == Durability::LOW {
            let edited = changed
                .iter()
                .copied()
                .find(|&item| item.kind(&self.db) != ItemKind::TopLevel);
            if let Some(edited) = edited {
                self.promote_previous(edited);
            }
        }
        changed
    }

    /// Publishes items: what each declares and publishes is computed on
    /// every core when there are many (loading a workspace lowers every
    /// item, of which the database keeps a bounded number), then set in
    /// order.
    fn publish_all(&mut self, items: &[Item]) {
        const PARALLEL_FROM: usize = 64;
        let publications: Vec<Publication> = if items.len() < PARALLEL_FROM {
            items
                .iter()
                .map(|&item| publication(&self.db, item))
                .collect()
        } else {
            on_every_core(self.db.clone(), items, |db, &item| publication(db, item))
        };
        for (&item, publication) in items.iter().zip(publications) {
            self.publish(item, publication);
        }
    }

    /// Sets what an item declares and publishes, when it changed.
    fn publish(&mut self, item: Item, publication: Publication) {
        let Publication {
            signature,
            published,
        } = publication;
        if *item.signature(&self.db) != signature {
            item.set_signature(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(signature);
        }
        if *item.published(&self.db) != published {
            item.set_published(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(published);
        }
    }

    /// Once editing moves on to another item, the previously edited one's
    /// content goes back to high durability (its readers are recomputed
    /// once), so that low-durability items do not pile up.
    fn promote_previous(&mut self, now: Item) {
        if let Some(previous) = self.edited.filter(|&p| p != now) {
            let file = previous.file(&self.db);
            if file.items(&self.db).contains(&previous) {
                let content = previous.content(&self.db).clone();
                previous
                    .set_content(&mut self.db)
                    .with_durability(Durability::HIGH)
                    .to(content);
            }
        }
        self.edited = Some(now);
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
    ) -> Option<SharedText> {
        let file = *self.files.get(path)?;
        let mut index = crate::db::line_index(&self.db, file).clone();
        for edit in edits {
            if !edit_fits(edit, index.text()) {
                return None;
            }
            // One copy of the text per edit, however big the file; the
            // line index is moved, not rebuilt.
            let text = Arc::new(edit.apply(index.text()));
            index = Arc::new(index.edited(edit, text));
        }
        let text = index.shared_text().clone();
        self.apply_edits(path, edits, index).then_some(text)
    }

    /// Like [`AnalysisHost::edit_file`] when the caller already has the
    /// edited text and its line index (the language server's document):
    /// they are shared, not copied. Returns false, changing nothing, when
    /// the file is unknown, an edit does not fit, or the new text is not
    /// the edits' result in length; the caller then sets the whole text.
    pub fn apply_edits(
        &mut self,
        path: &Path,
        edits: &[puppet_syntax::TextEdit],
        lines: Arc<LineIndex>,
    ) -> bool {
        let new_text = lines.shared_text().clone();
        let Some(&file) = self.files.get(path) else {
            return false;
        };
        let mut parse = crate::db::parse(&self.db, file).clone();
        let mut len = file.text(&self.db).len();
        for edit in edits {
            let (start, end) = (
                usize::from(edit.delete.start()),
                usize::from(edit.delete.end()),
            );
            if start > end || end > len {
                return false;
            }
            len = len - (end - start) + edit.insert.len();
            parse = parse.reparse(edit);
        }
        if len != new_text.len() {
            return false;
        }
        file.set_text(&mut self.db)
            .with_durability(Durability::LOW)
            .to(new_text.clone());
        file.set_reparsed(&mut self.db)
            .with_durability(Durability::LOW)
            .to(Some(crate::db::Reparsed {
                text: new_text,
                parse,
                lines: Some(lines),
            }));
        let changed = self.sync_items(file, Durability::LOW);
        self.publish_all(&changed);
        true
    }

    pub fn remove_file(&mut self, path: &Path) {
        let removed = if let Some(file) = self.files.get(path).copied() {
            self.item_caches.remove(&file);
            Arc::make_mut(&mut self.files).remove(path);
            true
        } else {
            self.ruby_files.remove(path).is_some()
                || self.data_files.remove(path).is_some()
                || self.metadata_files.remove(path).is_some()
        };
        if removed {
            self.sync_file_set();
        }
    }

    fn sync_file_set(&mut self) {
        let files: Vec<SourceFile> = self.files.values().copied().collect();
        if *self.workspace.files(&self.db) != files {
            self.workspace
                .set_files(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(files);
        }
        let ruby: Vec<RubyFile> = self.ruby_files.values().copied().collect();
        if *self.workspace.ruby_files(&self.db) != ruby {
            self.workspace
                .set_ruby_files(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(ruby);
        }
        let data: Vec<DataFile> = self.data_files.values().copied().collect();
        if *self.workspace.data_files(&self.db) != data {
            self.workspace
                .set_data_files(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(data);
        }
        let metadata: Vec<MetadataFile> = self.metadata_files.values().copied().collect();
        if *self.workspace.metadata_files(&self.db) != metadata {
            self.workspace
                .set_metadata_files(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(metadata);
        }
    }

    /// The files of modules' `templates/` and `files/` directories.
    pub fn set_assets(&mut self, assets: BTreeSet<PathBuf>) {
        if *self.workspace.assets(&self.db) != assets {
            self.workspace
                .set_assets(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(assets);
        }
    }

    /// A file appeared on disk: kept when it is a module's template or
    /// file. Returns whether it was one.
    pub fn asset_created(&mut self, path: &Path) -> bool {
        if !self.layout().is_asset(path) {
            return false;
        }
        if !self.workspace.assets(&self.db).contains(path) {
            let mut assets = self.workspace.assets(&self.db).clone();
            assets.insert(path.to_path_buf());
            self.set_assets(assets);
        }
        true
    }

    /// A file or directory was deleted on disk: the assets under it go.
    pub fn assets_deleted(&mut self, path: &Path) {
        let assets = self.workspace.assets(&self.db);
        if assets.iter().any(|a| a.starts_with(path)) {
            let kept = assets
                .iter()
                .filter(|a| !a.starts_with(path))
                .cloned()
                .collect();
            self.set_assets(kept);
        }
    }

    /// The Puppet the workspace is checked for (Puppet 8's defaults until
    /// set), and where its version came from, in words. Everything that
    /// reads it is recomputed when it changes.
    pub fn set_target(&mut self, target: Target, source: &str) {
        if *self.target_source != *source {
            self.target_source = Arc::from(source);
        }
        if self.workspace.target(&self.db) != target {
            self.workspace
                .set_target(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(target);
        }
    }

    pub fn target(&self) -> Target {
        self.workspace.target(&self.db)
    }

    pub fn set_layout(&mut self, layout: Layout) {
        if *self.workspace.layout(&self.db) != layout {
            self.workspace
                .set_layout(&mut self.db)
                .with_durability(Durability::HIGH)
                .to(layout);
        }
    }

    /// The Puppet sources, Hiera files and modules' `metadata.json` of
    /// the workspace.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files
            .keys()
            .chain(self.data_files.keys())
            .chain(self.metadata_files.keys())
            .map(PathBuf::as_path)
    }

    /// A file's text (a Hiera file's or metadata.json's copied into a
    /// `SharedText`).
    pub fn text(&self, path: &Path) -> Option<SharedText> {
        if let Some(file) = self.data_files.get(path) {
            return Some(Arc::new(file.text(&self.db).to_string()));
        }
        if let Some(file) = self.metadata_files.get(path) {
            return Some(Arc::new(file.text(&self.db).to_string()));
        }
        self.files.get(path).map(|f| f.text(&self.db).clone())
    }

    /// Every diagnostic of a file, in text order (empty for unknown files).
    pub fn diagnostics(&self, path: &Path) -> Vec<Diagnostic> {
        if let Some(&file) = self.data_files.get(path) {
            return crate::diagnostics::data_file_diagnostics(&self.db, self.workspace, file)
                .clone();
        }
        if let Some(&file) = self.metadata_files.get(path) {
            return crate::diagnostics::metadata_file_diagnostics(&self.db, self.workspace, file)
                .clone();
        }
        match self.files.get(path) {
            Some(&file) => file_diagnostics(&self.db, self.workspace, file).clone(),
            None => Vec::new(),
        }
    }

    /// The diagnostics of many files (in their order), computed on every
    /// core. Between batches, inference results beyond the database's
    /// limits are dropped, so that checking a large code base holds only
    /// what the next files need.
    pub fn diagnostics_of(&mut self, paths: &[PathBuf]) -> Vec<Vec<Diagnostic>> {
        const BATCH: usize = 16;
        let mut out = Vec::with_capacity(paths.len());
        for batch in paths.chunks(BATCH) {
            // Nothing changes the database meanwhile: never cancelled.
            out.extend(on_every_core(self.analysis(), batch, |view, path| {
                view.diagnostics(path).unwrap_or_default()
            }));
            salsa::Database::trigger_lru_eviction(&mut self.db);
        }
        out
    }

    /// Where hovers find Puppet's reference text (the server discovers it
    /// through its file system; without it hovers show the built-in tables'
    /// summaries only).
    /// The node (name and facts) whose Hiera values hovers show.
    pub fn set_hiera_node(&mut self, node: Option<Node>) {
        self.hiera_node = node.map(Arc::new);
    }

    pub fn set_docs(&mut self, docs: DocSource) {
        self.docs = Arc::new(docs);
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
            hiera_node: self.hiera_node.clone(),
            target_source: self.target_source.clone(),
            docs: self.docs.clone(),
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
#[derive(Clone)]
pub struct Analysis {
    hiera_node: Option<Arc<Node>>,
    target_source: Arc<str>,
    db: RootDatabase,
    workspace: Workspace,
    files: Arc<BTreeMap<PathBuf, SourceFile>>,
    docs: Arc<DocSource>,
}

impl Analysis {
    /// The built-ins of the Puppet the workspace is checked for.
    pub fn builtins(&self) -> &'static crate::builtins::Builtins {
        crate::db::workspace_builtins(&self.db, self.workspace)
    }

    /// Which stdlib functions exist in the workspace (the bundled table's
    /// or the workspace's sources).
    pub fn stdlib(&self) -> &crate::stdlib::WorkspaceStdlib {
        crate::stdlib::workspace_stdlib(&self.db, self.workspace)
    }

    /// Puppet's installed reference text, for hovers.
    pub fn docs(&self) -> &DocSource {
        &self.docs
    }

    /// The node whose Hiera values hovers show, when the user chose one.
    pub fn hiera_node(&self) -> Option<&Node> {
        self.hiera_node.as_deref()
    }

    /// The Puppet the workspace is checked for, and where its version came
    /// from (`set by --puppet-version`, `the default`...).
    pub fn target(&self) -> (Target, &str) {
        (self.workspace.target(&self.db), &self.target_source)
    }

    /// Every diagnostic of a file, or `Err` when a newer edit cancelled the
    /// computation (the caller drops the view and asks again later).
    pub fn diagnostics(&self, path: &Path) -> Result<Vec<Diagnostic>, salsa::Cancelled> {
        self.diagnostics_where(path, |_| true, usize::MAX)
    }

    /// The first `limit` diagnostics of a file that `keep` accepts, in text
    /// order: what an editor is sent, without copying the others.
    pub fn diagnostics_where(
        &self,
        path: &Path,
        keep: impl Fn(&Diagnostic) -> bool,
        limit: usize,
    ) -> Result<Vec<Diagnostic>, salsa::Cancelled> {
        salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| {
            // Sources first: the Hiera files are searched only for other paths.
            let all = if let Some(&file) = self.files.get(path) {
                file_diagnostics(&self.db, self.workspace, file)
            } else if let Some(file) = self.data_file(path) {
                crate::diagnostics::data_file_diagnostics(&self.db, self.workspace, file)
            } else if let Some(file) = self.metadata_file(path) {
                crate::diagnostics::metadata_file_diagnostics(&self.db, self.workspace, file)
            } else {
                return Vec::new();
            };
            all.iter()
                .filter(|d| keep(d))
                .take(limit)
                .cloned()
                .collect()
        }))
    }

    /// The Puppet sources, Hiera files and modules' `metadata.json` of
    /// the workspace.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        let data = self.workspace.data_files(&self.db).iter();
        let metadata = self.workspace.metadata_files(&self.db).iter();
        self.files
            .keys()
            .map(PathBuf::as_path)
            .chain(data.map(|f| f.path(&self.db).as_path()))
            .chain(metadata.map(|f| f.path(&self.db).as_path()))
    }

    /// The Hiera file at `path`.
    pub fn data_file(&self, path: &Path) -> Option<DataFile> {
        let data = self.workspace.data_files(&self.db);
        data.iter().copied().find(|f| f.path(&self.db) == path)
    }

    /// The module's `metadata.json` at `path`.
    pub fn metadata_file(&self, path: &Path) -> Option<MetadataFile> {
        let metadata = self.workspace.metadata_files(&self.db);
        metadata.iter().copied().find(|f| f.path(&self.db) == path)
    }

    /// The text of a Hiera file or metadata.json.
    fn plain_text(&self, path: &Path) -> Option<&Arc<str>> {
        if let Some(file) = self.data_file(path) {
            return Some(file.text(&self.db));
        }
        Some(self.metadata_file(path)?.text(&self.db))
    }

    /// Where a file's lines start (memoized while its text is unchanged).
    pub fn line_index(&self, path: &Path) -> Option<Arc<puppet_syntax::line_index::LineIndex>> {
        if let Some(&file) = self.files.get(path) {
            return Some(crate::db::line_index(&self.db, file).clone());
        }
        let text = self.plain_text(path)?;
        Some(Arc::new(puppet_syntax::line_index::LineIndex::new(text)))
    }

    /// The file's current text.
    pub fn text(&self, path: &Path) -> Option<SharedText> {
        if let Some(&file) = self.files.get(path) {
            return Some(file.text(&self.db).clone());
        }
        let text = self.plain_text(path)?;
        Some(Arc::new(text.to_string()))
    }

    /// The file's tree as the analysis holds it (after an edit, the
    /// incrementally reparsed one), for tools that read trees (lint).
    pub fn parse(&self, path: &Path) -> Option<puppet_syntax::Parse> {
        let &file = self.files.get(path)?;
        Some(crate::db::parse(&self.db, file).clone())
    }

    /// The file's syntax tree as the analysis holds it, printed as
    /// `puppet-ls parse --tree` prints it.
    pub fn syntax_tree(&self, path: &Path) -> Option<String> {
        let &file = self.files.get(path)?;
        Some(crate::db::parse(&self.db, file).debug_tree())
    }

    /// The syntax and validation problems of a file alone (cheap after an
    /// incremental edit, and shared with the full diagnostics).
    pub fn syntax_diagnostics(&self, path: &Path) -> Result<Vec<Diagnostic>, salsa::Cancelled> {
        let Some(&file) = self.files.get(path) else {
            return Ok(Vec::new());
        };
        salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| {
            let target = self.workspace.target(&self.db);
            crate::diagnostics::syntax_diagnostics(&self.db, file)
                .iter()
                .filter_map(|d| crate::diagnostics::under_strict(d.clone(), target))
                .collect()
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

/// Infers a lone text with no workspace (tests): the types of every
/// expression, as a one-file workspace sees them.
pub fn infer_text(text: &str, kind: puppet_syntax::SourceKind) -> crate::infer::FileTypes {
    let path = match kind {
        puppet_syntax::SourceKind::Template => "/lone/templates/text.epp",
        puppet_syntax::SourceKind::Manifest => "/lone/manifests/text.pp",
    };
    let host = AnalysisHost::from_files(vec![(path.into(), text.to_string())]);
    match host.file(std::path::Path::new(path)) {
        Some(file) => crate::infer::infer_file(host.db(), host.workspace(), file),
        None => crate::infer::FileTypes::default(),
    }
}

/// A diagnostic as the fixture tests show it: `path:line severity [code]
/// `snippet` message` (one line, newline included).
pub fn render_diagnostic(path: &Path, text: &str, d: &Diagnostic) -> String {
    let start = (u32::from(d.range.start()) as usize).min(text.len());
    let line = text[..start].matches('\n').count() + 1;
    let snippet = text.get(usize::from(d.range.start())..usize::from(d.range.end()));
    format!(
        "{}:{line} {} [{}] `{}` {}\n",
        path.display(),
        d.severity.as_str(),
        d.code,
        snippet.unwrap_or_default(),
        d.message
    )
}
