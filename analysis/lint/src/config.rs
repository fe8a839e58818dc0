//! Which checks run, and the options some checks read: plain data, below
//! the checks and their context. `LintConfig::default()` is puppet-lint's
//! default: every check on except `80chars`,
//! `class_inherits_from_params_class`, `code_on_top_scope` and
//! `quoted_booleans`. The methods that read the table of checks
//! (`is_enabled`, `enable`, `only`, ...) are in `registry.rs`;
//! `.puppet-lint.rc` files change a config: see `rc.rs`.

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
    /// The switch set for `check` against its default, if any.
    pub(crate) fn override_of(&self, check: &str) -> Option<bool> {
        self.overrides.get(check).copied()
    }

    /// Sets the switch of `check` against its default.
    pub(crate) fn set_override(&mut self, check: &'static str, enabled: bool) {
        self.overrides.insert(check, enabled);
    }
}
