//! What linting answers, as plain data: [`LintDiagnostic`]s with their
//! [`LintSeverity`] and, for checks puppet-ls can fix, a [`Fix`].

use puppet_syntax::{TextEdit, TextRange};

/// puppet-lint's two kinds of problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LintSeverity {
    Error,
    Warning,
}

impl LintSeverity {
    pub fn as_str(self) -> &'static str {
        match self {
            LintSeverity::Error => "error",
            LintSeverity::Warning => "warning",
        }
    }
}

/// Text edits that resolve one diagnostic without changing what the code
/// means. Ranges refer to the linted text and do not overlap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, for an editor's quick-fix menu.
    pub label: String,
    pub edits: Vec<TextEdit>,
}

/// One problem found by one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintDiagnostic {
    /// The check's name, puppet-lint's own: a stable diagnostic code.
    pub check: &'static str,
    pub severity: LintSeverity,
    /// Where the problem is, in bytes of the linted text.
    pub range: TextRange,
    pub message: String,
    pub fix: Option<Fix>,
}
