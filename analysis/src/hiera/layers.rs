//! The hierarchies of a workspace resolved against its files: each
//! environment and module with a `hiera.yaml` is a layer, each of its
//! levels lists the data files its paths can name. A path with
//! interpolations (`nodes/%{trusted.certname}.yaml`) is a template: it can
//! name every file that matches it with any value in the interpolation's
//! place, which is what a static tool can say without a node's facts.
//!
//! Puppet reads an environment's or a module's data only when it has a
//! `hiera.yaml` (without one, neither layer exists); a module layer
//! answers only keys of its own namespace (`ntp::servers` for `ntp`).

use super::config::{self, Backend, HieraConfig, PathSpec};
use super::interpolation::{interpolations, split_key, Expression, Interpolation};
use super::unreceived_legacy_fact;
use crate::db::{DataFile, Workspace};
use globset::{Glob, GlobMatcher};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Whose data a layer is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LayerKind {
    /// Puppet's `hiera_config`, before every environment.
    Global,
    Environment,
    Module(String),
}

/// An environment's or module's hierarchy with its files.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Layer {
    pub kind: LayerKind,
    /// The directory holding `hiera.yaml`.
    pub root: PathBuf,
    pub config: DataFile,
    pub levels: Vec<Level>,
    /// A module's `default_hierarchy`: read only when `levels` find
    /// nothing.
    pub default_levels: Vec<Level>,
}

impl Layer {
    /// Whether this layer may answer a key: an environment any key, a
    /// module the keys of its namespace.
    pub fn answers(&self, key: &str) -> bool {
        match &self.kind {
            LayerKind::Global | LayerKind::Environment => true,
            LayerKind::Module(name) => key
                .trim_start_matches("::")
                .split_once("::")
                .is_some_and(|(first, _)| first == name),
        }
    }

    /// The regular levels, then the default hierarchy's.
    pub fn all_levels(&self) -> impl Iterator<Item = &Level> {
        self.levels.iter().chain(&self.default_levels)
    }
}

/// One level of a hierarchy, resolved.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Level {
    pub name: String,
    pub paths: Vec<LevelPath>,
    pub backend: Backend,
    /// The workspace's data files its paths can name, in path order.
    pub files: Vec<DataFile>,
    /// The files its paths can name on a node of the target Puppet: as
    /// `files`, except that an interpolation of a legacy fact the target
    /// does not receive stands for the empty string Hiera puts there
    /// (Puppet 8: `os/%{facts.osfamily}.yaml` names `os/.yaml` only), and a
    /// `mapped_paths` level mapping such a fact names nothing.
    pub target_files: Vec<DataFile>,
    /// Whether puppet-ls sees all the data the level can find: not for a
    /// custom backend (`data_hash`, `lookup_key` or `data_dig` function
    /// other than YAML, JSON and eYAML's), a `uri`, or a data directory
    /// outside the layer's directory (absolute, with `..` or an
    /// interpolation), whose files the workspace does not hold.
    pub readable: bool,
}

/// A level's path: its specification and the data directory it is
/// relative to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LevelPath {
    pub spec: PathSpec,
    pub datadir: PathBuf,
}

impl LevelPath {
    /// The path relative to the layer's root as it is shown to people,
    /// templates kept: `data/nodes/%{trusted.certname}.yaml`.
    pub fn display(&self, root: &Path) -> String {
        let dir = self.datadir.strip_prefix(root).unwrap_or(&self.datadir);
        dir.join(self.spec.template())
            .to_string_lossy()
            .into_owned()
    }
}

/// The workspace's data files (`hiera.yaml` and data) by path.
pub(super) fn data_files_by_path(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> HashMap<&Path, DataFile> {
    workspace
        .data_files(db)
        .iter()
        .map(|&f| (f.path(db).as_path(), f))
        .collect()
}

/// The parsed `hiera.yaml` of a configuration file.
#[salsa::tracked(returns(ref))]
pub fn hiera_config(db: &dyn salsa::Database, file: DataFile) -> HieraConfig {
    config::parse(file.text(db))
}

/// Every layer of the workspace: environments first (their order of
/// discovery), then modules.
#[salsa::tracked(returns(ref))]
pub fn hiera_layers(db: &dyn salsa::Database, workspace: Workspace) -> Vec<Layer> {
    let by_path = data_files_by_path(db, workspace);
    let layout = workspace.layout(db);
    let global = layout.global_hiera.as_ref().and_then(|config| {
        Some((
            LayerKind::Global,
            config.parent()?.to_path_buf(),
            config.clone(),
        ))
    });
    let roots = global
        .into_iter()
        .chain(layout.environments.iter().map(|root| {
            (
                LayerKind::Environment,
                root.clone(),
                root.join("hiera.yaml"),
            )
        }))
        .chain(layout.modules.iter().map(|m| {
            (
                LayerKind::Module(m.name.clone()),
                m.root.clone(),
                m.root.join("hiera.yaml"),
            )
        }));
    let mut layers = Vec::new();
    for (kind, root, config_path) in roots {
        let root = &root;
        let Some(&config_file) = by_path.get(config_path.as_path()) else {
            continue;
        };
        let config = hiera_config(db, config_file);
        if config.version != Some(5) {
            continue;
        }
        let datadirs: Vec<PathBuf> = config.datadirs().iter().map(|d| root.join(d)).collect();
        let candidates: Vec<(DataFile, &Path)> = by_path
            .iter()
            .filter(|(path, _)| datadirs.iter().any(|d| path.starts_with(d)))
            .filter(|(path, _)| **path != config_file.path(db))
            .map(|(path, &file)| (file, *path))
            .collect();
        let resolve = |levels: &[config::Level]| -> Vec<Level> {
            levels
                .iter()
                .map(|level| resolve_level(db, workspace, config, root, level, &candidates))
                .collect()
        };
        layers.push(Layer {
            kind,
            root: root.clone(),
            config: config_file,
            levels: resolve(&config.hierarchy),
            default_levels: resolve(&config.default_hierarchy),
        });
    }
    layers
}

fn resolve_level(
    db: &dyn salsa::Database,
    workspace: Workspace,
    config: &HieraConfig,
    root: &Path,
    level: &config::Level,
    candidates: &[(DataFile, &Path)],
) -> Level {
    let datadir = root.join(
        level
            .datadir
            .as_deref()
            .or(config.datadir.as_deref())
            .unwrap_or(config::DEFAULT_DATADIR),
    );
    let backend = level
        .backend
        .clone()
        .or_else(|| config.backend.clone())
        .unwrap_or(Backend::Yaml);
    let paths: Vec<LevelPath> = level
        .paths
        .iter()
        .map(|spec| LevelPath {
            spec: spec.clone(),
            datadir: datadir.clone(),
        })
        .collect();
    let files = named_files(db, &paths, candidates, |_| false);
    let unreceived =
        |segments: &[String]| unreceived_legacy_fact(db, workspace, segments).is_some();
    let target_files = if paths
        .iter()
        .any(|p| reads_unreceived_fact(&p.spec, &unreceived))
    {
        let received: Vec<LevelPath> = paths
            .iter()
            .filter(|p| !mapped_unreceived_fact(&p.spec, &unreceived))
            .cloned()
            .collect();
        named_files(
            db,
            &received,
            candidates,
            |i| matches!(&i.expression, Ok(Expression::Variable(segments)) if unreceived(segments)),
        )
    } else {
        files.clone()
    };
    let inside = |dir: &str| {
        let dir = Path::new(dir);
        !dir.is_absolute()
            && !dir.components().any(|c| c.as_os_str() == "..")
            && !dir.to_string_lossy().contains("%{")
    };
    let readable = !matches!(backend, Backend::Other(_))
        && !paths.iter().any(|p| matches!(p.spec, PathSpec::Uri(_)))
        && level
            .datadir
            .as_deref()
            .or(config.datadir.as_deref())
            .is_none_or(inside);
    Level {
        name: level.name.clone(),
        paths,
        backend,
        files,
        target_files,
        readable,
    }
}

/// The candidate files the paths name, in path order (each once):
/// `empty` says which interpolations stand for an empty string rather than
/// any text.
fn named_files(
    db: &dyn salsa::Database,
    paths: &[LevelPath],
    candidates: &[(DataFile, &Path)],
    empty: impl Fn(&Interpolation) -> bool,
) -> Vec<DataFile> {
    let mut files: Vec<DataFile> = Vec::new();
    for path in paths {
        let Some(matcher) = matcher(&path.spec, &empty) else {
            continue;
        };
        let mut matched: Vec<DataFile> = candidates
            .iter()
            .filter(|(_, file_path)| {
                file_path
                    .strip_prefix(&path.datadir)
                    .is_ok_and(|relative| matcher.is_match(relative))
            })
            .map(|&(file, _)| file)
            .filter(|file| !files.contains(file))
            .collect();
        matched.sort_by(|a, b| a.path(db).cmp(b.path(db)));
        files.extend(matched);
    }
    files
}

/// Whether a path reads a variable `unreceived` holds for: in its template,
/// or as the variable a `mapped_paths` level maps.
fn reads_unreceived_fact(spec: &PathSpec, unreceived: &impl Fn(&[String]) -> bool) -> bool {
    mapped_unreceived_fact(spec, unreceived)
        || interpolations(spec.template()).iter().any(
            |i| matches!(&i.expression, Ok(Expression::Variable(segments)) if unreceived(segments)),
        )
}

/// Whether a `mapped_paths` level maps a variable `unreceived` holds for
/// (Hiera then maps nothing: the level names no file).
fn mapped_unreceived_fact(spec: &PathSpec, unreceived: &impl Fn(&[String]) -> bool) -> bool {
    let PathSpec::Mapped { var, .. } = spec else {
        return false;
    };
    split_key(var.trim()).is_some_and(|segments| unreceived(&segments))
}

/// The files a path specification can name: an interpolation stands for
/// any text within one path segment, or for nothing where `empty` says so.
fn matcher(spec: &PathSpec, empty: impl Fn(&Interpolation) -> bool) -> Option<GlobMatcher> {
    let template = spec.template();
    let mut pattern = String::new();
    let mut rest = 0;
    for interpolation in interpolations(template) {
        let literal = &template[rest..interpolation.range.start];
        pattern.push_str(&literal_part(spec, literal));
        if !empty(&interpolation) {
            pattern.push('*');
        }
        rest = interpolation.range.end;
    }
    pattern.push_str(&literal_part(spec, &template[rest..]));
    let pattern = pattern.trim_start_matches('/');
    globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .ok()
        .map(|glob: Glob| glob.compile_matcher())
        .filter(|_| !matches!(spec, PathSpec::Uri(_)))
}

/// A literal part of a template: glob syntax in `glob:` levels, plain text
/// elsewhere.
fn literal_part(spec: &PathSpec, text: &str) -> String {
    match spec {
        PathSpec::Glob(_) => text.to_string(),
        _ => globset::escape(text),
    }
}

/// Whether a path is a Hiera file of the workspace: a `hiera.yaml` of an
/// environment or module, or a file in a data directory its `hiera.yaml`
/// names (`data/` without one), as discovery finds them, known or not yet
/// (a data file just created).
pub fn is_hiera_path(db: &dyn salsa::Database, workspace: Workspace, path: &Path) -> bool {
    if workspace.data_files(db).iter().any(|f| f.path(db) == path) {
        return true;
    }
    let configs: HashMap<&Path, DataFile> = workspace
        .data_files(db)
        .iter()
        .map(|&f| (f.path(db).as_path(), f))
        .collect();
    let layout = workspace.layout(db);
    let global = layout.global_hiera.as_ref().and_then(|c| c.parent());
    let roots = layout
        .environments
        .iter()
        .map(PathBuf::as_path)
        .chain(layout.modules.iter().map(|m| m.root.as_path()))
        .chain(global);
    roots.filter(|root| path.starts_with(root)).any(|root| {
        let config_path = root.join("hiera.yaml");
        if path == config_path {
            return true;
        }
        let datadirs: Vec<&str> = match configs.get(config_path.as_path()) {
            Some(&config) => hiera_config(db, config).datadirs(),
            None => vec![config::DEFAULT_DATADIR],
        };
        datadirs.iter().any(|dir| path.starts_with(root.join(dir)))
    })
}

/// The levels (layer index, level index in [`Layer::all_levels`]) whose
/// paths can name a data file.
pub fn levels_of(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: DataFile,
) -> Vec<(usize, usize)> {
    hiera_layers(db, workspace)
        .iter()
        .enumerate()
        .flat_map(|(l, layer)| {
            layer
                .all_levels()
                .enumerate()
                .filter(move |(_, level)| level.files.contains(&file))
                .map(move |(i, _)| (l, i))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::hiera_layers;
    use crate::host::AnalysisHost;

    #[test]
    fn levels_name_the_files_their_templates_match() {
        let host = AnalysisHost::discover_fixture(
            "/env",
            "#- /env/manifests/site.pp\nnotice(1)\n\
             #- /env/hiera.yaml\nversion: 5\ndefaults:\n  datadir: data\nhierarchy:\n  - name: Nodes\n    path: nodes/%{trusted.certname}.yaml\n  - name: Roles\n    paths: ['role/%{facts.role}.yaml', common.yaml]\n  - name: Extra\n    glob: extra/*.yaml\n  - name: JSON\n    data_hash: json_data\n    path: all.json\n\
             #- /env/data/nodes/web01.yaml\na: 1\n\
             #- /env/data/nodes/db01.yaml\na: 2\n\
             #- /env/data/nodes/deeper/x.yaml\na: 3\n\
             #- /env/data/role/web.yaml\na: 4\n\
             #- /env/data/common.yaml\na: 5\n\
             #- /env/data/extra/one.yaml\na: 6\n\
             #- /env/data/all.json\n{\"a\": 7}\n\
             #- /env/modules/ntp/manifests/init.pp\nclass ntp {}\n\
             #- /env/modules/ntp/hiera.yaml\nversion: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n\
             #- /env/modules/ntp/data/common.yaml\nntp::x: 1\n\
             #- /env/modules/none/manifests/init.pp\nclass none {}\n\
             #- /env/modules/none/data/common.yaml\nnone::x: 1\n",
        );
        let analysis = host.analysis();
        let db = analysis.db();
        let layers = hiera_layers(db, analysis.workspace());
        type Levels = Vec<(String, Vec<String>)>;
        let summary: Vec<(String, Levels)> = layers
            .iter()
            .map(|layer| {
                let levels = layer
                    .all_levels()
                    .map(|level| {
                        let files = level
                            .files
                            .iter()
                            .map(|f| f.path(db).display().to_string())
                            .collect();
                        (level.name.clone(), files)
                    })
                    .collect();
                (format!("{:?} {}", layer.kind, layer.root.display()), levels)
            })
            .collect();
        expect_test::expect![[r#"
            [
                (
                    "Environment /env",
                    [
                        (
                            "Nodes",
                            [
                                "/env/data/nodes/db01.yaml",
                                "/env/data/nodes/web01.yaml",
                            ],
                        ),
                        (
                            "Roles",
                            [
                                "/env/data/role/web.yaml",
                                "/env/data/common.yaml",
                            ],
                        ),
                        (
                            "Extra",
                            [
                                "/env/data/extra/one.yaml",
                            ],
                        ),
                        (
                            "JSON",
                            [
                                "/env/data/all.json",
                            ],
                        ),
                    ],
                ),
                (
                    "Module(\"ntp\") /env/modules/ntp",
                    [
                        (
                            "Common",
                            [
                                "/env/modules/ntp/data/common.yaml",
                            ],
                        ),
                    ],
                ),
            ]
        "#]]
        .assert_debug_eq(&summary);
        assert!(layers[1].answers("ntp::servers"));
        assert!(!layers[1].answers("apache::port"));
        assert!(layers[0].answers("anything"));
    }
}
