//! The server's settings, read from `initializationOptions` and from
//! `workspace/didChangeConfiguration` (shape fixed by the editor contract):
//! `{ "modulePaths": [..], "strictVariables": bool, "diagnostics": {
//! "select": [..], "ignore": [..], "severity": { code: "error" } },
//! "lint": { "enabled": bool, "rc": bool, "relative": bool,
//! "topScopeVariables": [..] }, "format": { "check": bool },
//! "codeLens": { "references": bool } }`, possibly
//! wrapped as `{"puppet-ls": {..}}`. Unknown keys and values of the wrong
//! type are ignored (with a warning for unknown codes and severities), so a
//! typo in a user's settings never stops the server. The project's
//! `puppet-ls.toml` goes under these settings: see
//! [`merged_settings`] and docs/configuration.md.

use crate::project_config::{
    validate_code_name, ProjectConfig, PuppetSettings, SeveritySetting, FILE_NAME,
};
use crate::target::{Origin, TargetChoice};
use puppet_lint_checks::LintConfig;
use puppet_syntax::Code;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Settings in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The project's `puppet-ls.toml` (or its defaults) with the editor's
    /// settings on top.
    pub settings: ProjectConfig,
    /// puppet-lint's configuration under these settings (with the
    /// `.puppet-lint.rc` files read when `for_workspace` made it); `None`
    /// when lint is switched off.
    pub lint: Option<Arc<LintConfig>>,
    /// `codeLens.references`: reference and include counts above
    /// definitions (an editor preference, off by default; not a project
    /// setting).
    pub code_lens: bool,
    /// The editor's `puppetVersion`, `strict` and `strictVariables`, which
    /// go over the project's `[puppet]` ([`Config::target_choice`]).
    pub editor_puppet: PuppetSettings,
}

impl Default for Config {
    fn default() -> Config {
        Config::new(ProjectConfig::empty(Path::new(FILE_NAME)), None)
    }
}

impl Config {
    /// `settings` with their lint configuration: puppet-lint's defaults,
    /// the `.puppet-lint.rc` files when `rc_home` is given (with the home
    /// directory, if any: see [`ProjectConfig::read_lint_config`]), then the
    /// settings.
    pub fn new(settings: ProjectConfig, rc_home: Option<Option<&Path>>) -> Config {
        let lint = settings.lint.enabled.then(|| {
            let config = match rc_home {
                Some(home) => {
                    let (config, problems) = settings.read_lint_config(home);
                    for (rc, problem) in problems {
                        tracing::warn!("{}:{}: {}", rc.display(), problem.line, problem.message);
                    }
                    config
                }
                None => settings.lint_config(std::iter::empty()).0,
            };
            Arc::new(config)
        });
        Config {
            settings,
            lint,
            code_lens: false,
            editor_puppet: PuppetSettings::default(),
        }
    }

    /// The settings of a workspace: its `puppet-ls.toml` (found upwards
    /// from the first folder; an invalid one is logged and left out), then
    /// the editor's settings on top, and the `.puppet-lint.rc` files beside
    /// the project file (or in the folder).
    pub fn for_workspace(value: &Value, root: Option<&Path>) -> Config {
        let project = root.and_then(|root| match crate::project_config::discover(root) {
            Ok(project) => project,
            Err(error) => {
                tracing::warn!("{error}; the project settings are not used");
                None
            }
        });
        let settings = merged_settings(project.as_ref(), value, root);
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let mut config = Config::new(settings, Some(home.as_deref()));
        let value = value.get("puppet-ls").unwrap_or(value);
        config.editor_puppet = editor_puppet_settings(value);
        config.code_lens = value
            .get("codeLens")
            .and_then(|c| c.get("references"))
            .and_then(Value::as_bool)
            .unwrap_or(false);
        config
    }

    /// Whether diagnostics with this code are shown.
    pub fn shows(&self, code: Code) -> bool {
        self.settings.shows(code.as_str())
    }

    /// Whether diagnostics with this code (an analysis code or a
    /// puppet-lint check name) are shown.
    pub fn shows_name(&self, code: &str) -> bool {
        self.settings.shows(code)
    }

    /// The severity the settings give this code, if they change it.
    pub fn severity_of(&self, code: &str) -> Option<SeveritySetting> {
        self.settings.severity_of(code)
    }

    /// The node whose Hiera values hovers show: its name (else the facts'
    /// `fqdn`) and facts read from the configured file; `None` when
    /// neither is configured or the facts cannot be read (logged).
    pub fn hiera_node(&self) -> Option<puppet_analysis::hiera::lookup::Node> {
        use puppet_analysis::hiera::lookup::{facts_from_text, Node};
        use puppet_analysis::model::Value;
        let settings = &self.settings.hiera;
        if settings.node.is_none() && settings.facts.is_none() {
            return None;
        }
        let facts = match &settings.facts {
            Some(path) => {
                let read = std::fs::read_to_string(path).map_err(|e| e.to_string());
                match read.and_then(|text| facts_from_text(&text)) {
                    Ok(facts) => facts,
                    Err(e) => {
                        tracing::warn!("hiera.facts {}: {e}; no node values shown", path.display());
                        return None;
                    }
                }
            }
            None => Default::default(),
        };
        let name = settings
            .node
            .clone()
            .or_else(|| match facts.get(&Value::string("fqdn")) {
                Some(Value::String(fqdn)) => Some(fqdn.clone()),
                _ => None,
            })?;
        Some(Node {
            name,
            facts,
            environment: "production".to_string(),
        })
    }

    /// The global Hiera layer's configuration, when set.
    pub fn global_hiera(&self) -> Option<&Path> {
        self.settings.hiera.global.as_deref()
    }

    /// The Puppet the workspace is checked for: the editor's settings over
    /// the project's `[puppet]`, over what the roots' `metadata.json` or
    /// `Gemfile` require.
    pub fn target_choice(&self, roots: &[PathBuf]) -> TargetChoice {
        let layers = [
            (
                self.settings.puppet,
                Origin::ConfigFile(self.settings.path.clone()),
            ),
            (self.editor_puppet, Origin::Editor),
        ];
        TargetChoice::choose(&layers, || {
            puppet_analysis::version_detection::detect(&puppet_vfs::DiskFs, roots)
        })
    }

    /// Extra directories of modules, like Puppet's modulepath.
    pub fn module_paths(&self) -> &[PathBuf] {
        &self.settings.workspace.module_paths
    }
}

/// The editor's `puppetVersion` (`"7"`, `"8"`, or `"auto"`/empty: the
/// project decides), `strict` (`"error"`, `"warning"`, `"off"`, or
/// `"auto"`) and `strictVariables` (a boolean, or null: the version's
/// default). Anything else is ignored with a warning.
pub fn editor_puppet_settings(value: &Value) -> PuppetSettings {
    let value = value.get("puppet-ls").unwrap_or(value);
    PuppetSettings {
        version: editor_word(value, "puppetVersion"),
        strict: editor_word(value, "strict"),
        strict_variables: value.get("strictVariables").and_then(Value::as_bool),
    }
}

/// A setting written as a word (or a number): `None` when absent, empty or
/// `auto`, or not a valid word (with a warning).
fn editor_word<T: std::str::FromStr<Err = String>>(value: &Value, key: &str) -> Option<T> {
    let found = value.get(key)?;
    let text = match found {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => {
            tracing::warn!("{key}: {found} is not a word; ignored");
            return None;
        }
    };
    if text.is_empty() || text == "auto" {
        return None;
    }
    text.parse()
        .map_err(|e| tracing::warn!("{key}: {e}; ignored"))
        .ok()
}

/// The project's `puppet-ls.toml` (if any; else the defaults of one in
/// `base`) with the editor's settings on top: a key the editor sets
/// replaces the project's value, except `diagnostics.ignore`, whose codes
/// are added to the project's, and `diagnostics.severity`, merged code by
/// code (the editor's word wins). Keys the editor does not set, sets to a
/// value of the wrong type, or sets to the default (an empty list, a
/// flag's default: editors send their defaults) keep the project's value.
pub fn merged_settings(
    project: Option<&ProjectConfig>,
    value: &Value,
    base: Option<&Path>,
) -> ProjectConfig {
    let value = value.get("puppet-ls").unwrap_or(value);
    let mut config = project.cloned().unwrap_or_else(|| {
        let file = base.map_or_else(|| PathBuf::from(FILE_NAME), |base| base.join(FILE_NAME));
        ProjectConfig::empty(&file)
    });
    let defaults = ProjectConfig::empty(Path::new(FILE_NAME));
    if let Some(paths) = value
        .get("modulePaths")
        .and_then(Value::as_array)
        .filter(|paths| !paths.is_empty())
    {
        config.workspace.module_paths = paths
            .iter()
            .filter_map(Value::as_str)
            .filter(|p| !p.is_empty())
            .map(|p| match base {
                Some(base) if Path::new(p).is_relative() => base.join(p),
                _ => PathBuf::from(p),
            })
            .collect();
    }
    let hiera = value.get("hiera");
    let text = |key: &str| {
        hiera
            .and_then(|h| h.get(key))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    if let Some(global) = text("global").filter(|g| g.ends_with("hiera.yaml")) {
        config.hiera.global = Some(match base {
            Some(base) if Path::new(global).is_relative() => base.join(global),
            _ => PathBuf::from(global),
        });
    }
    if let Some(node) = text("node") {
        config.hiera.node = Some(node.to_string());
    }
    if let Some(facts) = text("facts") {
        config.hiera.facts = Some(match base {
            Some(base) if Path::new(facts).is_relative() => base.join(facts),
            _ => PathBuf::from(facts),
        });
    }
    let diagnostics = value.get("diagnostics");
    if let Some(codes) = code_list(diagnostics, "select").filter(|c| !c.is_empty()) {
        config.diagnostics.select = codes;
    }
    if let Some(codes) = code_list(diagnostics, "ignore") {
        config.diagnostics.ignore.extend(codes);
    }
    if let Some(severities) = diagnostics
        .and_then(|d| d.get("severity"))
        .and_then(Value::as_object)
    {
        for (name, word) in severities {
            let setting = validate_code_name(name).and_then(|()| match word.as_str() {
                Some(word) => word.parse::<SeveritySetting>(),
                None => Err(format!("'{name}': {word} is not a severity word")),
            });
            match setting {
                Ok(setting) => {
                    config.diagnostics.severity.insert(name.clone(), setting);
                }
                Err(e) => tracing::warn!("diagnostics.severity: {e}; ignored"),
            }
        }
    }
    let lint = value.get("lint");
    if let Some(enabled) = flag(lint, "enabled", defaults.lint.enabled) {
        config.lint.enabled = enabled;
    }
    if let Some(rc) = flag(lint, "rc", defaults.lint.rc) {
        config.lint.rc = rc;
    }
    if let Some(relative) = flag(lint, "relative", defaults.lint.relative) {
        config.lint.relative = relative;
    }
    if let Some(names) = lint
        .and_then(|l| l.get("topScopeVariables"))
        .and_then(Value::as_array)
        .filter(|names| !names.is_empty())
    {
        config.lint.top_scope_variables = names
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
    }
    if let Some(check) = flag(value.get("format"), "check", defaults.format.check) {
        config.format.check = check;
    }
    config
}

/// `diagnostics.<key>` as a set of known code names (unknown ones dropped
/// with a warning); `None` when absent or not a list.
fn code_list(diagnostics: Option<&Value>, key: &str) -> Option<BTreeSet<String>> {
    let codes = diagnostics?.get(key)?.as_array()?;
    Some(
        codes
            .iter()
            .filter_map(Value::as_str)
            .filter(|name| {
                validate_code_name(name)
                    .map_err(|e| tracing::warn!("diagnostics.{key}: {e}; ignored"))
                    .is_ok()
            })
            .map(str::to_string)
            .collect(),
    )
}

/// `section.key` when it is a boolean other than `default`.
fn flag(section: Option<&Value>, key: &str, default: bool) -> Option<bool> {
    section?.get(key)?.as_bool().filter(|&v| v != default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project_config::{LintSettings, SeveritySetting};
    use puppet_analysis::target::{PuppetVersion, Strict};
    use serde_json::json;
    use std::collections::BTreeMap;

    /// The settings of `value` over `project`, without reading rc files.
    fn merged(project: Option<&ProjectConfig>, value: &Value, base: Option<&Path>) -> Config {
        Config::new(merged_settings(project, value, base), None)
    }

    #[test]
    fn reads_plain_and_wrapped_settings() {
        let settings = json!({
            "modulePaths": ["vendor", "/opt/modules", 3],
            "diagnostics": { "ignore": ["unknown-class", "no-such-code"] },
            "strictVariables": false,
        });
        for value in [settings.clone(), json!({ "puppet-ls": settings })] {
            let config = merged(None, &value, Some(Path::new("/ws")));
            assert_eq!(
                config.module_paths(),
                vec![PathBuf::from("/ws/vendor"), PathBuf::from("/opt/modules")]
            );
            assert!(!config.shows(Code::UnknownClass));
            assert_eq!(
                config.settings.diagnostics.ignore.len(),
                1,
                "unknown names are dropped"
            );
            assert!(
                config.shows(Code::UnknownVariable),
                "a warning now, not hidden"
            );
            assert!(config.shows(Code::SyntaxError));
        }
    }

    #[test]
    fn wrong_shapes_keep_defaults() {
        for value in [
            json!(null),
            json!(42),
            json!({ "modulePaths": "x", "diagnostics": [], "strictVariables": "no" }),
        ] {
            assert_eq!(merged(None, &value, None), Config::default());
        }
        assert!(Config::default().shows(Code::UnknownVariable));
    }

    #[test]
    fn reads_diagnostics_lint_and_format() {
        let config = merged(
            None,
            &json!({
                "diagnostics": {
                    "select": ["unknown-class", "arrow_alignment", "nope"],
                    "ignore": ["140chars", 7],
                    "severity": {
                        "unknown-function": "error",
                        "documentation": "off",
                        "unknown-type": "loud",
                        "no-such-code": "error",
                        "legacy-fact": false,
                    },
                },
                "lint": { "enabled": false, "rc": false, "relative": true,
                          "topScopeVariables": ["role", 1] },
                "format": { "check": false },
            }),
            None,
        );
        assert_eq!(
            config.settings.diagnostics.select,
            BTreeSet::from(["unknown-class".to_string(), "arrow_alignment".to_string()])
        );
        assert_eq!(
            config.settings.diagnostics.ignore,
            BTreeSet::from(["140chars".to_string()])
        );
        assert_eq!(
            config.settings.diagnostics.severity,
            BTreeMap::from([
                ("unknown-function".to_string(), SeveritySetting::Error),
                ("documentation".to_string(), SeveritySetting::Off),
            ])
        );
        assert_eq!(
            config.severity_of("unknown-function"),
            Some(SeveritySetting::Error)
        );
        assert_eq!(
            config.settings.lint,
            LintSettings {
                enabled: false,
                rc: false,
                top_scope_variables: vec!["role".to_string()],
                relative: true,
            }
        );
        assert!(!config.settings.format.check);
        assert!(config.shows(Code::UnknownClass));
        assert!(!config.shows(Code::SyntaxError), "not selected");
        assert!(!config.shows_name("arrow_alignment"), "lint disabled");
    }

    #[test]
    fn shows_name_covers_lint_checks() {
        let config = merged(
            None,
            &json!({ "diagnostics": { "ignore": ["140chars", "unknown-class"],
                                      "severity": { "trailing_whitespace": "off" } } }),
            None,
        );
        assert!(!config.shows_name("140chars"));
        assert!(!config.shows_name("trailing_whitespace"));
        assert!(config.shows_name("arrow_alignment"));
        assert!(!config.shows(Code::UnknownClass));
        assert!(!config.shows_name("unknown-class"));
        assert!(config.shows(Code::UnknownType));
    }

    fn project(text: &str) -> ProjectConfig {
        crate::project_config::parse(text, Path::new("/repo/puppet-ls.toml")).unwrap()
    }

    #[test]
    fn the_project_file_alone() {
        let project = project(
            "[diagnostics]\nignore = [\"unknown-class\"]\n[workspace]\nmodule_paths = [\"site\"]\n[puppet]\nstrict_variables = false\n[format]\ncheck = false\n",
        );
        let config = merged(Some(&project), &json!(null), None);
        assert_eq!(config, Config::new(project.clone(), None));
        assert_eq!(config.module_paths(), vec![PathBuf::from("/repo/site")]);
        assert!(!config.shows(Code::UnknownClass));
        assert!(
            config.shows(Code::UnknownVariable),
            "a warning now, not hidden"
        );
        assert_eq!(config.settings.puppet.strict_variables, Some(false));
        assert!(!config.settings.format.check);
        assert_eq!(
            merged(None, &json!(null), Some(Path::new("/r"))).settings,
            ProjectConfig::empty(Path::new("/r/puppet-ls.toml"))
        );
    }

    #[test]
    fn editor_settings_go_over_the_project_file() {
        let project = project(
            "[diagnostics]\nselect = [\"unknown-class\"]\nignore = [\"140chars\"]\n\
             [diagnostics.severity]\n\"unknown-function\" = \"error\"\n\"unknown-type\" = \"info\"\n\
             [lint]\ntop_scope_variables = [\"role\"]\n\
             [workspace]\nmodule_paths = [\"site\"]\n",
        );
        let editor = json!({
            "modulePaths": ["vendor"],
            "strictVariables": false,
            "diagnostics": {
                "select": ["unknown-type", "arrow_alignment"],
                "ignore": ["unknown-variable"],
                "severity": { "unknown-function": "warning" },
            },
            "lint": { "enabled": false, "relative": true },
            "format": { "check": false },
        });
        let config = merged(Some(&project), &editor, Some(Path::new("/ws")));
        assert_eq!(
            config.module_paths(),
            vec![PathBuf::from("/ws/vendor")],
            "replaced"
        );
        assert_eq!(
            config.editor_puppet.strict_variables, None,
            "merged() reads the project only"
        );
        let editor_puppet = editor_puppet_settings(&editor);
        assert_eq!(editor_puppet.strict_variables, Some(false));
        assert_eq!(editor_puppet.version, None);
        assert_eq!(
            config.settings.diagnostics.select,
            BTreeSet::from(["unknown-type".to_string(), "arrow_alignment".to_string()]),
            "replaced"
        );
        assert_eq!(
            config.settings.diagnostics.ignore,
            BTreeSet::from(["140chars".to_string(), "unknown-variable".to_string()]),
            "added to"
        );
        assert_eq!(
            config.settings.diagnostics.severity,
            BTreeMap::from([
                ("unknown-function".to_string(), SeveritySetting::Warning),
                ("unknown-type".to_string(), SeveritySetting::Info),
            ]),
            "merged code by code"
        );
        assert!(
            !config.settings.lint.enabled
                && config.settings.lint.relative
                && !config.settings.format.check
        );
        assert_eq!(
            config.settings.lint.top_scope_variables,
            vec!["role".to_string()],
            "kept"
        );
        assert!(config.shows(Code::UnknownType));
        assert!(!config.shows(Code::UnknownClass));
    }

    #[test]
    fn editor_defaults_and_wrong_types_keep_the_project_file() {
        let project = project(
            "[diagnostics]\nselect = [\"unknown-class\"]\n\
             [lint]\nenabled = false\nrc = false\n[format]\ncheck = false\n\
             [workspace]\nmodule_paths = [\"site\"]\n[puppet]\nstrict_variables = false\n",
        );
        // What editors send when the user set nothing.
        let defaults = json!({
            "modulePaths": [],
            "diagnostics": { "ignore": [], "select": [] },
            "puppetVersion": "auto",
            "strict": "auto",
            "strictVariables": null,
            "lint": { "enabled": true, "rc": true, "relative": false, "topScopeVariables": [] },
            "format": { "check": true },
        });
        let wrong = json!({ "puppet-ls": {
            "strictVariables": "yes",
            "diagnostics": { "select": "x", "severity": [] },
            "lint": { "enabled": 1 },
        } });
        for editor in [defaults, wrong, json!(null)] {
            assert_eq!(
                merged(Some(&project), &editor, None),
                Config::new(project.clone(), None),
                "{editor}"
            );
            assert_eq!(
                editor_puppet_settings(&editor),
                PuppetSettings::default(),
                "{editor}"
            );
        }
        let chosen = editor_puppet_settings(&json!({ "puppet-ls": {
            "puppetVersion": "7", "strict": "warning", "strictVariables": true,
        } }));
        assert_eq!(
            chosen,
            PuppetSettings {
                version: Some(PuppetVersion::V7),
                strict: Some(Strict::Warning),
                strict_variables: Some(true),
            }
        );
        assert_eq!(
            editor_puppet_settings(&json!({ "puppetVersion": 8 })).version,
            Some(PuppetVersion::V8)
        );
    }
}
