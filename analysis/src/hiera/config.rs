//! `hiera.yaml` (Hiera 5) read into plain data: the hierarchy's levels with
//! their data directories, path templates and backends. Problems are kept
//! as data with ranges; nothing is resolved against files here.

use super::yaml::{self, YamlNode, YamlValue};
use puppet_syntax::{Severity, TextRange};

/// Hiera's default data directory, relative to the `hiera.yaml`.
pub const DEFAULT_DATADIR: &str = "data";

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct HieraConfig {
    /// `version:` (Hiera 5 needs 5).
    pub version: Option<i64>,
    /// `defaults: datadir:` (else [`DEFAULT_DATADIR`]).
    pub datadir: Option<String>,
    /// `defaults:` backend.
    pub backend: Option<Backend>,
    pub hierarchy: Vec<Level>,
    /// A module's `default_hierarchy`, consulted only when the regular
    /// hierarchy finds nothing.
    pub default_hierarchy: Vec<Level>,
    /// The YAML syntax errors (then nothing else is read).
    pub syntax_errors: Vec<yaml::YamlError>,
    /// What Hiera 5 cannot use.
    pub problems: Vec<ConfigProblem>,
}

/// One level of a hierarchy.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Level {
    pub name: String,
    pub name_range: TextRange,
    /// Its own `datadir:`.
    pub datadir: Option<String>,
    pub backend: Option<Backend>,
    pub paths: Vec<PathSpec>,
}

/// Where a level's data is, as written (templates may interpolate facts).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathSpec {
    /// `path:`/`paths:`: a file relative to the data directory.
    Path(String),
    /// `glob:`/`globs:`: every matching file.
    Glob(String),
    /// `mapped_paths: [var, key, template]`: one file per element of `var`.
    Mapped {
        var: String,
        key: String,
        template: String,
    },
    /// `uri:`/`uris:`: for custom backends.
    Uri(String),
}

impl PathSpec {
    pub fn template(&self) -> &str {
        match self {
            PathSpec::Path(t) | PathSpec::Glob(t) | PathSpec::Uri(t) => t,
            PathSpec::Mapped { template, .. } => template,
        }
    }
}

/// How a level's data is read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Backend {
    /// `data_hash: yaml_data` (the default).
    Yaml,
    /// `data_hash: json_data`.
    Json,
    /// `lookup_key: eyaml_lookup_key`: YAML with encrypted values.
    Eyaml,
    /// Another function (`data_hash`, `lookup_key` or `data_dig`): its data
    /// cannot be read statically.
    Other(String),
}

impl Backend {
    fn from_key(key: &str, function: &str) -> Option<Backend> {
        Some(match (key, function) {
            ("data_hash", "yaml_data") => Backend::Yaml,
            ("data_hash", "json_data") => Backend::Json,
            ("lookup_key", "eyaml_lookup_key") => Backend::Eyaml,
            ("data_hash" | "lookup_key" | "data_dig" | "hiera3_backend", other) => {
                Backend::Other(other.to_string())
            }
            _ => return None,
        })
    }

    /// The file extensions this backend reads.
    pub fn extensions(&self) -> &'static [&'static str] {
        match self {
            Backend::Yaml => &["yaml", "yml"],
            Backend::Json => &["json"],
            Backend::Eyaml => &["eyaml", "yaml", "yml"],
            Backend::Other(_) => &[],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConfigProblem {
    pub range: TextRange,
    pub message: String,
    /// An error when Puppet's lookups fail on it, a warning when Puppet
    /// only warns (version 4) or ignores the file (version 3).
    pub severity: Severity,
    /// Not a problem in the global layer's `hiera.yaml`.
    pub global_only: bool,
    /// The file is version 3, which only the global layer may use: what
    /// Puppet does with it depends on the layer and on `strict` (see
    /// `diagnostics/data_files.rs`).
    pub version_3: bool,
}

impl HieraConfig {
    /// Every data directory the configuration names (relative to it).
    pub fn datadirs(&self) -> Vec<&str> {
        let default = self.datadir.as_deref().unwrap_or(DEFAULT_DATADIR);
        let mut dirs = vec![default];
        for level in self.hierarchy.iter().chain(&self.default_hierarchy) {
            if let Some(dir) = &level.datadir {
                if !dirs.contains(&dir.as_str()) {
                    dirs.push(dir);
                }
            }
        }
        dirs
    }
}

/// Reads a `hiera.yaml`.
pub fn parse(text: &str) -> HieraConfig {
    let doc = yaml::parse(text);
    let mut config = HieraConfig {
        syntax_errors: doc.errors,
        ..HieraConfig::default()
    };
    let Some(root) = doc.root else {
        return config;
    };
    let problem = |config: &mut HieraConfig, node: &YamlNode, message: String| {
        config.problems.push(ConfigProblem {
            range: node.range,
            message,
            severity: Severity::Error,
            global_only: false,
            version_3: false,
        });
    };
    let warning = |config: &mut HieraConfig, node: &YamlNode, message: String| {
        config.problems.push(ConfigProblem {
            range: node.range,
            message,
            severity: Severity::Warning,
            global_only: false,
            version_3: false,
        });
    };
    let version_node = root.get("version").unwrap_or(&root).clone();
    config.version = match root.get("version").map(|v| &v.value) {
        Some(YamlValue::Integer(v)) => Some(*v),
        _ => None,
    };
    match config.version {
        Some(5) => {}
        // Puppet 7 reads version 4 with a deprecation warning.
        Some(4) => {
            warning(
                &mut config,
                &version_node,
                "hiera.yaml version 4 is deprecated: convert it to version 5".to_string(),
            );
            config.datadir = root
                .get("datadir")
                .and_then(|d| d.as_str())
                .map(String::from);
            return config;
        }
        // Without a version but with a version 5 `hierarchy:` of levels,
        // Puppet reads version 3's schema and fails.
        None if root.get("hierarchy").is_some() => {
            problem(
                &mut config,
                root.get("hierarchy").unwrap_or(&root),
                "`version: 5` is missing: without it Puppet reads the file as version 3, whose `hierarchy` is a list of strings, and its lookups fail".to_string(),
            );
            return config;
        }
        // Without a version Hiera reads version 3, which only the global
        // layer may use: Puppet ignores it in an environment or module.
        Some(3) | None => {
            warning(
                &mut config,
                &version_node,
                "a hiera.yaml without `version: 5` is read as version 3, which Puppet ignores in an environment or module".to_string(),
            );
            if let Some(p) = config.problems.last_mut() {
                p.version_3 = true;
            }
            return config;
        }
        Some(version) => {
            problem(
                &mut config,
                &version_node,
                format!("Hiera version {version} does not exist: Puppet 7 reads version 5"),
            );
            return config;
        }
    }
    for (key, _) in root.entries() {
        let known = [
            "version",
            "defaults",
            "hierarchy",
            "default_hierarchy",
            "plan_hierarchy",
        ];
        if let Some(name) = key.as_str().filter(|k| !known.contains(k)) {
            problem(
                &mut config,
                key,
                format!("unknown key `{name}`: a version 5 hiera.yaml has `version`, `defaults`, `hierarchy` and (in a module) `default_hierarchy`"),
            );
        }
    }
    if let Some(defaults) = root.get("defaults") {
        config.datadir = defaults
            .get("datadir")
            .and_then(|d| d.as_str())
            .map(String::from);
        config.backend = backend(defaults);
    }
    for (key, target) in [("hierarchy", false), ("default_hierarchy", true)] {
        let Some(list) = root.get(key) else { continue };
        let YamlValue::Sequence(items) = &list.value else {
            problem(
                &mut config,
                list,
                format!("`{key}` must be a list of levels"),
            );
            continue;
        };
        for item in items {
            for (message, global_only) in level_key_problems(item) {
                config.problems.push(ConfigProblem {
                    range: item.range,
                    message,
                    severity: Severity::Error,
                    global_only,
                    version_3: false,
                });
            }
            match level(item) {
                Ok(level)
                    if config
                        .hierarchy
                        .iter()
                        .chain(&config.default_hierarchy)
                        .any(|l| l.name == level.name) =>
                {
                    let message =
                        format!("hierarchy name '{}' is defined more than once", level.name);
                    config.problems.push(ConfigProblem {
                        range: level.name_range,
                        message,
                        severity: Severity::Error,
                        global_only: false,
                        version_3: false,
                    });
                }
                Ok(level) => {
                    if target {
                        config.default_hierarchy.push(level);
                    } else {
                        config.hierarchy.push(level);
                    }
                }
                Err(message) => problem(&mut config, item, message),
            }
        }
    }
    config
}

/// What Puppet's schema rejects in a level: unknown keys, several
/// locations or several backends, a location of the wrong shape; each
/// with whether the global layer allows it.
fn level_key_problems(node: &YamlNode) -> Vec<(String, bool)> {
    const LOCATIONS: [&str; 7] = [
        "path",
        "paths",
        "glob",
        "globs",
        "uri",
        "uris",
        "mapped_paths",
    ];
    const BACKENDS: [&str; 4] = ["data_hash", "lookup_key", "data_dig", "hiera3_backend"];
    let mut out = Vec::new();
    let keys: Vec<&str> = node
        .entries()
        .iter()
        .filter_map(|(k, _)| k.as_str())
        .collect();
    for key in &keys {
        if !LOCATIONS.contains(key)
            && !BACKENDS.contains(key)
            && !["name", "datadir", "options"].contains(key)
        {
            out.push(format!("unknown key `{key}` in a hierarchy level"));
        }
    }
    if keys.iter().filter(|k| LOCATIONS.contains(k)).count() > 1 {
        out.push("only one of path, paths, glob, globs, uri, uris or mapped_paths may be given in a level".to_string());
    }
    if keys.iter().filter(|k| BACKENDS.contains(k)).count() > 1 {
        out.push(
            "only one of data_hash, lookup_key, data_dig or hiera3_backend may be given in a level"
                .to_string(),
        );
    }
    for (key, list) in [
        ("path", false),
        ("glob", false),
        ("uri", false),
        ("paths", true),
        ("globs", true),
        ("uris", true),
    ] {
        let is_list = match node.get(key).map(|v| &v.value) {
            Some(YamlValue::Sequence(_)) => true,
            Some(_) => false,
            None => continue,
        };
        if is_list != list {
            let shape = if list {
                "a list of strings"
            } else {
                "a string"
            };
            out.push(format!("`{key}` must be {shape}"));
        }
    }
    let mut out: Vec<(String, bool)> = out.into_iter().map(|m| (m, false)).collect();
    if keys.contains(&"hiera3_backend") {
        out.push((
            "`hiera3_backend` is only allowed in the global layer".to_string(),
            true,
        ));
    }
    out
}

fn backend(node: &YamlNode) -> Option<Backend> {
    ["data_hash", "lookup_key", "data_dig", "hiera3_backend"]
        .iter()
        .find_map(|key| Backend::from_key(key, node.get(key)?.as_str()?))
}

fn level(node: &YamlNode) -> Result<Level, String> {
    let name_node = node.get("name").ok_or("a hierarchy level needs a `name`")?;
    let name = name_node
        .as_str()
        .ok_or("a hierarchy level's `name` must be a string")?
        .to_string();
    let mut paths = Vec::new();
    let strings = |n: &YamlNode| -> Vec<String> {
        match &n.value {
            YamlValue::Sequence(items) => items
                .iter()
                .filter_map(|i| i.as_str().map(String::from))
                .collect(),
            _ => n.as_str().map(String::from).into_iter().collect(),
        }
    };
    for (key, make) in [
        ("path", PathSpec::Path as fn(String) -> PathSpec),
        ("paths", PathSpec::Path),
        ("glob", PathSpec::Glob),
        ("globs", PathSpec::Glob),
        ("uri", PathSpec::Uri),
        ("uris", PathSpec::Uri),
    ] {
        if let Some(value) = node.get(key) {
            paths.extend(strings(value).into_iter().map(make));
        }
    }
    if let Some(mapped) = node.get("mapped_paths") {
        match strings(mapped).as_slice() {
            [var, key, template] => paths.push(PathSpec::Mapped {
                var: var.clone(),
                key: key.clone(),
                template: template.clone(),
            }),
            _ => {
                return Err(format!(
                    "level '{name}': `mapped_paths` takes three strings: [variable, key, template]"
                ))
            }
        }
    }
    let backend = backend(node);
    if paths.is_empty() && !matches!(backend, Some(Backend::Other(_))) {
        return Err(format!(
            "level '{name}' has no `path`, `paths`, `glob`, `globs` or `mapped_paths`"
        ));
    }
    Ok(Level {
        name,
        name_range: name_node.range,
        datadir: node
            .get("datadir")
            .and_then(|d| d.as_str())
            .map(String::from),
        backend,
        paths,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typical_environment_hierarchy() {
        let config = parse(
            "---\nversion: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n  - name: Nodes\n    path: nodes/%{trusted.certname}.yaml\n  - name: Secrets\n    lookup_key: eyaml_lookup_key\n    paths: [secrets.eyaml]\n  - name: Common\n    path: common.yaml\n    datadir: shared\n",
        );
        assert!(config.problems.is_empty(), "{:?}", config.problems);
        assert_eq!(config.version, Some(5));
        assert_eq!(config.hierarchy.len(), 3);
        assert_eq!(
            config.hierarchy[0].paths,
            [PathSpec::Path("nodes/%{trusted.certname}.yaml".into())]
        );
        assert_eq!(config.hierarchy[1].backend, Some(Backend::Eyaml));
        assert_eq!(config.datadirs(), ["data", "shared"]);
    }

    #[test]
    fn problems_are_reported() {
        let config = parse("version: 5\nhierarchy:\n  - name: x\n  - path: a.yaml\n");
        let messages: Vec<&str> = config.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(messages[0].contains("no `path`"));
        assert!(messages[1].contains("needs a `name`"));
        assert!(config
            .problems
            .iter()
            .all(|p| p.severity == Severity::Error));
        // What Puppet 7 only warns about: version 4 (deprecated, read) and
        // version 3 (ignored outside the global layer).
        for (text, words) in [
            (
                "version: 4\ndatadir: hieradata\nhierarchy:\n  - name: x\n",
                "deprecated",
            ),
            ("---\n:backends: [yaml]\n", "version 3"),
        ] {
            let config = parse(text);
            assert_eq!(config.problems.len(), 1, "{text}");
            assert_eq!(config.problems[0].severity, Severity::Warning);
            assert!(config.problems[0].message.contains(words), "{text}");
        }
        assert_eq!(
            parse("version: 4\ndatadir: hieradata\n").datadirs(),
            ["hieradata"]
        );
        assert_eq!(parse("version: 6\n").problems[0].severity, Severity::Error);
        let broken = parse("version: 5\nhierarchy: [\n");
        assert_eq!(broken.syntax_errors.len(), 1);
    }
}
