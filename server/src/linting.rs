//! puppet-lint's checks as `check` and the language server run them: on
//! the analysis' tree of a manifest, with the absolute path that
//! `autoloader_layout` compares, and merged with the analysis' findings
//! without saying the same thing twice.

use puppet_analysis::diagnostics::Diagnostic;
use puppet_lint_checks::{lint_tree, LintConfig, LintDiagnostic};
use puppet_syntax::{Code, SyntaxNode};
use std::path::Path;

/// puppet-lint's checks on one manifest whose tree (of `text`) is `root`,
/// with the path `autoloader_layout` compares made absolute, as
/// puppet-lint makes it.
pub fn lint_manifest(
    path: &Path,
    text: &str,
    root: &SyntaxNode,
    config: &LintConfig,
) -> Vec<LintDiagnostic> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    lint_tree(root, text, Some(&absolute), config)
}

/// Whether the analysis already reports this finding: puppet-lint's
/// `autoloader_layout` says what the analysis' `definition-location` says,
/// at the same name, so it is reported as that one (selected and ignored
/// with it). `analysis` holds the file's analysis diagnostics, shown or
/// not.
pub fn is_reported_by_analysis(lint: &LintDiagnostic, analysis: &[Diagnostic]) -> bool {
    lint.check == "autoloader_layout"
        && analysis
            .iter()
            .any(|d| d.code == Code::DefinitionLocation && d.range.start() == lint.range.start())
}
