//! Finding the Puppet code of a workspace the way Puppet users lay it out:
//! a single module, a control repository (`environment.conf` with
//! `modulepath`, `manifests/site.pp`, `site/`, `modules/`, `site-modules/`),
//! a plain directory of modules, test fixtures (`spec/fixtures/modules`),
//! several roots at once; and the autoloading rules that say which file
//! must define which name.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A module: its name (its directory's name, as Puppet's autoloader uses)
/// and directory.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Module {
    pub name: String,
    pub root: PathBuf,
}

/// The modules of a workspace, by name (the first found wins, as on a
/// module path).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Layout {
    pub modules: Vec<Module>,
}

impl Layout {
    pub fn module(&self, name: &str) -> Option<&Module> {
        self.modules.iter().find(|m| m.name == name)
    }

    /// The module a file belongs to, with the file's path inside it.
    pub fn module_of<'a>(&'a self, file: &'a Path) -> Option<(&'a Module, &'a Path)> {
        self.modules
            .iter()
            .filter_map(|m| file.strip_prefix(&m.root).ok().map(|rel| (m, rel)))
            .max_by_key(|(m, _)| m.root.components().count())
    }
}

/// What autoloading expects a file to define: the namespace its
/// definitions' names must start with. `None` for files that are not
/// autoloaded (examples, tests, site manifests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoloadExpectation {
    /// `mod::a::b` for `mod/manifests/a/b.pp`; `mod` for `init.pp`.
    pub namespace: String,
    /// `manifests`, `functions`, `types` or `plans`.
    pub dir: &'static str,
}

/// The autoload expectation for a `.pp` file of a module.
pub fn autoload_expectation(layout: &Layout, file: &Path) -> Option<AutoloadExpectation> {
    if file.extension().and_then(|e| e.to_str()) != Some("pp") {
        return None;
    }
    let (module, rel) = layout.module_of(file)?;
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().to_lowercase())
        .collect();
    if parts.len() < 2 {
        return None;
    }
    let dir = match parts[0].as_str() {
        "manifests" => "manifests",
        "functions" => "functions",
        "types" => "types",
        "plans" => "plans",
        _ => return None,
    };
    let file_name = parts.pop()?;
    let stem = file_name.strip_suffix(".pp")?.to_string();
    let mut names = vec![module.name.to_lowercase()];
    names.extend(parts.into_iter().skip(1));
    if !(rel.iter().count() == 2 && stem == "init") {
        names.push(stem);
    }
    Some(AutoloadExpectation {
        namespace: names.join("::"),
        dir,
    })
}

/// Roots given by the user, expanded into modules and source files.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    pub layout: Layout,
    pub files: Vec<PathBuf>,
    /// Ruby plugin files (`lib/puppet/{type,functions,parser/functions}`).
    pub ruby_files: Vec<PathBuf>,
}

/// Whether a directory looks like a Puppet module.
fn is_module(dir: &Path) -> bool {
    ["manifests", "types", "functions", "plans"]
        .iter()
        .any(|d| dir.join(d).is_dir())
        || dir.join("metadata.json").is_file()
        || dir.join("lib/puppet").is_dir()
}

/// The module's name is its directory's name on the module path (not a
/// symlink's target: Debian links `apache` to `puppetlabs-apache`).
fn module_dir_name(dir: &Path) -> Option<String> {
    match dir.file_name() {
        Some(name) if name != "." && name != ".." => Some(name.to_string_lossy().into_owned()),
        _ => Some(
            dir.canonicalize()
                .ok()?
                .file_name()?
                .to_string_lossy()
                .into_owned(),
        ),
    }
}

/// Module directories listed in `environment.conf`'s `modulepath` (relative
/// entries; `$basemodulepath` and absolute entries are ignored here).
fn environment_modulepath(root: &Path) -> Option<Vec<PathBuf>> {
    let conf = std::fs::read_to_string(root.join("environment.conf")).ok()?;
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
pub fn discover(paths: &[PathBuf]) -> Discovered {
    let mut modules: BTreeMap<PathBuf, Module> = BTreeMap::new();
    let mut module_dirs: Vec<PathBuf> = Vec::new();
    let mut source_roots: Vec<PathBuf> = Vec::new();
    for path in paths {
        if path.is_file() {
            source_roots.push(path.clone());
            continue;
        }
        if !path.is_dir() {
            continue;
        }
        source_roots.push(path.clone());
        if is_module(path) {
            module_dirs.push(path.clone());
        }
        let mut module_paths = environment_modulepath(path).unwrap_or_default();
        for dir in ["site", "modules", "site-modules", "dist"] {
            let candidate = path.join(dir);
            if candidate.is_dir() && !module_paths.contains(&candidate) {
                module_paths.push(candidate);
            }
        }
        for module_path in module_paths {
            module_dirs.extend(subdirs(&module_path).into_iter().filter(|d| is_module(d)));
        }
        // A plain directory of modules.
        if !is_module(path) {
            module_dirs.extend(subdirs(path).into_iter().filter(|d| is_module(d)));
        }
    }
    // Test fixtures (`.fixtures.yml` puts them under spec/fixtures/modules)
    // are dependencies; a module's fixture copy of itself is skipped below
    // (the first module of a name wins, as on a module path).
    let fixtures: Vec<PathBuf> = module_dirs
        .iter()
        .flat_map(|m| subdirs(&m.join("spec/fixtures/modules")))
        .collect();
    module_dirs.extend(fixtures);
    for dir in module_dirs {
        if let Some(name) = module_dir_name(&dir) {
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
        collect_sources(root, &mut files);
    }
    for module in &modules {
        if !source_roots.iter().any(|r| module.root.starts_with(r)) || in_fixtures(&module.root) {
            collect_sources(&module.root, &mut files);
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
        ] {
            collect_with_extension(&module.root.join(dir), "rb", &mut ruby_files);
        }
    }
    ruby_files.sort();
    ruby_files.dedup();
    Discovered {
        layout: Layout { modules },
        files,
        ruby_files,
    }
}

fn in_fixtures(path: &Path) -> bool {
    path.to_string_lossy().contains("/spec/fixtures/")
}

fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn collect_with_extension(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_with_extension(&path, extension, out);
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
}

/// All `.pp` and `.epp` files under a path (a file counts as itself).
pub fn collect_sources(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for entry in entries {
        let name = entry
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if entry.is_dir() {
            // Version-control and build directories hold no sources; test
            // fixtures are collected as modules of their own (if wanted).
            let fixtures =
                name == "fixtures" && entry.parent().is_some_and(|p| p.ends_with("spec"));
            if !name.starts_with('.') && name != "target" && name != "node_modules" && !fixtures {
                collect_sources(&entry, out);
            }
        } else if name.ends_with(".pp") || name.ends_with(".epp") {
            out.push(entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        Layout {
            modules: vec![Module {
                name: "ntp".to_string(),
                root: PathBuf::from("/m/ntp"),
            }],
        }
    }

    #[test]
    fn autoload_namespaces() {
        let ns = |p: &str| autoload_expectation(&layout(), Path::new(p)).map(|e| e.namespace);
        assert_eq!(ns("/m/ntp/manifests/init.pp").as_deref(), Some("ntp"));
        assert_eq!(
            ns("/m/ntp/manifests/config/file.pp").as_deref(),
            Some("ntp::config::file")
        );
        assert_eq!(
            ns("/m/ntp/functions/helper.pp").as_deref(),
            Some("ntp::helper")
        );
        assert_eq!(ns("/m/ntp/types/Port.pp").as_deref(), Some("ntp::port"));
        assert_eq!(ns("/m/ntp/examples/init.pp"), None);
        assert_eq!(ns("/m/ntp/templates/x.epp"), None);
        assert_eq!(ns("/elsewhere/site.pp"), None);
    }
}
