//! Where things are in a workspace, as plain data: its modules and
//! environments (`Layout`), and the autoloading rules that say which file
//! must define which name. `workspace.rs` discovers a layout on disk.

use std::path::{Path, PathBuf};

/// The directories of a module whose files are read by name at run time.
pub const ASSET_DIRS: [&str; 2] = ["templates", "files"];

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
    /// The global Hiera layer's `hiera.yaml`, when the user configures
    /// one (Puppet's `hiera_config`, outside every environment).
    pub global_hiera: Option<PathBuf>,
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

    /// Whether a path is in a module's `templates/` or `files/` directory.
    pub fn is_asset(&self, path: &Path) -> bool {
        self.module_of(path)
            .is_some_and(|(_, inside)| ASSET_DIRS.iter().any(|dir| inside.starts_with(dir)))
    }

    /// The file a `file()` reference or a `puppet:///modules/` URL names:
    /// `mod/x` is `files/x` of module `mod`. `None` when the module is not
    /// in the workspace or the reference is not `mod/file`.
    pub fn module_file(&self, reference: &str) -> Option<PathBuf> {
        let (module, rest) = reference.split_once('/')?;
        if module.is_empty() || rest.is_empty() {
            return None;
        }
        Some(self.module(module)?.root.join("files").join(rest))
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
            global_hiera: None,
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
}
