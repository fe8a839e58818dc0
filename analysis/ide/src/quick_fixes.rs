//! Quick fixes for diagnostics whose fix is clear: take the suggested
//! name ("did you mean 'running'?", in code and in Hiera data), add the
//! missing required attributes, remove an unused variable's assignment,
//! declare a used module in the module's `metadata.json`, replace a legacy
//! fact with its structured equivalent.

use super::{Cancellable, SourceChange, TextEdit};
use crate::Analysis;
use puppet_analysis::db::parse;
use puppet_analysis::diagnostics::{legacy_fact_fix, Diagnostic};
use puppet_analysis::metadata::{
    add_dependency, metadata, module_metadata_files, suggested_dependency,
};
use puppet_syntax::ast::{self, AstNode};
use puppet_syntax::Code;
use puppet_syntax::{SyntaxKind, SyntaxNode, TextRange, TextSize};
use std::path::{Path, PathBuf};

/// A fix for one diagnostic (by its code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickFix {
    pub title: String,
    pub code: String,
    pub change: SourceChange,
    /// The obvious fix (applied by "fix all"-style commands).
    pub preferred: bool,
}

impl Analysis {
    /// The fixes for the diagnostics touching `range` in a file (a Puppet
    /// source or a Hiera data file).
    pub fn quick_fixes(&self, path: &Path, range: TextRange) -> Cancellable<Vec<QuickFix>> {
        let diagnostics = self.diagnostics(path)?;
        self.with_db(|a| {
            let Some(text) = a.0.text(path) else {
                return Vec::new();
            };
            let root = a.file(path).map(|f| parse(a.db(), f).syntax_node());
            let mut out = Vec::new();
            for d in diagnostics
                .iter()
                .filter(|d| d.range.intersect(range).is_some() || range.contains_range(d.range))
            {
                let in_this_file =
                    |(title, edit): (String, TextEdit)| (title, path.to_path_buf(), edit);
                let fix = match (d.code, &root) {
                    (Code::UnusedVariable, Some(root)) => {
                        remove_assignment(root, d.range).map(in_this_file)
                    }
                    (Code::MissingRequiredParameter, Some(root)) => {
                        add_required(root, &text, d.range, &d.message).map(in_this_file)
                    }
                    (Code::UndeclaredDependency, _) => a.declare_dependency(path, d),
                    (Code::LegacyFact, Some(root)) => legacy_fact_fix(root, d.range)
                        .map(|(range, new_text)| {
                            // The message names the whole replacement.
                            let instead = d
                                .message
                                .rsplit_once("; use ")
                                .map_or(new_text.as_str(), |(_, instead)| instead);
                            (format!("Use {instead}"), TextEdit { range, new_text })
                        })
                        .map(in_this_file),
                    _ => suggestion(&text, d.range, &d.message).map(in_this_file),
                };
                if let Some((title, file, edit)) = fix {
                    let mut change = SourceChange::default();
                    change.edits.insert(file, vec![edit]);
                    out.push(QuickFix {
                        title,
                        code: d.code.to_string(),
                        change,
                        preferred: d.code != Code::UnusedVariable,
                    });
                }
            }
            out
        })
    }

    /// `undeclared-dependency`: adds the module the code uses to the
    /// `dependencies` of the module's metadata.json (the edit is in that
    /// file), as the diagnostic suggests.
    fn declare_dependency(
        &self,
        path: &Path,
        d: &Diagnostic,
    ) -> Option<(String, PathBuf, TextEdit)> {
        let (db, workspace) = (self.db(), self.0.workspace());
        // "... of module 'x', which ...": one module defines the name.
        let owner = d.message.split("of module '").nth(1)?.split('\'').next()?;
        let entry = suggested_dependency(db, workspace, owner)?;
        let (module, _) = workspace.layout(db).module_of(path)?;
        let &file = module_metadata_files(db, workspace).get(&module.name.to_lowercase())?;
        let (range, new_text) = add_dependency(file.text(db), metadata(db, file), &entry)?;
        Some((
            format!("Add module '{owner}' to metadata.json's dependencies"),
            file.path(db).clone(),
            TextEdit { range, new_text },
        ))
    }
}

/// "... did you mean 'x'?": replace the name (inside its quotes).
fn suggestion(text: &str, range: TextRange, message: &str) -> Option<(String, TextEdit)> {
    let start = message.find("did you mean '")? + "did you mean '".len();
    let len = message[start..].find('\'')?;
    let suggested = &message[start..start + len];
    let written = text.get(usize::from(range.start())..usize::from(range.end()))?;
    let mut edit_range = range;
    for quote in ['\'', '"'] {
        if written.len() >= 2 && written.starts_with(quote) && written.ends_with(quote) {
            edit_range = TextRange::new(
                range.start() + TextSize::from(1),
                range.end() - TextSize::from(1),
            );
        }
    }
    Some((
        format!("Change to '{suggested}'"),
        TextEdit {
            range: edit_range,
            new_text: suggested.to_string(),
        },
    ))
}

/// Removes `$x = ...` (with its line when it is alone on it).
fn remove_assignment(root: &SyntaxNode, range: TextRange) -> Option<(String, TextEdit)> {
    let token = root.token_at_offset(range.start()).right_biased()?;
    let assignment = token
        .parent_ancestors()
        .find_map(ast::AssignmentExpr::cast)?;
    // Only a statement of its own; `$a = $b = 1` keeps its value.
    let node = assignment.syntax();
    if node
        .parent()
        .is_some_and(|p| !matches!(p.kind(), SyntaxKind::SOURCE_FILE | SyntaxKind::BLOCK))
    {
        return None;
    }
    let mut r = node.text_range();
    let whole = root.text().to_string();
    let before = &whole[..usize::from(r.start())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let after = &whole[usize::from(r.end())..];
    if before[line_start..].trim().is_empty() {
        let line_end = after
            .find('\n')
            .map_or(whole.len(), |i| usize::from(r.end()) + i + 1);
        if whole[usize::from(r.end())..line_end].trim().is_empty() {
            r = TextRange::new(
                TextSize::from(line_start as u32),
                TextSize::from(line_end as u32),
            );
        }
    }
    Some((
        format!("Remove unused variable {}", token.text()),
        TextEdit {
            range: r,
            new_text: String::new(),
        },
    ))
}

/// "... expects a value for 'a', 'b'": adds `a => undef,` lines to the
/// resource body, for the user to fill in.
fn add_required(
    root: &SyntaxNode,
    text: &str,
    range: TextRange,
    message: &str,
) -> Option<(String, TextEdit)> {
    let list = message.split("expects a value for ").nth(1)?;
    let list = list.split(" (").next()?;
    let names: Vec<&str> = list.split(", ").map(|n| n.trim_matches('\'')).collect();
    let token = root.token_at_offset(range.start()).right_biased()?;
    let resource = token.parent_ancestors().find_map(ast::ResourceExpr::cast)?;
    let body = resource
        .bodies()
        .find(|b| b.syntax().text_range().contains_range(range))?;
    let last = body
        .attributes()
        .last()
        .map(|a| a.syntax().text_range().end())
        .or_else(|| {
            body.syntax()
                .children_with_tokens()
                .find(|t| t.kind() == SyntaxKind::COLON)
                .map(|t| t.text_range().end())
        })?;
    let line_start = text[..usize::from(resource.syntax().text_range().start())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let indent: String = text[line_start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let needs_comma = body.attributes().last().is_some()
        && !text[usize::from(last)..].trim_start().starts_with(',');
    let mut insert = String::new();
    if needs_comma {
        insert.push(',');
    }
    for name in &names {
        insert.push_str(&format!("\n{indent}  {name} => undef,"));
    }
    let at = if needs_comma {
        last
    } else {
        // After an existing trailing comma.
        let rest = &text[usize::from(last)..];
        let skip = rest.len() - rest.trim_start().len();
        let comma = rest.trim_start().starts_with(',') as usize;
        if comma == 1 {
            last + TextSize::from((skip + 1) as u32)
        } else {
            last
        }
    };
    Some((
        format!("Add missing {}", names.join(", ")),
        TextEdit {
            range: TextRange::empty(at),
            new_text: insert,
        },
    ))
}
