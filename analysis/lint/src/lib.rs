//! puppet-lint's style checks, natively.
//!
//! Every check of puppet-lint 3 and the newer ones of puppet-lint 4 run
//! over puppet-syntax's lossless tree, under puppet-lint's own names
//! (`arrow_alignment`, `140chars`, ...), with its defaults, its control
//! comments (`# lint:ignore:NAME`) and its `.puppet-lint.rc` options.
//!
//! The API is plain data: [`lint`] (or [`lint_path`], or [`lint_tree`] for
//! a caller that already has the tree) takes text and a [`LintConfig`] and
//! answers [`LintDiagnostic`]s with byte ranges, and, for checks puppet-lint
//! can fix, a [`Fix`] made of text edits that never change what the code
//! means ([`apply_fixes`] applies several). [`CHECKS`] describes every check; [`parse_rc`] reads a
//! `.puppet-lint.rc`; [`line_column`] gives puppet-lint's positions.
//! `docs/lint.md` lists the checks and every deliberate difference from
//! puppet-lint.

mod checks;
mod config;
mod context;
mod control_comments;
mod diagnostic;
mod rc;
mod registry;

pub use config::{ErrorLevel, LintConfig};
pub use control_comments::ignore_on_line;
pub use diagnostic::{apply_fixes, compatible_edits, Fix, LintDiagnostic, LintSeverity};
pub use puppet_syntax::{SourceKind, SyntaxNode, TextEdit, TextRange, TextSize};
pub use rc::{parse_rc, rc_file_locations, RcProblem};
pub use registry::{check_info, CheckInfo, CHECKS};

use context::LintContext;
use std::path::Path;

/// Lints a manifest with the enabled checks of `config`. Checks that need
/// the file's path (`autoloader_layout`) do not run: see [`lint_path`].
///
/// Templates (`SourceKind::Template`) give no diagnostics, as puppet-lint
/// only reads `.pp` files.
pub fn lint(text: &str, kind: SourceKind, config: &LintConfig) -> Vec<LintDiagnostic> {
    run(text, kind, None, config)
}

/// Lints a manifest that lives at `path`, for `autoloader_layout`, which
/// compares the path's text with where the autoloader looks (puppet-lint
/// makes the path absolute first: pass an absolute path, or a path from
/// the module's root with `LintConfig::relative`).
pub fn lint_path(
    path: &Path,
    text: &str,
    kind: SourceKind,
    config: &LintConfig,
) -> Vec<LintDiagnostic> {
    run(text, kind, Some(path), config)
}

/// Lints a manifest already parsed: `root` is the tree of `text` (as
/// `puppet_syntax::parse(text, SourceKind::Manifest)` gives it), so that a
/// caller holding the tree does not parse twice. `path` as in [`lint_path`].
pub fn lint_tree(
    root: &SyntaxNode,
    text: &str,
    path: Option<&Path>,
    config: &LintConfig,
) -> Vec<LintDiagnostic> {
    if usize::from(root.text_range().len()) != text.len() {
        // Not the tree of this text: its ranges would point elsewhere.
        return Vec::new();
    }
    let ctx = LintContext::new(text, root.clone(), path, config);
    let mut diagnostics = Vec::new();
    for info in CHECKS.iter().filter(|info| config.is_enabled(info.name)) {
        let mut sink = checks::Sink::new(info.name, info.severity, &mut diagnostics);
        (info.run)(&ctx, &mut sink);
    }
    let ignored = control_comments::IgnoredLines::from_context(&ctx);
    diagnostics.retain(|d| !ignored.is_ignored(d.check, ctx.line_of(d.range.start())));
    diagnostics.sort_by_key(|d| (d.range.start(), d.range.end(), d.check));
    diagnostics
}

fn run(
    text: &str,
    kind: SourceKind,
    path: Option<&Path>,
    config: &LintConfig,
) -> Vec<LintDiagnostic> {
    if kind == SourceKind::Template {
        return Vec::new();
    }
    let parse = puppet_syntax::parse(text, SourceKind::Manifest);
    lint_tree(&parse.syntax_node(), text, path, config)
}

/// 1-based line and column (in characters) of a byte offset, as puppet-lint
/// reports positions.
pub fn line_column(text: &str, offset: TextSize) -> (u32, u32) {
    context::LineStarts::new(text).line_column(text, offset)
}
