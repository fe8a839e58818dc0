//! Finding the Puppet code of a workspace the way Puppet users lay it out:
//! a single module, a control repository (`environment.conf` with
//! `modulepath`, `manifests/site.pp`, `site/`, `modules/`, `site-modules/`),
//! a plain directory of modules, test fixtures (`spec/fixtures/modules`),
//! several roots at once. The layout it finds, and the autoloading rules,
//! are plain data in `layout.rs`.

use puppet_vfs::FileSystem;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::layout::*;

/// Roots given by the user, expanded into modules and source files.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    pub layout: Layout,
    pub files: Vec<PathBuf>,
    /// Ruby plugin files (`lib/puppet/{type,functions,parser/functions}`,
    /// `lib/facter`).
    pub ruby_files: Vec<PathBuf>,
    /// Hiera files: each environment's and module's `hiera.yaml` and the
    /// data files in the data directories it names (`data/` by default).
    pub data_files: Vec<PathBuf>,
    /// The files of modules' `templates/` and `files/` directories, which
    /// `template()`, `epp()`, `file()` and `puppet:///modules/` URLs name.
    pub assets: Vec<PathBuf>,
    /// Each module's `metadata.json`, where it has one.
    pub metadata_files: Vec<PathBuf>,
}

/// Whether a directory looks like a Puppet module (a control repository's
/// root has `manifests/` too, but is an environment).
fn is_module(fs: &dyn FileSystem, dir: &Path) -> bool {
    if is_environment(fs, dir) && !fs.is_file(&dir.join("metadata.json")) {
        return false;
    }
    ["manifests", "types", "functions", "plans"]
        .iter()
        .any(|d| fs.is_dir(&dir.join(d)))
        || fs.is_file(&dir.join("metadata.json"))
        || fs.is_dir(&dir.join("lib/puppet"))
}

/// The module's name is its directory's name on the module path (not a
/// symlink's target: Debian links `apache` to `puppetlabs-apache`).
fn module_dir_name(fs: &dyn FileSystem, dir: &Path) -> Option<String> {
    match dir.file_name() {
        Some(name) if name != "." && name != ".." => Some(name.to_string_lossy().into_owned()),
        _ => Some(
            fs.canonicalize(dir)?
                .file_name()?
                .to_string_lossy()
                .into_owned(),
        ),
    }
}

/// Module directories listed in `environment.conf`'s `modulepath` (relative
/// entries; `$basemodulepath` and absolute entries are ignored here).
fn environment_modulepath(fs: &dyn FileSystem, root: &Path) -> Option<Vec<PathBuf>> {
    let conf = fs.read_to_string(&root.join("environment.conf"))?;
    let line = conf.lines().map(str::trim).find(|l| {
        l.split('=')
            .next()
            .is_some_and(|k| k.trim() == "modulepath")
    })?;
    let value = line.split_once('=')?.1.trim();
    Some(
        value
            .split(':')
            .map(str::trim)
            .filter(|p| !p.is_empty() && !p.starts_with('$') && !Path::new(p).is_absolute())
            .map(|p| root.join(p))
            .collect(),
    )
}

/// Discovers modules and files under the given paths (files or directories).
pub fn discover(fs: &dyn FileSystem, paths: &[PathBuf]) -> Discovered {
    let mut modules: BTreeMap<PathBuf, Module> = BTreeMap::new();
    let mut module_dirs: Vec<PathBuf> = Vec::new();
    let mut environments: Vec<PathBuf> = Vec::new();
    let mut fixture_links: Vec<Module> = Vec::new();
    let mut source_roots: Vec<PathBuf> = Vec::new();
    for path in paths {
        if fs.is_file(path) {
            source_roots.push(path.clone());
            continue;
        }
        if !fs.is_dir(path) {
            continue;
        }
        source_roots.push(path.clone());
        if is_module(fs, path) {
            module_dirs.push(path.clone());
            fixture_links.extend(fixture_symlinks(fs, path));
        }
        let mut module_paths = environment_modulepath(fs, path).unwrap_or_default();
        module_paths.extend(puppetfile_moduledir(fs, path));
        if is_environment(fs, path) {
            environments.push(path.clone());
        }
        for dir in ["site", "modules", "site-modules", "dist"] {
            let candidate = path.join(dir);
            if fs.is_dir(&candidate) && !module_paths.contains(&candidate) {
                module_paths.push(candidate);
            }
        }
        for module_path in module_paths {
            module_dirs.extend(
                subdirs(fs, &module_path)
                    .into_iter()
                    .filter(|d| is_module(fs, d)),
            );
        }
        // A plain directory of modules.
        if !is_module(fs, path) {
            module_dirs.extend(subdirs(fs, path).into_iter().filter(|d| is_module(fs, d)));
        }
    }
    // Test fixtures (`.fixtures.yml` puts them under spec/fixtures/modules)
    // are dependencies; a module's fixture copy of itself is skipped below
    // (the first module of a name wins, as on a module path).
    let fixtures: Vec<PathBuf> = module_dirs
        .iter()
        .flat_map(|m| subdirs(fs, &m.join("spec/fixtures/modules")))
        .collect();
    module_dirs.extend(fixtures);
    for dir in module_dirs {
        if let Some(name) = module_dir_name(fs, &dir) {
            modules
                .entry(dir.clone())
                .or_insert(Module { name, root: dir });
        }
    }
    let mut seen = std::collections::HashSet::new();
    let modules: Vec<Module> = modules
        .into_values()
        .filter(|m| seen.insert(m.name.clone()))
        .collect();
    let mut files = Vec::new();
    for root in &source_roots {
        collect_sources(fs, root, &mut files);
    }
    for module in &modules {
        if !source_roots.iter().any(|r| module.root.starts_with(r)) || in_fixtures(&module.root) {
            collect_sources(fs, &module.root, &mut files);
        }
    }
    files.sort();
    files.dedup();
    let mut ruby_files = Vec::new();
    for module in &modules {
        for dir in [
            "lib/puppet/type",
            "lib/puppet/functions",
            "lib/puppet/parser/functions",
            "lib/facter",
        ] {
            collect_with_extension(fs, &module.root.join(dir), "rb", &mut ruby_files);
        }
    }
    ruby_files.sort();
    ruby_files.dedup();
    let mut data_files = Vec::new();
    for root in environments.iter().chain(modules.iter().map(|m| &m.root)) {
        collect_hiera_files(fs, root, &mut data_files);
    }
    data_files.sort();
    data_files.dedup();
    let mut assets = Vec::new();
    for module in &modules {
        for dir in ASSET_DIRS {
            collect_all(fs, &module.root.join(dir), &mut assets);
        }
    }
    let metadata_files = modules
        .iter()
        .map(|m| m.root.join(crate::metadata::FILE_NAME))
        .filter(|path| fs.is_file(path))
        .collect();
    Discovered {
        layout: Layout {
            modules,
            environments,
            global_hiera: None,
        },
        files,
        ruby_files,
        data_files,
        metadata_files,
        assets,
    }
}

/// Every file under a directory (hidden entries skipped).
fn collect_all(fs: &dyn FileSystem, dir: &Path, out: &mut Vec<PathBuf>) {
    for path in fs.read_dir(dir) {
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            continue;
        }
        if fs.is_dir(&path) {
            collect_all(fs, &path, out);
        } else {
            out.push(path);
        }
    }
}

/// Adds the global Hiera layer: its `hiera.yaml` (at `config`) and the
/// data files of the directories it names (relative to it, or absolute).
pub fn add_global_hiera(fs: &dyn FileSystem, discovered: &mut Discovered, config: &Path) {
    let Some(text) = fs.read_to_string(config) else {
        return;
    };
    let root = config.parent().unwrap_or(Path::new("/"));
    discovered.layout.global_hiera = Some(config.to_path_buf());
    discovered.data_files.push(config.to_path_buf());
    for dir in crate::hiera::config::parse(&text).datadirs() {
        collect_data_dir(fs, &root.join(dir), &mut discovered.data_files);
    }
    discovered.data_files.sort();
    discovered.data_files.dedup();
}

/// The `hiera.yaml` of an environment or module and the data files under
/// the data directories it names (`data/` without one, as Hiera 5 does).
fn collect_hiera_files(fs: &dyn FileSystem, root: &Path, out: &mut Vec<PathBuf>) {
    let config_path = root.join("hiera.yaml");
    let datadirs: Vec<String> = match fs.read_to_string(&config_path) {
        Some(text) => {
            out.push(config_path);
            crate::hiera::config::parse(&text)
                .datadirs()
                .into_iter()
                .map(String::from)
                .collect()
        }
        None => vec![crate::hiera::config::DEFAULT_DATADIR.to_string()],
    };
    for dir in datadirs {
        let dir = root.join(dir);
        // A data directory must stay inside its root (`datadir: ../x` is
        // not followed).
        if !dir.starts_with(root) || dir.components().any(|c| c.as_os_str() == "..") {
            continue;
        }
        collect_data_dir(fs, &dir, out);
    }
}

/// The data files (YAML, JSON, eYAML) under a data directory.
fn collect_data_dir(fs: &dyn FileSystem, dir: &Path, out: &mut Vec<PathBuf>) {
    for extension in ["yaml", "yml", "json", "eyaml"] {
        collect_with_extension(fs, dir, extension, out);
    }
}

/// A control repository: an environment configuration, a site manifest,
/// or an environment-level Hiera configuration beside a module directory.
fn is_environment(fs: &dyn FileSystem, dir: &Path) -> bool {
    fs.is_file(&dir.join("environment.conf"))
        || fs.is_file(&dir.join("manifests/site.pp"))
        || (fs.is_file(&dir.join("hiera.yaml"))
            && ["modules", "site", "site-modules"]
                .iter()
                .any(|d| fs.is_dir(&dir.join(d))))
}

/// `moduledir 'dir'` in a Puppetfile (r10k and g10k install modules there;
/// `modules/` is the default and is looked at anyway).
fn puppetfile_moduledir(fs: &dyn FileSystem, root: &Path) -> Option<PathBuf> {
    let puppetfile = fs.read_to_string(&root.join("Puppetfile"))?;
    let line = puppetfile
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("moduledir"))?;
    let dir = line["moduledir".len()..]
        .trim()
        .trim_matches(|c| c == '\'' || c == '"');
    (!dir.is_empty()).then(|| root.join(dir))
}

/// `symlinks:` entries of `.fixtures.yml` (`name: "#{source_dir}/path"`):
/// modules the tests use from elsewhere on disk.
fn fixture_symlinks(fs: &dyn FileSystem, module: &Path) -> Vec<Module> {
    let Some(text) = fs.read_to_string(&module.join(".fixtures.yml")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut in_symlinks = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if trimmed == "symlinks:" {
            in_symlinks = true;
            continue;
        }
        if in_symlinks && indent <= 2 && trimmed.ends_with(':') {
            in_symlinks = false;
        }
        if !in_symlinks || indent < 4 {
            continue;
        }
        let Some((name, target)) = trimmed.split_once(':') else {
            continue;
        };
        let target = target.trim().trim_matches(|c| c == '\'' || c == '"');
        let target = target.replace("#{source_dir}", &module.to_string_lossy());
        let root = if Path::new(&target).is_absolute() {
            PathBuf::from(target)
        } else {
            module.join(target)
        };
        if fs.is_dir(&root) {
            out.push(Module {
                name: name.trim().to_string(),
                root,
            });
        }
    }
    out
}

fn in_fixtures(path: &Path) -> bool {
    path.to_string_lossy().contains("/spec/fixtures/")
}

fn subdirs(fs: &dyn FileSystem, dir: &Path) -> Vec<PathBuf> {
    fs.read_dir(dir)
        .into_iter()
        .filter(|p| fs.is_dir(p))
        .collect()
}

fn collect_with_extension(
    fs: &dyn FileSystem,
    dir: &Path,
    extension: &str,
    out: &mut Vec<PathBuf>,
) {
    for path in fs.read_dir(dir) {
        if fs.is_dir(&path) {
            collect_with_extension(fs, &path, extension, out);
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
}

/// All `.pp` and `.epp` files under a path (a file counts as itself).
pub fn collect_sources(fs: &dyn FileSystem, path: &Path, out: &mut Vec<PathBuf>) {
    out.extend(sources_under(fs, path));
}

/// The sources under `path`, in directory order; subdirectories are walked
/// on every core (a big tree's walk is mostly waiting on the disk).
fn sources_under(fs: &dyn FileSystem, path: &Path) -> Vec<PathBuf> {
    use rayon::prelude::*;
    if fs.is_file(path) {
        return vec![path.to_path_buf()];
    }
    fs.read_dir(path)
        .into_par_iter()
        .flat_map_iter(|entry| {
            let name = entry
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if fs.is_dir(&entry) {
                // Version-control and build directories hold no sources;
                // test fixtures are collected as modules of their own (if
                // wanted).
                let fixtures =
                    name == "fixtures" && entry.parent().is_some_and(|p| p.ends_with("spec"));
                if !name.starts_with('.') && name != "target" && name != "node_modules" && !fixtures
                {
                    return sources_under(fs, &entry);
                }
                Vec::new()
            } else if name.ends_with(".pp") || name.ends_with(".epp") {
                vec![entry]
            } else {
                Vec::new()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn control_repository_with_puppetfile_and_fixtures() {
        let fs: puppet_vfs::MemoryFs = [
            ("/ws/vendor/apache/metadata.json", "{}"),
            ("/ws/lib-dev/mod/README.md", ""),
            (
                "/ws/Puppetfile",
                "moduledir 'vendor'\nmod 'puppetlabs/apache'\n",
            ),
            ("/ws/manifests/site.pp", "node default { }\n"),
            (
                "/ws/site/profile/manifests/web.pp",
                "class profile::web { }\n",
            ),
        ]
        .into_iter()
        .collect();
        let root = PathBuf::from("/ws");
        let found = discover(&fs, std::slice::from_ref(&root));
        let names: Vec<&str> = found
            .layout
            .modules
            .iter()
            .map(|m| m.name.as_str())
            .collect();
        assert_eq!(names, ["profile", "apache"], "{names:?}");
        assert_eq!(found.layout.environments, vec![root.clone()]);
        assert_eq!(
            found.metadata_files,
            [PathBuf::from("/ws/vendor/apache/metadata.json")]
        );
        assert_eq!(
            found.files,
            [
                PathBuf::from("/ws/manifests/site.pp"),
                PathBuf::from("/ws/site/profile/manifests/web.pp")
            ]
        );
    }
}
