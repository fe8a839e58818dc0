//! `textDocument/codeAction`: the analysis' quick fixes, each fix of a
//! puppet-lint finding, a `# lint:ignore:CHECK` comment for each finding,
//! and "fix all puppet-lint problems" (a `source.fixAll` action, for
//! fix-on-save).

use super::backend::Backend;
use super::convert;
use super::features::index_of;
use super::lint::{self, Staleness};
use super::snapshot::Snapshot;
use puppet_ide::SourceChange;
use puppet_lint_checks::{compatible_edits, ignore_on_line, LintDiagnostic, TextEdit, TextRange};
use std::collections::BTreeMap;
use std::path::Path;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::*;

/// The kind of "fix all puppet-lint problems".
fn fix_all_kind() -> CodeActionKind {
    CodeActionKind::SOURCE_FIX_ALL
}

/// What `initialize` says of code actions.
pub fn capabilities(caps: &mut ServerCapabilities) {
    caps.code_action_provider = Some(CodeActionProviderCapability::Options(CodeActionOptions {
        code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, fix_all_kind()]),
        ..Default::default()
    }));
}

pub async fn code_actions(
    b: &Backend,
    params: CodeActionParams,
) -> Result<Option<CodeActionResponse>> {
    let support = b.support().edits;
    b.on_workspace_snapshot("textDocument/codeAction", move |snap| {
        let path = snap.path(&params.text_document.uri)?;
        let index = index_of(snap, &path)?;
        let range = convert::text_range(&index, params.range, snap.encoding);
        let wanted = |kind: &CodeActionKind| match &params.context.only {
            None => true,
            Some(only) => only.iter().any(|o| {
                kind.as_str() == o.as_str() || kind.as_str().starts_with(&format!("{}.", o.as_str()))
            }),
        };
        let mut actions = Vec::new();
        let mut add = |title: String, kind: CodeActionKind, code: Option<&str>, change, preferred| {
            if !wanted(&kind) {
                return;
            }
            let Some(edit) = convert::workspace_edit(snap, &change, support) else {
                return;
            };
            let diagnostics: Vec<Diagnostic> = params
                .context
                .diagnostics
                .iter()
                .filter(|d| {
                    matches!((&d.code, code), (Some(NumberOrString::String(c)), Some(code)) if c == code)
                })
                .cloned()
                .collect();
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(kind),
                diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
                edit: Some(edit),
                is_preferred: Some(preferred),
                ..Default::default()
            }));
        };
        if wanted(&CodeActionKind::QUICKFIX) {
            for fix in snap.analysis.quick_fixes(&path, range)? {
                let kind = CodeActionKind::QUICKFIX;
                add(fix.title, kind, Some(&fix.code), fix.change, fix.preferred);
            }
        }
        if wanted(&CodeActionKind::QUICKFIX) {
            for (check, edits) in ignore_comments(snap, &path, range) {
                let title = format!("Ignore puppet-lint check {check} on this line");
                let change = change_of(&path, &edits);
                add(title, CodeActionKind::QUICKFIX, Some(check), change, false);
            }
        }
        let found = fixable_lint(snap, &path);
        for d in found.iter().filter(|d| d.range.intersect(range).is_some()) {
            if let Some(fix) = &d.fix {
                let change = change_of(&path, &fix.edits);
                add(fix.label.clone(), CodeActionKind::QUICKFIX, Some(d.check), change, true);
            }
        }
        if !found.is_empty() && wanted(&fix_all_kind()) {
            let text = snap.analysis.text(&path).unwrap_or_default();
            let edits: Vec<&TextEdit> = found
                .iter()
                .filter_map(|d| d.fix.as_ref())
                .flat_map(|fix| &fix.edits)
                .collect();
            let change = change_of(&path, compatible_edits(&text, &edits));
            let title = "Fix all puppet-lint problems".to_string();
            add(title, fix_all_kind(), None, change, false);
        }
        Ok(Some(actions))
    })
    .await
}

/// The shown puppet-lint findings of the file's current text that have a
/// fix.
fn fixable_lint(snap: &Snapshot, path: &Path) -> Vec<LintDiagnostic> {
    let findings = lint::findings(snap, path, Staleness::Lint);
    findings
        .current()
        .iter()
        .filter(|d| d.fix.is_some() && snap.config.shows_name(d.check))
        .cloned()
        .collect()
}

/// The control comments that silence each shown puppet-lint finding in
/// `range` (one per check and line) of a manifest.
fn ignore_comments(
    snap: &Snapshot,
    path: &Path,
    range: TextRange,
) -> Vec<(&'static str, Vec<TextEdit>)> {
    if path.extension().is_none_or(|e| e != "pp") {
        return Vec::new();
    }
    let Some(parse) = snap.analysis.parse(path) else {
        return Vec::new();
    };
    let root = parse.syntax_node();
    let findings = lint::findings(snap, path, Staleness::Lint);
    let mut seen = std::collections::BTreeSet::new();
    findings
        .current()
        .iter()
        .filter(|d| d.range.intersect(range).is_some() && snap.config.shows_name(d.check))
        .filter_map(|d| {
            let edits = ignore_on_line(&root, d.check, d.range.start())?;
            let at = edits.first()?.delete.start();
            seen.insert((d.check, at)).then_some((d.check, edits))
        })
        .collect()
}

/// Edits of one file as a workspace change.
fn change_of<'e>(path: &Path, edits: impl IntoIterator<Item = &'e TextEdit>) -> SourceChange {
    let edits = edits
        .into_iter()
        .map(|e| puppet_ide::TextEdit {
            range: e.delete,
            new_text: e.insert.clone(),
        })
        .collect();
    SourceChange {
        edits: BTreeMap::from([(path.to_path_buf(), edits)]),
        file_moves: Vec::new(),
    }
}
