//! The codes `check` and the editor report under, from three sources: the
//! analysis (its stable codes), puppet-lint's checks (their names), and the
//! formatter (`unformatted`). One type, so that selecting, ignoring and
//! re-grading codes reads every source the same way.

use puppet_codes::Reported;
use puppet_lint_checks::{check_info, LintSeverity, CHECKS};
use puppet_syntax::Code;
use std::fmt;
use std::str::FromStr;

/// What reported a problem: the analysis (its codes), one of puppet-lint's
/// checks (its name), or the formatter (a file it would change). The names
/// never collide: analysis codes use dashes, puppet-lint's underscores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProblemCode {
    Analysis(Code),
    Lint(&'static str),
    /// `unformatted`: `puppet-ls fmt` would change the file.
    Format,
}

impl ProblemCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemCode::Analysis(code) => code.as_str(),
            ProblemCode::Lint(name) => name,
            ProblemCode::Format => "unformatted",
        }
    }

    pub fn explanation(self) -> &'static str {
        match self {
            ProblemCode::Analysis(code) => code.explanation(),
            ProblemCode::Lint(name) => check_info(name).map_or("", |info| info.explanation),
            ProblemCode::Format => "the file is not formatted as `puppet-ls fmt` formats it",
        }
    }

    pub fn help(self) -> String {
        match self {
            ProblemCode::Analysis(code) => format!("see {} in puppet-ls", code.documentation()),
            ProblemCode::Lint(name) => {
                format!("puppet-lint's `{name}` check: see docs/lint.md in puppet-ls")
            }
            ProblemCode::Format => "run `puppet-ls fmt` (or `puppet-ls check --fix`)".to_string(),
        }
    }

    /// A rule's level when nothing says otherwise: the worse one it can have.
    pub fn default_level(self) -> &'static str {
        match self {
            ProblemCode::Analysis(code) => match code.reported() {
                Reported::Warning => "warning",
                Reported::Error | Reported::ErrorOrWarning => "error",
            },
            ProblemCode::Lint(name) => match check_info(name).map(|info| info.severity) {
                Some(LintSeverity::Error) => "error",
                _ => "warning",
            },
            ProblemCode::Format => "warning",
        }
    }

    /// Every code name: the analysis codes, puppet-lint's check names,
    /// `unformatted`.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Code::ALL
            .iter()
            .map(|c| c.as_str())
            .chain(CHECKS.iter().map(|c| c.name))
            .chain(std::iter::once(ProblemCode::Format.as_str()))
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProblemCode {
    type Err = String;

    /// An analysis code, a puppet-lint check's name, or `unformatted`.
    fn from_str(name: &str) -> Result<ProblemCode, String> {
        if name == ProblemCode::Format.as_str() {
            return Ok(ProblemCode::Format);
        }
        if let Some(info) = check_info(name) {
            return Ok(ProblemCode::Lint(info.name));
        }
        name.parse::<Code>()
            .map(ProblemCode::Analysis)
            .map_err(|e| e.to_string())
    }
}
