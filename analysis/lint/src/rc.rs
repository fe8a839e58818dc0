//! `.puppet-lint.rc` files, read as puppet-lint reads them.
//!
//! puppet-lint hands each line of the file to Ruby's OptionParser as one
//! command-line argument: a line is an option (`--no-80chars-check`,
//! `--only-checks=a,b`, `--relative`), or the argument of the option on the
//! line before (`--only-checks` then `a,b`); lines that do not start with
//! `-` (comments, blank lines, indented lines) are ignored. Long options
//! may be abbreviated to any unique prefix, and `_` and `-` are the same.
//! puppet-lint stops with "invalid option" on an unknown option; puppet-ls
//! reports an [`RcProblem`] and reads the rest of the file.

use crate::config::{ErrorLevel, LintConfig};
use crate::registry::CHECKS;
use std::path::{Path, PathBuf};

/// An option puppet-ls could not use, with its 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RcProblem {
    pub line: u32,
    pub message: String,
}

/// The rc files puppet-lint reads, in order (later ones win):
/// `/etc/puppet-lint.rc`, `~/.puppet-lint.rc`, then `.puppet-lint.rc` in
/// the directory it runs from (not searched for in parent directories).
/// `--no-config` skips them all.
pub fn rc_file_locations(home: Option<&Path>, working_directory: &Path) -> Vec<PathBuf> {
    let mut locations = vec![PathBuf::from("/etc/puppet-lint.rc")];
    if let Some(home) = home {
        locations.push(home.join(".puppet-lint.rc"));
    }
    locations.push(working_directory.join(".puppet-lint.rc"));
    locations
}

/// Reads the text of an rc file on top of puppet-lint's defaults.
pub fn parse_rc(text: &str) -> (LintConfig, Vec<RcProblem>) {
    let mut config = LintConfig::default();
    let problems = config.apply_rc(text);
    (config, problems)
}

impl LintConfig {
    /// Applies the options of an rc file's text to this configuration, as
    /// puppet-lint applies several rc files one after the other.
    pub fn apply_rc(&mut self, text: &str) -> Vec<RcProblem> {
        let mut problems = Vec::new();
        let mut lines = text.lines().zip(1u32..);
        while let Some((line, number)) = lines.next() {
            let Some(argument) = line.strip_prefix('-') else {
                continue;
            };
            let (name, value) = match argument.strip_prefix('-') {
                Some(long) => match long.split_once('=') {
                    Some((name, value)) => (long_option(name), Some(value.to_string())),
                    None => (long_option(long), None),
                },
                None => short_option(argument),
            };
            let option = match name {
                Ok(option) => option,
                Err(message) => {
                    problems.push(RcProblem {
                        line: number,
                        message,
                    });
                    continue;
                }
            };
            let value = match (option.takes_value(), value) {
                (false, _) => None,
                (true, Some(value)) => Some(value),
                (true, None) => match lines.next() {
                    Some((next, _)) => Some(next.to_string()),
                    None => {
                        problems.push(RcProblem {
                            line: number,
                            message: format!("missing argument: {line}"),
                        });
                        continue;
                    }
                },
            };
            if let Err(message) = self.apply_option(option, value.unwrap_or_default()) {
                problems.push(RcProblem {
                    line: number,
                    message,
                });
            }
        }
        problems
    }

    fn apply_option(&mut self, option: RcOption, value: String) -> Result<(), String> {
        let list = |value: &str| value.split(',').map(str::to_string).collect::<Vec<_>>();
        match option {
            RcOption::Disable(check) => {
                self.disable(check);
            }
            RcOption::Enable(check) => {
                self.enable(check);
            }
            RcOption::OnlyChecks => self.only(value.split(',')),
            RcOption::Relative => self.relative = true,
            RcOption::FailOnWarnings => self.fail_on_warnings = true,
            RcOption::IgnorePaths => self.ignore_paths = list(&value),
            RcOption::TopScopeVariables => self.top_scope_variables = list(&value),
            RcOption::ErrorLevel => {
                self.error_level = match value.as_str() {
                    "all" => ErrorLevel::All,
                    "warning" => ErrorLevel::Warning,
                    "error" => ErrorLevel::Error,
                    _ => return Err(format!("invalid argument: --error-level {value}")),
                }
            }
            RcOption::Config => {
                return Err(format!(
                    "--config {value}: other rc files are not read from an rc file"
                ))
            }
            RcOption::Ignored(_) | RcOption::IgnoredWithValue(_) => {}
        }
        Ok(())
    }
}

/// The options puppet-lint's command line accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RcOption {
    Disable(&'static str),
    Enable(&'static str),
    OnlyChecks,
    Relative,
    FailOnWarnings,
    IgnorePaths,
    TopScopeVariables,
    ErrorLevel,
    Config,
    /// Options about output or plugins, which change no check.
    Ignored(&'static str),
    IgnoredWithValue(&'static str),
}

impl RcOption {
    fn takes_value(self) -> bool {
        matches!(
            self,
            RcOption::OnlyChecks
                | RcOption::IgnorePaths
                | RcOption::TopScopeVariables
                | RcOption::ErrorLevel
                | RcOption::Config
                | RcOption::IgnoredWithValue(_)
        )
    }
}

const FIXED_OPTIONS: &[(&str, RcOption)] = &[
    ("only-checks", RcOption::OnlyChecks),
    ("relative", RcOption::Relative),
    ("fail-on-warnings", RcOption::FailOnWarnings),
    ("ignore-paths", RcOption::IgnorePaths),
    ("top-scope-variables", RcOption::TopScopeVariables),
    ("error-level", RcOption::ErrorLevel),
    ("config", RcOption::Config),
    ("version", RcOption::Ignored("version")),
    ("no-config", RcOption::Ignored("no-config")),
    ("with-context", RcOption::Ignored("with-context")),
    ("with-filename", RcOption::Ignored("with-filename")),
    ("show-ignored", RcOption::Ignored("show-ignored")),
    ("fix", RcOption::Ignored("fix")),
    ("json", RcOption::Ignored("json")),
    ("sarif", RcOption::Ignored("sarif")),
    ("list-checks", RcOption::Ignored("list-checks")),
    ("load", RcOption::IgnoredWithValue("load")),
    (
        "load-from-puppet",
        RcOption::IgnoredWithValue("load-from-puppet"),
    ),
    ("log-format", RcOption::IgnoredWithValue("log-format")),
    (
        "codeclimate-report-file",
        RcOption::IgnoredWithValue("codeclimate-report-file"),
    ),
];

/// Every long option with its name as OptionParser compares it (`-` for `_`).
fn long_options() -> Vec<(String, RcOption)> {
    let mut options: Vec<(String, RcOption)> = FIXED_OPTIONS
        .iter()
        .map(|(name, option)| (name.to_string(), *option))
        .collect();
    for info in CHECKS {
        let name = info.name.replace('_', "-");
        options.push((format!("no-{name}-check"), RcOption::Disable(info.name)));
        // puppet-lint only defines `--NAME-check` for checks off by default.
        if !info.default_enabled {
            options.push((format!("{name}-check"), RcOption::Enable(info.name)));
        }
    }
    options
}

/// An exact name, or else a prefix of exactly one option's name.
fn long_option(name: &str) -> Result<RcOption, String> {
    let wanted = name.replace('_', "-");
    let options = long_options();
    if let Some((_, option)) = options.iter().find(|(candidate, _)| *candidate == wanted) {
        return Ok(*option);
    }
    let mut matches = options
        .iter()
        .filter(|(candidate, _)| candidate.starts_with(&wanted));
    match (matches.next(), matches.next()) {
        (Some((_, option)), None) if !wanted.is_empty() => Ok(*option),
        (Some(_), Some(_)) => Err(format!("ambiguous option: --{name}")),
        _ => Err(format!("invalid option: --{name}")),
    }
}

/// `-c FILE`, `-l FILE`, `-f`; a value may follow the letter directly.
fn short_option(argument: &str) -> (Result<RcOption, String>, Option<String>) {
    let mut chars = argument.chars();
    let letter = chars.next();
    let rest = chars.as_str();
    let value = (!rest.is_empty()).then(|| rest.to_string());
    match letter {
        Some('c') => (Ok(RcOption::Config), value),
        Some('l') => (Ok(RcOption::IgnoredWithValue("load")), value),
        Some('f') if rest.is_empty() => (Ok(RcOption::Ignored("fix")), None),
        _ => (Err(format!("invalid option: -{argument}")), None),
    }
}
