//! The checks, one module per family. Each check is a function from the
//! [`LintContext`] to diagnostics pushed into a [`Sink`]; the table in
//! `registry.rs` names them. The views several checks share (definitions,
//! resource bodies, variable references, blank runs) are computed once by
//! the context (`crate::context`).

pub(crate) mod arrows;
pub(crate) mod comments;
pub(crate) mod conditionals;
pub(crate) mod definitions;
pub(crate) mod facts;
pub(crate) mod line_length;
pub(crate) mod nodes;
pub(crate) mod relationships;
pub(crate) mod resources;
pub(crate) mod strings;
pub(crate) mod variable_scope;
pub(crate) mod variables;
pub(crate) mod whitespace;

use crate::diagnostic::{Fix, LintDiagnostic, LintSeverity};
use puppet_syntax::{TextEdit, TextRange};

/// Collects the diagnostics of one check, with its name and severity.
pub(crate) struct Sink<'a> {
    check: &'static str,
    severity: LintSeverity,
    out: &'a mut Vec<LintDiagnostic>,
}

impl<'a> Sink<'a> {
    pub fn new(
        check: &'static str,
        severity: LintSeverity,
        out: &'a mut Vec<LintDiagnostic>,
    ) -> Sink<'a> {
        Sink {
            check,
            severity,
            out,
        }
    }

    pub fn report(&mut self, range: TextRange, message: impl Into<String>) {
        self.push(range, message.into(), None);
    }

    pub fn report_with_fix(
        &mut self,
        range: TextRange,
        message: impl Into<String>,
        label: impl Into<String>,
        edits: Vec<TextEdit>,
    ) {
        let fix = Fix {
            label: label.into(),
            edits,
        };
        self.push(range, message.into(), Some(fix));
    }

    fn push(&mut self, range: TextRange, message: String, fix: Option<Fix>) {
        self.out.push(LintDiagnostic {
            check: self.check,
            severity: self.severity,
            range,
            message,
            fix,
        });
    }
}
