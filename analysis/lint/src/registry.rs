//! The table of every check: puppet-lint's name, default, severity,
//! explanation, whether puppet-ls offers a fix, and the function that runs
//! it. The order is puppet-lint's (`puppet-lint --list-checks`), then
//! puppet-lint 4's additions. `LintConfig`'s methods that read the table
//! (a check's default, whether a name is a check) are here too, so that
//! the config stays plain data below the checks.

use crate::checks::{self, Sink};
use crate::config::LintConfig;
use crate::context::LintContext;
use crate::diagnostic::LintSeverity::{self, Error, Warning};

/// One check.
pub struct CheckInfo {
    /// puppet-lint's name, used as the diagnostic code and in control
    /// comments and `.puppet-lint.rc`.
    pub name: &'static str,
    /// Whether puppet-lint runs it unless told otherwise.
    pub default_enabled: bool,
    pub severity: LintSeverity,
    /// One line saying what the check wants.
    pub explanation: &'static str,
    /// Whether puppet-ls offers a fix (puppet-lint fixes a few more, where
    /// its fix would change what the code means: see docs/lint.md).
    pub fixable: bool,
    /// The puppet-lint version that introduced it (3 or 4).
    pub since: u8,
    pub(crate) run: fn(&LintContext, &mut Sink),
}

impl std::fmt::Debug for CheckInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CheckInfo")
            .field("name", &self.name)
            .field("default_enabled", &self.default_enabled)
            .field("severity", &self.severity)
            .field("fixable", &self.fixable)
            .finish()
    }
}

/// The check called `name`, if puppet-ls has it.
pub fn check_info(name: &str) -> Option<&'static CheckInfo> {
    CHECKS.iter().find(|info| info.name == name)
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
        match self.override_of(check) {
            Some(enabled) => enabled,
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
            self.set_override(info.name, wanted.contains(&info.name));
        }
    }

    fn set(&mut self, check: &str, enabled: bool) -> bool {
        match check_info(check) {
            Some(info) => {
                self.set_override(info.name, enabled);
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

macro_rules! check {
    ($name:literal, $default:expr, $severity:expr, $fixable:expr, $since:literal, $run:path, $explanation:literal) => {
        CheckInfo {
            name: $name,
            default_enabled: $default,
            severity: $severity,
            explanation: $explanation,
            fixable: $fixable,
            since: $since,
            run: $run,
        }
    };
}

pub static CHECKS: &[CheckInfo] = &[
    check!(
        "arrow_on_right_operand_line",
        true,
        Warning,
        true,
        3,
        checks::relationships::arrow_on_right_operand_line,
        "A chaining arrow (-> ~>) goes on the line of its right operand."
    ),
    check!(
        "autoloader_layout",
        true,
        Error,
        false,
        3,
        checks::definitions::autoloader_layout,
        "A class or defined type lives in the file where the autoloader looks for it."
    ),
    check!(
        "class_inherits_from_params_class",
        false,
        Warning,
        false,
        3,
        checks::definitions::class_inherits_from_params_class,
        "A class does not inherit from a params class (a Puppet 2.6 pattern)."
    ),
    check!(
        "code_on_top_scope",
        false,
        Warning,
        false,
        3,
        checks::definitions::code_on_top_scope,
        "No code outside a class or defined type."
    ),
    check!(
        "inherits_across_namespaces",
        true,
        Warning,
        false,
        3,
        checks::definitions::inherits_across_namespaces,
        "A class inherits only from a class of its own module."
    ),
    check!(
        "names_containing_dash",
        true,
        Error,
        false,
        3,
        checks::definitions::names_containing_dash,
        "Class and defined type names contain no dash."
    ),
    check!(
        "names_containing_uppercase",
        true,
        Error,
        false,
        3,
        checks::definitions::names_containing_uppercase,
        "Class and defined type names contain no uppercase letter."
    ),
    check!(
        "nested_classes_or_defines",
        true,
        Warning,
        false,
        3,
        checks::definitions::nested_classes_or_defines,
        "Classes and defined types are not defined inside a class."
    ),
    check!(
        "parameter_order",
        true,
        Warning,
        false,
        3,
        checks::definitions::parameter_order,
        "Required parameters come before optional ones."
    ),
    check!(
        "right_to_left_relationship",
        true,
        Warning,
        false,
        3,
        checks::relationships::right_to_left_relationship,
        "Relationships go left to right (->), not right to left (<-)."
    ),
    check!(
        "variable_scope",
        true,
        Warning,
        false,
        3,
        checks::variable_scope::variable_scope,
        "Variables from outside the class or defined type are named with their namespace."
    ),
    check!(
        "slash_comments",
        true,
        Warning,
        true,
        3,
        checks::comments::slash_comments,
        "Comments start with #, not //."
    ),
    check!(
        "star_comments",
        true,
        Warning,
        true,
        3,
        checks::comments::star_comments,
        "Comments start with #, not /* */."
    ),
    check!(
        "case_without_default",
        true,
        Warning,
        false,
        3,
        checks::conditionals::case_without_default,
        "Every case statement has a default case."
    ),
    check!(
        "selector_inside_resource",
        true,
        Warning,
        false,
        3,
        checks::conditionals::selector_inside_resource,
        "No selector inside a resource: compute the value in a variable first."
    ),
    check!(
        "documentation",
        true,
        Warning,
        false,
        3,
        checks::definitions::documentation,
        "Every class and defined type has a comment right above it."
    ),
    check!(
        "unquoted_node_name",
        true,
        Warning,
        true,
        3,
        checks::nodes::unquoted_node_name,
        "Node names are quoted."
    ),
    check!(
        "duplicate_params",
        true,
        Error,
        false,
        3,
        checks::resources::duplicate_params,
        "A resource sets each attribute once."
    ),
    check!(
        "ensure_first_param",
        true,
        Warning,
        true,
        3,
        checks::resources::ensure_first_param,
        "ensure is the first attribute of a resource."
    ),
    check!(
        "ensure_not_symlink_target",
        true,
        Warning,
        true,
        3,
        checks::resources::ensure_not_symlink_target,
        "A symbolic link is ensure => link with a target, not ensure => '/path'."
    ),
    check!(
        "file_mode",
        true,
        Warning,
        true,
        3,
        checks::resources::file_mode,
        "File modes are 4-digit octal strings or symbolic modes."
    ),
    check!(
        "unquoted_file_mode",
        true,
        Warning,
        true,
        3,
        checks::resources::unquoted_file_mode,
        "File modes are quoted strings."
    ),
    check!(
        "unquoted_resource_title",
        true,
        Warning,
        true,
        3,
        checks::resources::unquoted_resource_title,
        "Resource titles are quoted."
    ),
    check!(
        "double_quoted_strings",
        true,
        Warning,
        true,
        3,
        checks::strings::double_quoted_strings,
        "Strings without variables or escapes use single quotes."
    ),
    check!(
        "only_variable_string",
        true,
        Warning,
        false,
        3,
        checks::strings::only_variable_string,
        "A string holding only a variable is the variable itself."
    ),
    check!(
        "puppet_url_without_modules",
        true,
        Warning,
        false,
        3,
        checks::strings::puppet_url_without_modules,
        "puppet:// URLs name the modules mount point (puppet:///modules/...)."
    ),
    check!(
        "quoted_booleans",
        false,
        Warning,
        false,
        3,
        checks::strings::quoted_booleans,
        "Booleans are true and false, not the strings 'true' and 'false'."
    ),
    check!(
        "single_quote_string_with_variables",
        true,
        Error,
        false,
        3,
        checks::strings::single_quote_string_with_variables,
        "A single-quoted string does not contain ${...}, which it would not interpolate."
    ),
    check!(
        "variables_not_enclosed",
        true,
        Warning,
        true,
        3,
        checks::strings::variables_not_enclosed,
        "Variables in strings are enclosed in braces: \"${var}\"."
    ),
    check!(
        "variable_contains_dash",
        true,
        Warning,
        false,
        3,
        checks::variables::variable_contains_dash,
        "Variable names contain no dash."
    ),
    check!(
        "variable_is_lowercase",
        true,
        Warning,
        false,
        3,
        checks::variables::variable_is_lowercase,
        "Variable names contain no uppercase letter."
    ),
    check!(
        "140chars",
        true,
        Warning,
        false,
        3,
        checks::line_length::chars_140,
        "Lines are at most 140 characters long (except URLs and template() calls)."
    ),
    check!(
        "2sp_soft_tabs",
        true,
        Error,
        false,
        3,
        checks::whitespace::two_space_soft_tabs,
        "Indentation is in steps of two spaces."
    ),
    check!(
        "80chars",
        false,
        Warning,
        false,
        3,
        checks::line_length::chars_80,
        "Lines are at most 80 characters long (except URLs and template() calls)."
    ),
    check!(
        "arrow_alignment",
        true,
        Warning,
        true,
        3,
        checks::arrows::arrow_alignment,
        "The => of the attributes and hash entries of a resource are aligned."
    ),
    check!(
        "hard_tabs",
        true,
        Error,
        true,
        3,
        checks::whitespace::hard_tabs,
        "Code is indented with spaces, not tabs."
    ),
    check!(
        "trailing_whitespace",
        true,
        Error,
        true,
        3,
        checks::whitespace::trailing_whitespace,
        "No blanks at the end of a line."
    ),
    check!(
        "space_before_arrow",
        true,
        Warning,
        true,
        4,
        checks::arrows::space_before_arrow,
        "One space before => in a resource written on one line."
    ),
    check!(
        "legacy_facts",
        true,
        Warning,
        false,
        4,
        checks::facts::legacy_facts,
        "Facts are read from their structured form ($facts['os']['family']), not legacy names."
    ),
    check!(
        "top_scope_facts",
        true,
        Warning,
        false,
        4,
        checks::facts::top_scope_facts,
        "Facts are read from $facts, not as top-scope variables ($::fact)."
    ),
];
