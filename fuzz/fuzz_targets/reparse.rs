//! Incremental reparsing against a full parse, without bound: a text and a
//! sequence of edits; after each edit, `Parse::reparse` must give exactly
//! the tree and errors of parsing the edited text from scratch.

#![no_main]

use libfuzzer_sys::fuzz_target;
use puppet_syntax::{parse, SourceKind, TextEdit, TextRange, TextSize};

fuzz_target!(|input: (String, Vec<(u16, u8, String)>)| {
    let (mut text, edits) = input;
    let mut current = parse(&text, SourceKind::Manifest);
    for (start, len, insert) in edits.into_iter().take(16) {
        let mut start = (start as usize).min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + len as usize).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let edit = TextEdit::replace(
            TextRange::new(TextSize::from(start as u32), TextSize::from(end.max(start) as u32)),
            insert,
        );
        current = current.reparse(&edit);
        text = edit.apply(&text);
        let full = parse(&text, SourceKind::Manifest);
        assert!(current.green() == full.green(), "reparse tree differs from a full parse");
        assert_eq!(current.errors(), full.errors(), "reparse errors differ from a full parse");
    }
});
