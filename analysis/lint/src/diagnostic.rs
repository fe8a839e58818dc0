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

/// The edits of several fixes that can be applied together, in text order:
/// where edits overlap (fixes of different diagnostics may touch the same
/// blanks), the later one in the text wins and the others are left out, as
/// are edits outside `text` or off its character boundaries. Their checks
/// report what is left on the result.
pub fn compatible_edits<'e>(text: &str, edits: &[&'e TextEdit]) -> Vec<&'e TextEdit> {
    let mut edits: Vec<&TextEdit> = edits.to_vec();
    edits.sort_by_key(|e| std::cmp::Reverse(e.delete.start()));
    let mut kept: Vec<&TextEdit> = Vec::with_capacity(edits.len());
    for edit in edits {
        let range = std::ops::Range::<usize>::from(edit.delete);
        let fits = range.end <= text.len()
            && text.is_char_boundary(range.start)
            && text.is_char_boundary(range.end);
        let overlaps = kept
            .last()
            .is_some_and(|later| edit.delete.end() > later.delete.start());
        if fits && !overlaps {
            kept.push(edit);
        }
    }
    kept.reverse();
    kept
}

/// The text with the edits of several fixes applied ([`compatible_edits`]
/// says which).
pub fn apply_fixes(text: &str, edits: &[&TextEdit]) -> String {
    let mut out = text.to_string();
    for edit in compatible_edits(text, edits).into_iter().rev() {
        out.replace_range(std::ops::Range::<usize>::from(edit.delete), &edit.insert);
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixes_apply_in_order_and_overlaps_and_strays_are_left_out() {
        let edit =
            |a: u32, b: u32, s: &str| TextEdit::replace(TextRange::new(a.into(), b.into()), s);
        let text = "abcdef";
        let apply = |edits: &[TextEdit]| apply_fixes(text, &edits.iter().collect::<Vec<_>>());
        assert_eq!(
            apply(&[edit(4, 5, "E"), edit(0, 1, "A"), edit(0, 2, "X")]),
            "AbcdEf"
        );
        assert_eq!(apply(&[edit(6, 6, "!")]), "abcdef!");
        assert_eq!(apply(&[edit(5, 9, "?")]), "abcdef");
        assert_eq!(apply_fixes("é", &[&edit(1, 1, "x")]), "é");
        let (a, b, c) = (edit(4, 5, "E"), edit(0, 1, "A"), edit(0, 2, "X"));
        assert_eq!(
            compatible_edits(text, &[&a, &b, &c]),
            vec![&b, &a],
            "in text order, the overlapping one left out"
        );
    }
}
