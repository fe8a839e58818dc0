//! Finding the Puppet code of a workspace the way Puppet users lay it out:
//! a single module, a control repository (`environment.conf` with
//! `modulepath`, `manifests/site.pp`, `site/`, `modules/`, `site-modules/`),
//! a plain directory of modules, test fixtures (`spec/fixtures/modules`),
//! several roots at once; and the autoloading rules that say which file
//! must define which name.

use puppet_vfs::FileSystem;
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
    /// Roots of environments (control repositories): their own
    /// `functions/` and `types/` define the `environment::` namespace.
    pub environments: Vec<PathBuf>,
}

impl Layout {
    pub fn module(&self, name: &str) -> Option<&Module> {
        self.modules.iter().find(|m| m.name == name)
    }

    /// The file a template reference names, as Puppet finds it:
    /// `mod/x.epp` is `templates/x.epp` of module `mod`; `epp()` appends
    /// `.epp` to a name without it (`epp('mod/x.conf')` reads
    /// `x.conf.epp`), `template()` takes the name as it is. `None` when the
    /// module is not in the workspace or the reference is not `mod/file`.
    pub fn template_file(&self, function: TemplateFunction, reference: &str) -> Option<PathBuf> {
        let (module, rest) = reference.split_once('/')?;
        if module.is_empty() || rest.is_empty() {
            return None;
        }
        let module = self.module(module)?;
        let file = match function {
            TemplateFunction::Epp if !rest.ends_with(".epp") => format!("{rest}.epp"),
            _ => rest.to_string(),
        };
        Some(module.root.join("templates").join(file))
    }

    /// The module a file belongs to, with the file's path inside it.
    /// The innermost module wins (a module's fixtures can hold modules).
    /// Walks up from the file instead of trying every module's root, which
    /// cost a path comparison per module for every file.
    pub fn module_of<'a>(&'a self, file: &'a Path) -> Option<(&'a Module, &'a Path)> {
        file.ancestors().skip(1).find_map(|dir| {
            let name = dir.file_name()?;
            let module = self
                .modules
                .iter()
                .find(|m| m.root.file_name() == Some(name) && m.root == dir)?;
            Some((module, file.strip_prefix(dir).ok()?))
        })
    }
}

/// The functions that render a template file of a module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplateFunction {
    /// `epp()`: an EPP template.
    Epp,
    /// `template()`: an ERB template.
    Erb,
}

impl TemplateFunction {
    pub fn from_name(name: &str) -> Option<TemplateFunction> {
        match name {
            "epp" => Some(TemplateFunction::Epp),
            "template" => Some(TemplateFunction::Erb),
            _ => None,
        }
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
    // An environment's own functions and types: `environment::name`.
    for env in &layout.environments {
        let Ok(rel) = file.strip_prefix(env) else {
            continue;
        };
        let parts: Vec<String> = rel
            .iter()
            .map(|c| c.to_string_lossy().to_lowercase())
            .collect();
        let dir = match parts.first().map(String::as_str) {
            Some("functions") => "functions",
            Some("types") => "types",
            _ => continue,
        };
        let mut names = vec!["environment".to_string()];
        names.extend(parts[1..parts.len() - 1].iter().cloned());
        names.push(parts.last()?.strip_suffix(".pp")?.to_string());
        return Some(AutoloadExpectation {
            namespace: names.join("::"),
            dir,
        });
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

/// Where autoloading looks for a name (the inverse of
/// [`autoload_expectation`]): `mod::a::b` in `dir` (`manifests`,
/// `functions`, `types`, `plans`) is `<mod>/<dir>/a/b.pp`, a module's own
/// class `mod` is `<mod>/manifests/init.pp`. `None` when the module is not
/// in the workspace or the name cannot be autoloaded.
pub fn autoload_path(layout: &Layout, dir: &str, name: &str) -> Option<PathBuf> {
    let lower = name.trim_start_matches("::").to_lowercase();
    let mut segments = lower.split("::");
    let module = layout.module(segments.next()?)?;
    let rest: Vec<&str> = segments.collect();
    let mut path = module.root.join(dir);
    match rest.split_last() {
        None if dir == "manifests" => path.push("init.pp"),
        None => return None,
        Some((last, init)) => {
            path.extend(init);
            path.push(format!("{last}.pp"));
        }
    }
    Some(path)
}

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
    Discovered {
        layout: Layout {
            modules,
            environments,
        },
        files,
        ruby_files,
        data_files,
    }
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
        for extension in ["yaml", "yml", "json", "eyaml"] {
            collect_with_extension(fs, &dir, extension, out);
        }
    }
}

/// A control repository: an environment configuration or a site manifest.
fn is_environment(fs: &dyn FileSystem, dir: &Path) -> bool {
    fs.is_file(&dir.join("environment.conf")) || fs.is_file(&dir.join("manifests/site.pp"))
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
    if fs.is_file(path) {
        out.push(path.to_path_buf());
        return;
    }
    for entry in fs.read_dir(path) {
        let name = entry
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if fs.is_dir(&entry) {
            // Version-control and build directories hold no sources; test
            // fixtures are collected as modules of their own (if wanted).
            let fixtures =
                name == "fixtures" && entry.parent().is_some_and(|p| p.ends_with("spec"));
            if !name.starts_with('.') && name != "target" && name != "node_modules" && !fixtures {
                collect_sources(fs, &entry, out);
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
            environments: vec![PathBuf::from("/env")],
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
        assert_eq!(
            ns("/env/functions/helper.pp").as_deref(),
            Some("environment::helper")
        );
        assert_eq!(
            ns("/env/types/port.pp").as_deref(),
            Some("environment::port")
        );
        assert_eq!(ns("/env/manifests/site.pp"), None);
        let path = |dir, name| autoload_path(&layout(), dir, name);
        assert_eq!(
            path("manifests", "ntp"),
            Some("/m/ntp/manifests/init.pp".into())
        );
        assert_eq!(
            path("types", "Ntp::Port::Range"),
            Some("/m/ntp/types/port/range.pp".into())
        );
        assert_eq!(path("functions", "ntp"), None);
        assert_eq!(path("manifests", "other::x"), None);
    }

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
            found.files,
            [
                PathBuf::from("/ws/manifests/site.pp"),
                PathBuf::from("/ws/site/profile/manifests/web.pp")
            ]
        );
    }
}
