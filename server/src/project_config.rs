//! The project configuration file, `puppet-ls.toml`: found upwards from the
//! checked path (the nearest file wins), read strictly (an unknown key, a
//! value of the wrong type, an unknown diagnostic code or severity, a bad
//! glob are errors that say where), and turned into plain data. The schema
//! and the precedence rules are in docs/configuration.md.
//!
//! `parse` is pure; `load` and `discover` read files.

// Wired into `check` and the language server separately; until then parts
// of the API are used by the tests only.

use crate::codes::ProblemCode;
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use puppet_analysis::builtins::suggest::suggest;
use puppet_analysis::target::{PuppetVersion, Strict};
use puppet_lint_checks::{check_info, rc_file_locations, LintConfig, RcProblem, CHECKS};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::str::FromStr;
use toml::Spanned;

/// The name of the file `discover` looks for.
pub const FILE_NAME: &str = "puppet-ls.toml";

/// A configuration file that could not be read or is not valid, with the
/// 1-based line and column of the problem when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// What `[diagnostics.severity]` sets a code to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SeveritySetting {
    Error,
    Warning,
    Info,
    /// Never shown.
    Off,
}

impl SeveritySetting {
    pub const ALL: [SeveritySetting; 4] = [
        SeveritySetting::Error,
        SeveritySetting::Warning,
        SeveritySetting::Info,
        SeveritySetting::Off,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SeveritySetting::Error => "error",
            SeveritySetting::Warning => "warning",
            SeveritySetting::Info => "info",
            SeveritySetting::Off => "off",
        }
    }
}

impl fmt::Display for SeveritySetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SeveritySetting {
    type Err = String;

    /// A severity word, with the list of valid ones (and a suggestion) in
    /// the error.
    fn from_str(word: &str) -> Result<SeveritySetting, String> {
        SeveritySetting::ALL
            .into_iter()
            .find(|s| s.as_str() == word)
            .ok_or_else(|| {
                let words = SeveritySetting::ALL.map(SeveritySetting::as_str);
                format!(
                    "unknown severity '{word}'{}: expected one of {}",
                    did_you_mean(word, words),
                    words.join(", ")
                )
            })
    }
}

/// Every name `select`, `ignore` and `severity` accept: the analysis codes,
/// puppet-lint's check names, `unformatted`.
pub fn code_names() -> impl Iterator<Item = &'static str> {
    ProblemCode::names()
}

/// Whether `name` is an analysis code, a puppet-lint check name or
/// `unformatted`.
pub fn is_code_name(name: &str) -> bool {
    name.parse::<ProblemCode>().is_ok()
}

/// Checks a code name; the error says what is wrong, with a suggestion.
pub fn validate_code_name(name: &str) -> Result<(), String> {
    if is_code_name(name) {
        Ok(())
    } else {
        Err(format!(
            "unknown diagnostic code '{name}'{}: expected an analysis code (docs/diagnostics.md) or a puppet-lint check name (docs/lint.md)",
            did_you_mean(name, code_names())
        ))
    }
}

fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    match suggest(word, candidates, 1).first() {
        Some(best) => format!(" (did you mean '{best}'?)"),
        None => String::new(),
    }
}

/// `[diagnostics]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DiagnosticSettings {
    /// Only these codes (analysis codes or puppet-lint check names); empty:
    /// the defaults.
    pub select: BTreeSet<String>,
    /// Never these codes.
    pub ignore: BTreeSet<String>,
    /// Codes whose severity is changed (or which are switched off).
    pub severity: BTreeMap<String, SeveritySetting>,
}

/// `[lint]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintSettings {
    /// Run puppet-lint's checks (default true).
    pub enabled: bool,
    /// Also read `.puppet-lint.rc` files (default true).
    pub rc: bool,
    /// puppet-lint 4's `--top-scope-variables`.
    pub top_scope_variables: Vec<String>,
    /// puppet-lint's `--relative`.
    pub relative: bool,
}

impl Default for LintSettings {
    fn default() -> LintSettings {
        LintSettings {
            enabled: true,
            rc: true,
            top_scope_variables: Vec::new(),
            relative: false,
        }
    }
}

/// `[format]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatSettings {
    /// `check` reports the files `puppet-ls fmt` would change (default true).
    pub check: bool,
}

impl Default for FormatSettings {
    fn default() -> FormatSettings {
        FormatSettings { check: true }
    }
}

/// Compiled `workspace.exclude` patterns; equal when the patterns are.
#[derive(Debug, Clone)]
pub struct Excludes {
    /// The patterns as written, relative to the file's directory.
    pub patterns: Vec<String>,
    set: GlobSet,
}

impl Excludes {
    fn new(patterns: &[Spanned<String>]) -> Result<Excludes, (std::ops::Range<usize>, String)> {
        let mut builder = GlobSetBuilder::new();
        for pattern in patterns {
            let text = pattern.get_ref();
            let glob = GlobBuilder::new(text.trim_start_matches("./"))
                .literal_separator(true)
                .build()
                .map_err(|e| {
                    (
                        pattern.span(),
                        format!("invalid glob '{text}': {}", e.kind()),
                    )
                })?;
            builder.add(glob);
        }
        let set = builder
            .build()
            .map_err(|e| (0..0, format!("invalid globs: {e}")))?;
        Ok(Excludes {
            patterns: patterns.iter().map(|p| p.get_ref().clone()).collect(),
            set,
        })
    }
}

impl Default for Excludes {
    fn default() -> Excludes {
        Excludes {
            patterns: Vec::new(),
            set: GlobSet::empty(),
        }
    }
}

impl PartialEq for Excludes {
    fn eq(&self, other: &Excludes) -> bool {
        self.patterns == other.patterns
    }
}

impl Eq for Excludes {}

/// `[workspace]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkspaceSettings {
    /// Directories of modules, absolute (made so against the file's
    /// directory).
    pub module_paths: Vec<PathBuf>,
    /// Files not checked.
    pub exclude: Excludes,
}

/// `[puppet]`: the Puppet the code is checked for. Unset keys come from the
/// project's files (`metadata.json`, `Gemfile`) or the version's defaults
/// ([`crate::target::TargetChoice`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PuppetSettings {
    pub version: Option<PuppetVersion>,
    /// Puppet's `strict` setting.
    pub strict: Option<Strict>,
    /// Puppet's `strict_variables` setting.
    pub strict_variables: Option<bool>,
}

/// `[hiera]`: the node whose Hiera values hovers show, as `puppet lookup
/// --node N --facts F` would compute them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HieraSettings {
    /// The node's certificate name (`$trusted['certname']`).
    pub node: Option<String>,
    /// Its facts (YAML or JSON), absolute.
    pub facts: Option<PathBuf>,
    /// The global layer's `hiera.yaml` (Puppet's `hiera_config`), absolute.
    pub global: Option<PathBuf>,
}

/// A `puppet-ls.toml`, read and validated: every setting with its default
/// filled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectConfig {
    /// The file.
    pub path: PathBuf,
    /// Its directory: relative paths in the file are relative to it.
    pub dir: PathBuf,
    pub diagnostics: DiagnosticSettings,
    pub lint: LintSettings,
    pub format: FormatSettings,
    pub workspace: WorkspaceSettings,
    pub hiera: HieraSettings,
    pub puppet: PuppetSettings,
}

impl ProjectConfig {
    /// The defaults, as if `path` were an empty file.
    pub fn empty(path: &Path) -> ProjectConfig {
        ProjectConfig {
            path: path.to_path_buf(),
            dir: directory_of(path),
            diagnostics: DiagnosticSettings::default(),
            lint: LintSettings::default(),
            format: FormatSettings::default(),
            workspace: WorkspaceSettings::default(),
            hiera: HieraSettings::default(),
            puppet: PuppetSettings::default(),
        }
    }

    /// Whether a diagnostic with code `name` (an analysis code or a
    /// puppet-lint check name) is shown under these settings,
    /// once produced. Order: `severity = "off"`, then `ignore`, then
    /// `lint.enabled = false` (hides puppet-lint's checks), then `select`
    /// (when not empty, only the selected codes); otherwise an analysis code
    /// is shown when it is on by default or has a severity set, and a
    /// puppet-lint check is shown (which checks run is `LintConfig`'s
    /// business: see [`ProjectConfig::lint_config`]).
    pub fn shows(&self, name: &str) -> bool {
        let setting = self.diagnostics.severity.get(name).copied();
        if setting == Some(SeveritySetting::Off) || self.diagnostics.ignore.contains(name) {
            return false;
        }
        let lint_check = check_info(name).is_some();
        if lint_check && !self.lint.enabled {
            return false;
        }
        if !self.diagnostics.select.is_empty() {
            return self.diagnostics.select.contains(name);
        }
        match name.parse::<ProblemCode>() {
            Ok(ProblemCode::Analysis(code)) => code.enabled_by_default() || setting.is_some(),
            Ok(ProblemCode::Lint(_) | ProblemCode::Format) => true,
            Err(_) => false,
        }
    }

    /// The severity `[diagnostics.severity]` sets for this code, if any.
    pub fn severity_of(&self, code: &str) -> Option<SeveritySetting> {
        self.diagnostics.severity.get(code).copied()
    }

    /// Whether `path` is excluded by `workspace.exclude`: the path, or one
    /// of its directories below the file's directory, matches a pattern. A
    /// relative path is taken relative to the file's directory; a path
    /// outside that directory is never excluded.
    pub fn excludes(&self, path: &Path) -> bool {
        if self.workspace.exclude.patterns.is_empty() {
            return false;
        }
        let relative = if path.is_absolute() {
            match path.strip_prefix(&self.dir) {
                Ok(relative) => relative,
                Err(_) => return false,
            }
        } else {
            path
        };
        let relative: PathBuf = relative
            .components()
            .filter(|c| !matches!(c, Component::CurDir))
            .collect();
        relative
            .ancestors()
            .filter(|p| !p.as_os_str().is_empty())
            .any(|p| self.workspace.exclude.set.is_match(p))
    }

    /// puppet-lint's configuration for this project: puppet-lint's
    /// defaults, then the texts of the `.puppet-lint.rc` files in the order
    /// puppet-lint applies them (skipped when `lint.rc = false`), then this
    /// file: `lint.top_scope_variables` (when not empty), `lint.relative`
    /// (when true), and the puppet-lint check names of `[diagnostics]`
    /// (`ignore` or `off` switch a check off, another severity switches it
    /// on; a non-empty `select` runs exactly the checks it names). With
    /// `lint.enabled = false` no check runs.
    pub fn lint_config<'t>(
        &self,
        rc_texts: impl IntoIterator<Item = &'t str>,
    ) -> (LintConfig, Vec<RcProblem>) {
        let (config, problems) = self.layered_lint_config(rc_texts.into_iter().map(|t| ((), t)));
        (config, problems.into_iter().map(|(_, p)| p).collect())
    }

    /// [`ProjectConfig::lint_config`] over the rc files puppet-lint reads
    /// (`rc_file_locations`: `/etc/puppet-lint.rc`, `~/.puppet-lint.rc`
    /// when `home` is given, then `.puppet-lint.rc` in the file's
    /// directory); missing files are skipped. Problems come with their
    /// file.
    pub fn read_lint_config(&self, home: Option<&Path>) -> (LintConfig, Vec<(PathBuf, RcProblem)>) {
        let files: Vec<(PathBuf, String)> = if self.lint.rc {
            rc_file_locations(home, &self.dir)
                .into_iter()
                .filter_map(|location| {
                    let text = std::fs::read_to_string(&location).ok()?;
                    Some((location, text))
                })
                .collect()
        } else {
            Vec::new()
        };
        self.layered_lint_config(files.iter().map(|(l, t)| (l.clone(), t.as_str())))
    }

    /// puppet-lint's defaults, then the rc files' texts in order (when
    /// `lint.rc`), then this file's settings; each problem with the source
    /// it came from.
    fn layered_lint_config<'t, S: Clone>(
        &self,
        rc_files: impl IntoIterator<Item = (S, &'t str)>,
    ) -> (LintConfig, Vec<(S, RcProblem)>) {
        let mut config = LintConfig::default();
        let mut problems = Vec::new();
        if self.lint.rc {
            for (source, text) in rc_files {
                let found = config.apply_rc(text);
                problems.extend(found.into_iter().map(|p| (source.clone(), p)));
            }
        }
        self.apply_lint_settings(&mut config);
        (config, problems)
    }

    /// This file's lint settings on top of `config`.
    fn apply_lint_settings(&self, config: &mut LintConfig) {
        if !self.lint.top_scope_variables.is_empty() {
            config.top_scope_variables = self.lint.top_scope_variables.clone();
        }
        config.relative |= self.lint.relative;
        for info in CHECKS {
            match self.file_switch(info.name) {
                Some(true) => config.enable(info.name),
                Some(false) => config.disable(info.name),
                None => true,
            };
        }
    }

    /// Whether this file alone switches a check on or off.
    fn file_switch(&self, check: &str) -> Option<bool> {
        let d = &self.diagnostics;
        if !self.lint.enabled
            || d.ignore.contains(check)
            || d.severity.get(check) == Some(&SeveritySetting::Off)
        {
            return Some(false);
        }
        if d.severity.contains_key(check) {
            return Some(true);
        }
        if !d.select.is_empty() {
            return Some(d.select.contains(check));
        }
        None
    }
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

// The file as written, before validation.

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    diagnostics: RawDiagnostics,
    #[serde(default)]
    lint: RawLint,
    #[serde(default)]
    format: RawFormat,
    #[serde(default)]
    workspace: RawWorkspace,
    #[serde(default)]
    hiera: RawHiera,
    #[serde(default)]
    puppet: RawPuppet,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawPuppet {
    version: Option<Spanned<toml::Value>>,
    strict: Option<Spanned<String>>,
    strict_variables: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawHiera {
    node: Option<String>,
    facts: Option<String>,
    global: Option<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawDiagnostics {
    #[serde(default)]
    select: Vec<Spanned<String>>,
    #[serde(default)]
    ignore: Vec<Spanned<String>>,
    #[serde(default)]
    severity: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawLint {
    enabled: Option<bool>,
    rc: Option<bool>,
    #[serde(default)]
    top_scope_variables: Vec<String>,
    relative: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawFormat {
    check: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawWorkspace {
    #[serde(default)]
    module_paths: Vec<String>,
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
fn line_column(text: &str, offset: usize) -> (u32, u32) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

/// Reads the text of a `puppet-ls.toml` at `path` (used for its directory
/// and in errors; nothing is read from disk).
pub fn parse(text: &str, path: &Path) -> Result<ProjectConfig, ConfigError> {
    let error_at = |span: Option<std::ops::Range<usize>>, message: String| {
        let (line, column) = match span {
            Some(span) => {
                let (line, column) = line_column(text, span.start);
                (Some(line), Some(column))
            }
            None => (None, None),
        };
        ConfigError {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
    };
    let raw: RawConfig =
        toml::from_str(text).map_err(|e| error_at(e.span(), e.message().trim().to_string()))?;

    let mut config = ProjectConfig::empty(path);
    let codes = |list: Vec<Spanned<String>>, key: &str| {
        list.into_iter()
            .map(|name| {
                validate_code_name(name.get_ref())
                    .map(|()| name.get_ref().clone())
                    .map_err(|m| error_at(Some(name.span()), format!("diagnostics.{key}: {m}")))
            })
            .collect::<Result<BTreeSet<String>, ConfigError>>()
    };
    config.diagnostics.select = codes(raw.diagnostics.select, "select")?;
    config.diagnostics.ignore = codes(raw.diagnostics.ignore, "ignore")?;
    for (name, word) in raw.diagnostics.severity {
        validate_code_name(name.get_ref())
            .map_err(|m| error_at(Some(name.span()), format!("diagnostics.severity: {m}")))?;
        let setting = word
            .get_ref()
            .parse::<SeveritySetting>()
            .map_err(|m| error_at(Some(word.span()), format!("diagnostics.severity: {m}")))?;
        config
            .diagnostics
            .severity
            .insert(name.into_inner(), setting);
    }

    let lint = &mut config.lint;
    lint.enabled = raw.lint.enabled.unwrap_or(lint.enabled);
    lint.rc = raw.lint.rc.unwrap_or(lint.rc);
    lint.top_scope_variables = raw.lint.top_scope_variables;
    lint.relative = raw.lint.relative.unwrap_or(lint.relative);

    config.format.check = raw.format.check.unwrap_or(config.format.check);

    let dir = config.dir.clone();
    let workspace = &mut config.workspace;
    workspace.module_paths = raw
        .workspace
        .module_paths
        .iter()
        .map(|p| dir.join(p))
        .collect();
    workspace.exclude = Excludes::new(&raw.workspace.exclude)
        .map_err(|(span, m)| error_at(Some(span), format!("workspace.exclude: {m}")))?;
    config.puppet = puppet_settings(raw.puppet)
        .map_err(|(span, m)| error_at(Some(span), format!("puppet.{m}")))?;
    let global = match raw.hiera.global {
        Some(path) if !path.get_ref().ends_with("hiera.yaml") => {
            return Err(error_at(
                Some(path.span()),
                "hiera.global: the global layer's configuration is a file named hiera.yaml".into(),
            ))
        }
        Some(path) => Some(dir.join(path.get_ref())),
        None => None,
    };
    config.hiera = HieraSettings {
        node: raw.hiera.node,
        facts: raw.hiera.facts.map(|f| dir.join(f)),
        global,
    };
    Ok(config)
}

/// `[puppet]`, validated: `version` is `7` or `8` (a number or a string,
/// `"8.10.0"` too), `strict` one of Puppet's words.
fn puppet_settings(raw: RawPuppet) -> Result<PuppetSettings, (std::ops::Range<usize>, String)> {
    let version = match raw.version {
        Some(value) => {
            let span = value.span();
            let text = match value.into_inner() {
                toml::Value::Integer(n) => n.to_string(),
                toml::Value::Float(n) => n.to_string(),
                toml::Value::String(s) => s,
                other => other.to_string(),
            };
            Some(
                text.parse::<PuppetVersion>()
                    .map_err(|m| (span, format!("version: {m}")))?,
            )
        }
        None => None,
    };
    let strict = match raw.strict {
        Some(word) => Some(
            word.get_ref()
                .parse::<Strict>()
                .map_err(|m| (word.span(), format!("strict: {m}")))?,
        ),
        None => None,
    };
    Ok(PuppetSettings {
        version,
        strict,
        strict_variables: raw.strict_variables,
    })
}

/// Reads and validates the file at `path` (made absolute against the
/// current directory, so that the paths in it are absolute).
pub fn load(path: &Path) -> Result<ProjectConfig, ConfigError> {
    let path = absolute(path).map_err(|e| io_error(path, &e))?;
    let text = std::fs::read_to_string(&path).map_err(|e| io_error(&path, &e))?;
    parse(&text, &path)
}

/// The configuration of the project `start` (a file or a directory) is
/// in: the first `puppet-ls.toml` found in `start` (when a directory) or
/// its directory, then in each parent directory up to the root. `None`
/// when there is none.
pub fn discover(start: &Path) -> Result<Option<ProjectConfig>, ConfigError> {
    let start = absolute(start).map_err(|e| io_error(start, &e))?;
    let first = if start.is_dir() {
        Some(start.as_path())
    } else {
        start.parent()
    };
    for dir in first.into_iter().flat_map(Path::ancestors) {
        let candidate = dir.join(FILE_NAME);
        if candidate.is_file() {
            return load(&candidate).map(Some);
        }
    }
    Ok(None)
}

fn absolute(path: &Path) -> std::io::Result<PathBuf> {
    if path.is_absolute() {
        Ok(path.to_path_buf())
    } else {
        std::path::absolute(path)
    }
}

fn io_error(path: &Path, error: &std::io::Error) -> ConfigError {
    ConfigError {
        path: path.to_path_buf(),
        line: None,
        column: None,
        message: format!("cannot read: {error}"),
    }
}

#[cfg(test)]
mod tests;
