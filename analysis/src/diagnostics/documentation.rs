//! puppet-strings documentation checked against the definition it
//! documents, as `puppet strings` warns: a `@param` (or `@option`) naming
//! no parameter, a `@param` whose type contradicts the declared one
//! (neither contains the other), a parameter without `@param` (off by
//! default: puppet-lint's `parameter_documentation` reports the same).
//! Only comments written for puppet-strings (with tags) are checked.

use super::workspace_types::WorkspaceTypes;
use super::Diagnostic;
use crate::declared::DocStrings;
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{Code, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};

pub(super) fn check(
    definition: &SyntaxNode,
    types: &WorkspaceTypes<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let params: Vec<ast::Param> = match Expr::cast(definition.clone()) {
        Some(Expr::ClassDef(d)) => d.params(),
        Some(Expr::DefineDef(d)) => d.params(),
        Some(Expr::FunctionDef(d)) => d.params(),
        Some(Expr::PlanDef(d)) => d.params(),
        _ => return,
    }
    .map(|list| list.params().collect())
    .unwrap_or_default();
    let Some(doc) = ast::doc_comment(definition) else {
        return;
    };
    let strings = DocStrings::parse(&doc);
    if !strings.is_tagged() {
        return;
    }
    let comments: Vec<SyntaxToken> = definition
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .take_while(|t| t.kind().is_trivia())
        .filter(|t| t.kind() == SyntaxKind::COMMENT)
        .collect();
    let declared = |name: &str| params.iter().find(|p| p.name().as_deref() == Some(name));
    // The tag's place is looked up only for what is reported: a scan of the
    // comment per tag would cost milliseconds on a long comment, at every
    // keystroke in the definition.
    let place = |tag: &str, name: &str| tag_place(&comments, tag, name);
    // Every resource has a `$title` and a `$name` to document.
    let implicit = |name: &str| matches!(name, "name" | "title");
    for tagged in &strings.params {
        let Some(param) = declared(&tagged.name) else {
            if implicit(&tagged.name) {
                continue;
            }
            out.push(Diagnostic::warning(
                place("@param", &tagged.name).map_or(definition_name(definition), |p| p.name),
                Code::StringsUnknownParam,
                format!("@param '{}' names no parameter", tagged.name),
            ));
            continue;
        };
        let (Some(written), Some(declared_type)) = (&tagged.types, param.type_expr()) else {
            continue;
        };
        let declared_text = declared_type.syntax().text().to_string();
        let (Some(tag_type), Some(code_type)) =
            (types.resolve(written), types.resolve(&declared_text))
        else {
            continue;
        };
        if types.contradict(&tag_type, &code_type) {
            out.push(Diagnostic::warning(
                place("@param", &tagged.name)
                    .and_then(|p| p.types)
                    .unwrap_or_else(|| param.syntax().text_range()),
                Code::StringsParamTypeMismatch,
                format!(
                    "@param '{}' says [{written}], but the parameter is declared {declared_text}",
                    tagged.name
                ),
            ));
        }
    }
    for option in &strings.options {
        if declared(&option.param).is_none() {
            out.push(Diagnostic::warning(
                place("@option", &option.param).map_or(definition_name(definition), |p| p.name),
                Code::StringsUnknownParam,
                format!("@option for '{}', which names no parameter", option.param),
            ));
        }
    }
    for param in &params {
        let (Some(name), Some(token)) = (param.name(), param.variable_token()) else {
            continue;
        };
        if strings.param(&name).is_none() {
            out.push(Diagnostic::warning(
                token.text_range(),
                Code::StringsMissingParam,
                format!("parameter ${name} has no @param documentation"),
            ));
        }
    }
}

/// Where a tag names something in the comment: the name, and the
/// `[types]` when written.
struct TagPlace {
    name: TextRange,
    types: Option<TextRange>,
}

/// The first comment line `TAG ... name` naming `name`.
fn tag_place(comments: &[SyntaxToken], tag: &str, name: &str) -> Option<TagPlace> {
    comments.iter().find_map(|token| {
        let text = token.text();
        let at_tag = text.find(tag)?;
        let after = &text[at_tag + tag.len()..];
        let start = token.text_range().start() + TextSize::try_from(at_tag + tag.len()).ok()?;
        let word = after
            .match_indices(|c: char| !c.is_whitespace())
            .map(|(i, _)| i)
            .next()?;
        // The name is the first word that is not a `[types]` group.
        let mut offset = word;
        let mut types = None;
        let rest = &after[offset..];
        if let Some(inner) = rest.strip_prefix('[') {
            let close = inner.find(']')?;
            types = Some(TextRange::at(start + size(offset)?, size(close + 2)?));
            offset += close + 2;
            offset += after[offset..].len() - after[offset..].trim_start().len();
        }
        let found = &after[offset..];
        let written = found.split_whitespace().next()?;
        if written.trim_start_matches('$') != name {
            return None;
        }
        let name_range = TextRange::at(start + size(offset)?, size(written.len())?);
        if types.is_none() {
            // `@param name [Types] text`.
            let tail = &after[offset + written.len()..];
            let lead = tail.len() - tail.trim_start().len();
            if let Some(inner) = tail.trim_start().strip_prefix('[') {
                let close = inner.find(']')?;
                let at = start + size(offset + written.len() + lead)?;
                types = Some(TextRange::at(at, size(close + 2)?));
            }
        }
        Some(TagPlace {
            name: name_range,
            types,
        })
    })
}

fn definition_name(definition: &SyntaxNode) -> TextRange {
    crate::hir::items::definition_name_range(definition)
}

fn size(n: usize) -> Option<TextSize> {
    TextSize::try_from(n).ok()
}
