//! Byte offsets to and from (line, column) positions.
//!
//! Editors count columns in UTF-16 code units (LSP default), UTF-8 bytes or
//! UTF-32 code points (characters, as Puppet's messages do). Lines end at
//! `\n`, `\r\n` or a lone `\r`. Out-of-range positions are clamped, never an
//! error, because editors send them.

use crate::{SharedText, TextEdit, TextRange, TextSize};
use std::sync::Arc;

/// How columns are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnEncoding {
    Utf8,
    Utf16,
    /// Characters (Unicode scalar values).
    Utf32,
}

/// A zero-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// Line starts of a text, for converting positions both ways. The text is
/// shared (the analysis holds the same `Arc`), and after an edit the index
/// is moved rather than rebuilt ([`LineIndex::edited`]), so a keystroke
/// costs what it touches plus shifting the line starts after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    text: SharedText,
    /// Byte offset of the start of each line; the first is 0.
    line_starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        LineIndex::from_shared(Arc::new(text.to_string()))
    }

    /// The index of a text held elsewhere too (no copy).
    pub fn from_shared(text: SharedText) -> LineIndex {
        let mut line_starts = vec![0];
        line_starts_in(&text, 0, text.len(), &mut line_starts);
        LineIndex { text, line_starts }
    }

    /// The index of `new_text`, which is this index's text with `edit`
    /// applied: the line starts before the edit are kept, those in it are
    /// found again, and those after it are moved.
    pub fn edited(&self, edit: &TextEdit, new_text: SharedText) -> LineIndex {
        let (start, end) = edit.clamped(&self.text);
        let new_end = start + edit.insert.len();
        let expected = self.text.len() - (end - start) + edit.insert.len();
        if new_text.len() != expected || new_end > new_text.len() {
            return LineIndex::from_shared(new_text);
        }
        // Keep the starts up to the line before the edit (a `\r` just before
        // it may pair with an inserted `\n`), rescan from there to the end of
        // the inserted text, then move the old starts after the deletion.
        let line = self.line_starts.partition_point(|&s| s as usize <= start) - 1;
        let keep = line.saturating_sub(1);
        let mut line_starts = self.line_starts[..=keep].to_vec();
        let from = line_starts[keep] as usize;
        line_starts_in(&new_text, from, new_end, &mut line_starts);
        // Starts after the deletion land after the inserted text.
        let after = self.line_starts.partition_point(|&s| s as usize <= end);
        let shift = |s: u32| (s as usize - end + new_end) as u32;
        line_starts.extend(self.line_starts[after..].iter().map(|&s| shift(s)));
        LineIndex {
            text: new_text,
            line_starts,
        }
    }

    /// The shared text.
    pub fn shared_text(&self) -> &SharedText {
        &self.text
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The byte range of a line's content, without its line break.
    fn line_bounds(&self, line: usize) -> (usize, usize) {
        let start = self.line_starts[line] as usize;
        let mut end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |&s| s as usize);
        let bytes = self.text.as_bytes();
        if end > start && bytes[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        (start, end)
    }

    /// The byte range of a line without its line break (none past the
    /// last line).
    pub fn line_range(&self, line: u32) -> Option<TextRange> {
        if line as usize >= self.line_starts.len() {
            return None;
        }
        let (start, end) = self.line_bounds(line as usize);
        Some(TextRange::new(
            TextSize::from(start as u32),
            TextSize::from(end as u32),
        ))
    }

    /// A line's text without its line break (empty past the last line).
    pub fn line_text(&self, line: u32) -> &str {
        if line as usize >= self.line_starts.len() {
            return "";
        }
        let (start, end) = self.line_bounds(line as usize);
        &self.text[start..end]
    }

    /// The position of a byte offset (clamped to the text, and moved back to
    /// a character boundary).
    pub fn line_col(&self, offset: TextSize, encoding: ColumnEncoding) -> LineCol {
        let mut offset = (u32::from(offset) as usize).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let (start, end) = self.line_bounds(line);
        let within = &self.text[start..offset.min(end).max(start)];
        let col = match encoding {
            ColumnEncoding::Utf8 => within.len(),
            ColumnEncoding::Utf16 => within.chars().map(char::len_utf16).sum(),
            ColumnEncoding::Utf32 => within.chars().count(),
        };
        LineCol {
            line: line as u32,
            col: col as u32,
        }
    }

    /// The byte offset of a position; a line past the end clamps to the end
    /// of the text, a column past the end of its line to the line's end, and
    /// a column inside a character to that character's start.
    pub fn offset(&self, pos: LineCol, encoding: ColumnEncoding) -> TextSize {
        let line = pos.line as usize;
        if line >= self.line_starts.len() {
            return TextSize::from(self.text.len() as u32);
        }
        let (start, end) = self.line_bounds(line);
        let mut remaining = pos.col as usize;
        let mut offset = start;
        for c in self.text[start..end].chars() {
            let width = match encoding {
                ColumnEncoding::Utf8 => c.len_utf8(),
                ColumnEncoding::Utf16 => c.len_utf16(),
                ColumnEncoding::Utf32 => 1,
            };
            if remaining < width {
                break;
            }
            remaining -= width;
            offset += c.len_utf8();
        }
        TextSize::from(offset as u32)
    }
}

/// Pushes the starts of the lines that begin after a line break found in
/// `text[from..to]` (a `\r` at the end looks at the byte after it).
fn line_starts_in(text: &str, from: usize, to: usize, out: &mut Vec<u32>) {
    let bytes = text.as_bytes();
    for i in memchr::memchr2_iter(b'\n', b'\r', &bytes[from..to]) {
        let i = from + i;
        if bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n') {
            out.push(i as u32 + 1);
        }
    }
}

/// An editor's change to a document: a range and its new text, or (with no
/// range) the whole new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentChange {
    pub range: Option<(LineCol, LineCol)>,
    pub text: String,
}

impl ContentChange {
    /// The change as a byte-offset edit of the text `index` was built from.
    pub fn to_edit(&self, index: &LineIndex, encoding: ColumnEncoding) -> TextEdit {
        let range = match self.range {
            Some((start, end)) => {
                let start = index.offset(start, encoding);
                let end = index.offset(end, encoding).max(start);
                TextRange::new(start, end)
            }
            None => TextRange::up_to(TextSize::from(index.text().len() as u32)),
        };
        TextEdit::replace(range, self.text.clone())
    }
}

/// Applies changes in order, each against the result of the previous one,
/// as LSP's `didChange` requires.
pub fn apply_changes(text: &str, changes: &[ContentChange], encoding: ColumnEncoding) -> String {
    changes_to_edits(text, changes, encoding).0
}

/// Like [`apply_changes`], also giving each change as a byte edit of the
/// text before it (what `Parse::reparse` takes, in the same order).
pub fn changes_to_edits(
    text: &str,
    changes: &[ContentChange],
    encoding: ColumnEncoding,
) -> (String, Vec<TextEdit>) {
    let (index, edits) = LineIndex::new(text).changed(changes, encoding);
    (index.text().to_string(), edits)
}

impl LineIndex {
    /// The index after an editor's changes (applied in order, each to the
    /// result of the previous one), with each change as a byte edit of the
    /// text before it.
    pub fn changed(
        &self,
        changes: &[ContentChange],
        encoding: ColumnEncoding,
    ) -> (LineIndex, Vec<TextEdit>) {
        // Each change reads the index of the previous one; the first reads
        // this one, which is not copied (a keystroke in a big file should not
        // cost a copy of every line start).
        let mut index: Option<LineIndex> = None;
        let mut edits = Vec::with_capacity(changes.len());
        for change in changes {
            let current = index.as_ref().unwrap_or(self);
            let edit = change.to_edit(current, encoding);
            let text = Arc::new(edit.apply(current.text()));
            index = Some(current.edited(&edit, text));
            edits.push(edit);
        }
        (index.unwrap_or_else(|| self.clone()), edits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lc(line: u32, col: u32) -> LineCol {
        LineCol { line, col }
    }

    #[test]
    fn line_texts_without_their_breaks() {
        let index = LineIndex::new("a\r\nbc\n\nd");
        let lines: Vec<&str> = (0..5).map(|l| index.line_text(l)).collect();
        assert_eq!(lines, ["a", "bc", "", "d", ""]);
    }

    #[test]
    fn multibyte_and_astral_columns() {
        let index = LineIndex::new("a\u{e9}\u{20ac}\u{1f600}b\nx");
        let b = TextSize::from(1 + 2 + 3 + 4);
        assert_eq!(index.line_col(b, ColumnEncoding::Utf8), lc(0, 10));
        assert_eq!(index.line_col(b, ColumnEncoding::Utf16), lc(0, 5));
        assert_eq!(index.line_col(b, ColumnEncoding::Utf32), lc(0, 4));
        for enc in [
            ColumnEncoding::Utf8,
            ColumnEncoding::Utf16,
            ColumnEncoding::Utf32,
        ] {
            assert_eq!(index.offset(index.line_col(b, enc), enc), b);
        }
        // Inside the surrogate pair: snaps back to the emoji's start.
        assert_eq!(
            index.offset(lc(0, 4), ColumnEncoding::Utf16),
            TextSize::from(6)
        );
    }

    #[test]
    fn changes_apply_in_order() {
        let change = |l1, c1, l2, c2, text: &str| ContentChange {
            range: Some((lc(l1, c1), lc(l2, c2))),
            text: text.to_string(),
        };
        let changes = [
            change(0, 0, 0, 0, "x"),         // "xab\ncd"
            change(1, 0, 1, 1, "\u{1f600}"), // emoji replaces 'c'
            change(1, 2, 1, 3, "!"),         // after the emoji (2 UTF-16 units), replaces 'd'
        ];
        assert_eq!(
            apply_changes("ab\ncd", &changes, ColumnEncoding::Utf16),
            "xab\n\u{1f600}!"
        );
        let reset = ContentChange {
            range: None,
            text: "new".to_string(),
        };
        assert_eq!(
            apply_changes(
                "old",
                &[change(0, 0, 0, 1, "x"), reset],
                ColumnEncoding::Utf8
            ),
            "new"
        );
        // Out-of-range positions clamp instead of failing.
        assert_eq!(
            apply_changes("ab", &[change(5, 9, 7, 0, "!")], ColumnEncoding::Utf16),
            "ab!"
        );
    }

    #[test]
    fn line_endings_and_clamping() {
        let index = LineIndex::new("ab\r\ncd\ref\n\ng");
        assert_eq!(index.line_count(), 5);
        assert_eq!(
            index.line_col(TextSize::from(4), ColumnEncoding::Utf8),
            lc(1, 0)
        );
        assert_eq!(
            index.line_col(TextSize::from(7), ColumnEncoding::Utf8),
            lc(2, 0)
        );
        // The `\r` of `\r\n` is at the end of line 0.
        assert_eq!(
            index.line_col(TextSize::from(3), ColumnEncoding::Utf8),
            lc(0, 2)
        );
        assert_eq!(
            index.offset(lc(0, 99), ColumnEncoding::Utf16),
            TextSize::from(2)
        );
        assert_eq!(
            index.offset(lc(3, 5), ColumnEncoding::Utf16),
            TextSize::from(10)
        );
        assert_eq!(
            index.offset(lc(99, 0), ColumnEncoding::Utf16),
            TextSize::from(12)
        );
        assert_eq!(
            index.line_col(TextSize::from(999), ColumnEncoding::Utf8),
            lc(4, 1)
        );
    }

    proptest::proptest! {
        /// Moving the index through an edit gives the index built afresh.
        #[test]
        fn edited_index_equals_a_fresh_one(
            text in "[ab\r\n\u{e9}]{0,40}",
            start in 0usize..50,
            len in 0usize..10,
            insert in "[ab\r\n]{0,6}",
        ) {
            let index = LineIndex::new(&text);
            let delete = TextRange::new(
                TextSize::from(start as u32),
                TextSize::from((start + len) as u32),
            );
            let edit = TextEdit::replace(delete, insert);
            let new_text = Arc::new(edit.apply(&text));
            let moved = index.edited(&edit, new_text.clone());
            proptest::prop_assert_eq!(moved, LineIndex::from_shared(new_text));
        }
    }
}
