//! Which checks run, and the options some checks read. `LintConfig::default()`
//! is puppet-lint's default: every check on except `80chars`,
//! `class_inherits_from_params_class`, `code_on_top_scope` and
//! `quoted_booleans`. `.puppet-lint.rc` files change it: see `rc.rs`.

use crate::registry::{check_info, CHECKS};
use std::collections::BTreeMap;

/// puppet-lint's `--error-level`: which problems make the run fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErrorLevel {
    #[default]
    All,
    Warning,
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LintConfig {
    /// Checks switched on (`true`) or off against their default, by name.
    overrides: BTreeMap<&'static str, bool>,
    /// `--relative`: `autoloader_layout` compares paths from the module's
    /// root, whatever the module's directory is called.
    pub relative: bool,
    /// `--top-scope-variables` (puppet-lint 4): top-scope variables that
    /// `top_scope_facts` accepts.
    pub top_scope_variables: Vec<String>,
    /// `--ignore-paths`: glob patterns of files not to lint (for the caller
    /// that walks files; `lint` does not read it).
    pub ignore_paths: Vec<String>,
    /// `--fail-on-warnings`, for callers that turn problems into an exit
    /// status.
    pub fail_on_warnings: bool,
    /// `--error-level`, for the same callers.
    pub error_level: ErrorLevel,
}

impl LintConfig {
    /// Every check enabled, including those off by default.
    pub fn all_enabled() -> LintConfig {
        let mut config = LintConfig::default();
        for info in CHECKS {
            config.enable(info.name);
        }
        config
    }

    pub fn is_enabled(&self, check: &str) -> bool {
        match self.overrides.get(check) {
            Some(&enabled) => enabled,
            None => check_info(check).is_some_and(|info| info.default_enabled),
        }
    }

    /// Switches a check on; false for a name puppet-ls does not know.
    pub fn enable(&mut self, check: &str) -> bool {
        self.set(check, true)
    }

    /// Switches a check off; false for a name puppet-ls does not know.
    pub fn disable(&mut self, check: &str) -> bool {
        self.set(check, false)
    }

    /// `--only-checks`: exactly the named checks run (unknown names are
    /// ignored, as puppet-lint does).
    pub fn only<'n>(&mut self, checks: impl IntoIterator<Item = &'n str>) {
        let wanted: Vec<&str> = checks.into_iter().collect();
        for info in CHECKS {
            self.overrides
                .insert(info.name, wanted.contains(&info.name));
        }
    }

    fn set(&mut self, check: &str, enabled: bool) -> bool {
        match check_info(check) {
            Some(info) => {
                self.overrides.insert(info.name, enabled);
                true
            }
            None => false,
        }
    }

    /// The names of the checks that run.
    pub fn enabled_checks(&self) -> impl Iterator<Item = &'static str> + '_ {
        CHECKS
            .iter()
            .map(|info| info.name)
            .filter(|name| self.is_enabled(name))
    }
}
