//! Formatting part of a file, for the editor: a selected range, or the
//! list the cursor is in when `,` or a line break is typed.
//!
//! The whole file is formatted, then compared with the text line by line
//! (`similar`); the changed stretches that touch the wanted lines become
//! the edits. Applied alone they must still give the same program, which
//! is checked like every formatting result.

use crate::{check_same_program, format_source, FormatOptions, NotFormatted};
use puppet_syntax::SyntaxKind::*;
use puppet_syntax::{parse, SourceKind, SyntaxNode, TextEdit, TextRange, TextSize};
use similar::{Algorithm, DiffOp, TextDiff};
use std::ops::Range;

/// What was typed, for `format_on_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Typed {
    Comma,
    Newline,
}

/// Edits that format the whole text, each a stretch of changed lines (so
/// an editor keeps its cursor and marks on the lines that stay).
pub fn format_document(
    text: &str,
    kind: SourceKind,
    options: &FormatOptions,
) -> Result<Vec<TextEdit>, NotFormatted> {
    edits_for_lines(text, kind, options, 0..=usize::MAX, None)
}

/// Edits that format the lines `range` touches.
pub fn format_range(
    text: &str,
    kind: SourceKind,
    range: TextRange,
    options: &FormatOptions,
) -> Result<Vec<TextEdit>, NotFormatted> {
    let lines = LineStarts::new(text);
    let first = lines.line_of(range.start());
    let last = lines.line_of(range.end());
    edits_for_lines(text, kind, options, first..=last, None)
}

/// Edits that align the list (hash, resource body, attribute block,
/// selector, array, parameters) around `offset` after `typed` was typed
/// there. After a line break the cursor's line itself is left alone, so
/// the indentation the editor put there stays.
pub fn format_on_type(
    text: &str,
    kind: SourceKind,
    offset: TextSize,
    typed: Typed,
    options: &FormatOptions,
) -> Result<Vec<TextEdit>, NotFormatted> {
    let parsed = crate::parse_formattable(text, kind)?;
    let offset = offset.min(TextSize::of(text));
    let Some(list) = enclosing_list(&parsed.syntax_node(), offset) else {
        return Ok(Vec::new());
    };
    let lines = LineStarts::new(text);
    let range = list.text_range();
    let wanted = lines.line_of(range.start())..=lines.line_of(range.end());
    let cursor_line = (typed == Typed::Newline).then(|| lines.line_of(offset));
    edits_for_lines(text, kind, options, wanted, cursor_line)
}

/// The innermost list-like node around `offset`.
fn enclosing_list(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxNode> {
    let token = root.token_at_offset(offset).left_biased()?;
    token.parent_ancestors().find(|node| {
        matches!(
            node.kind(),
            HASH_EXPR
                | ARRAY_EXPR
                | RESOURCE_EXPR
                | RESOURCE_DEFAULTS
                | RESOURCE_OVERRIDE
                | COLLECTOR
                | SELECTOR_EXPR
                | PARAM_LIST
                | ARG_LIST
        )
    })
}

/// The changes formatting makes on the lines in `wanted` (never on
/// `skip_line`), checked to keep the program.
fn edits_for_lines(
    text: &str,
    kind: SourceKind,
    options: &FormatOptions,
    wanted: std::ops::RangeInclusive<usize>,
    skip_line: Option<usize>,
) -> Result<Vec<TextEdit>, NotFormatted> {
    let formatted = format_source(text, kind, options)?;
    let old_lines = LineStarts::new(text);
    let new_lines = LineStarts::new(&formatted);
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .diff_lines(text, &formatted);
    let mut edits = Vec::new();
    let stretches = changed_stretches(diff.ops(), old_lines.count(), new_lines.count(), skip_line);
    for (old, new) in stretches {
        // An insertion touches the line it is inserted before.
        let touched = old.start..old.end.max(old.start + 1);
        let overlaps = touched.start <= *wanted.end() && *wanted.start() < touched.end;
        let on_skipped = skip_line.is_some_and(|line| touched.contains(&line));
        if !overlaps || on_skipped {
            continue;
        }
        let delete = TextRange::new(old_lines.start(old.start), old_lines.start(old.end));
        let insert_range = new_lines.start(new.start)..new_lines.start(new.end);
        edits.push(TextEdit::replace(
            delete,
            &formatted[usize::from(insert_range.start)..usize::from(insert_range.end)],
        ));
    }
    let result = apply(text, &edits);
    if edits.is_empty() || result == formatted {
        // Nothing, or all of the (checked) formatting.
        return Ok(edits);
    }
    let parsed = parse(text, kind);
    check_same_program(&parsed.syntax_node(), text, &result, kind).map_err(|_| {
        NotFormatted::Internal("these lines cannot be formatted apart from the rest".into())
    })?;
    Ok(edits)
}

/// The line ranges (old, new) that differ, from the stretches the diff
/// found equal (the indices of its other operations can be wrong:
/// similar's issue 78). A replacement of as many lines as it replaces is
/// taken line by line, so that a range can pick some; so is one that only
/// drops `skip_line` besides.
fn changed_stretches(
    ops: &[DiffOp],
    old_len: usize,
    new_len: usize,
    skip_line: Option<usize>,
) -> Vec<(Range<usize>, Range<usize>)> {
    let mut gaps = Vec::new();
    let (mut old_at, mut new_at) = (0, 0);
    for op in ops {
        let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = *op
        else {
            continue;
        };
        if old_index < old_at || new_index < new_at {
            continue;
        }
        if old_index > old_at || new_index > new_at {
            gaps.push((old_at..old_index, new_at..new_index));
        }
        (old_at, new_at) = (old_index + len, new_index + len);
    }
    if old_at < old_len || new_at < new_len {
        gaps.push((old_at..old_len, new_at..new_len));
    }
    let mut stretches = Vec::new();
    for (old, new) in gaps {
        let old_lines: Vec<usize> = match skip_line {
            Some(skip) if old.contains(&skip) && old.len() == new.len() + 1 => {
                old.clone().filter(|&line| line != skip).collect()
            }
            _ if old.len() == new.len() => old.clone().collect(),
            _ => {
                stretches.push((old, new));
                continue;
            }
        };
        stretches.extend(
            old_lines
                .into_iter()
                .zip(new)
                .map(|(o, n)| (o..o + 1, n..n + 1)),
        );
    }
    stretches
}

/// The text with non-overlapping edits (in order) applied.
fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for edit in edits {
        let start = usize::from(edit.delete.start());
        out.push_str(&text[at..start]);
        out.push_str(&edit.insert);
        at = usize::from(edit.delete.end());
    }
    out.push_str(&text[at..]);
    out
}

/// Byte offsets of line starts, with the text's end as the start of the
/// line after the last.
struct LineStarts {
    starts: Vec<TextSize>,
}

impl LineStarts {
    fn new(text: &str) -> LineStarts {
        let mut starts = vec![TextSize::from(0)];
        starts.extend(
            text.match_indices('\n')
                .map(|(i, _)| TextSize::from(i as u32 + 1)),
        );
        let end = TextSize::of(text);
        if *starts.last().unwrap_or(&end) != end {
            starts.push(end);
        }
        LineStarts { starts }
    }

    /// How many lines (a last line without a line break counts).
    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// The start of line `line` (the end of the text past the last line).
    fn start(&self, line: usize) -> TextSize {
        self.starts
            .get(line)
            .copied()
            .unwrap_or_else(|| self.starts.last().copied().unwrap_or_default())
    }

    fn line_of(&self, offset: TextSize) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_formats_only_its_lines() {
        let text = "$a  =  1\n$b  =  2\n$c  =  3\n";
        let edits = format_range(
            text,
            SourceKind::Manifest,
            TextRange::new(10.into(), 12.into()),
            &FormatOptions::default(),
        )
        .unwrap();
        assert_eq!(apply(text, &edits), "$a  =  1\n$b = 2\n$c  =  3\n");
    }

    #[test]
    fn typing_aligns_the_list_around_the_cursor() {
        let text = "$x = 1\nfile { 'a':\n  ensure => file,\n  mode => '0644',\n}\n$y  =  2\n";
        let offset = TextSize::from(text.find("'0644',").unwrap() as u32 + 7);
        let edits = format_on_type(
            text,
            SourceKind::Manifest,
            offset,
            Typed::Comma,
            &FormatOptions::default(),
        )
        .unwrap();
        assert_eq!(
            apply(text, &edits),
            "$x = 1\nfile { 'a':\n  ensure => file,\n  mode   => '0644',\n}\n$y  =  2\n"
        );
    }
}
