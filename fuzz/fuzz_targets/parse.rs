//! Lex, parse and validate arbitrary bytes (lossily decoded as UTF-8) as both
//! a manifest and a template; nothing may panic and the tree must be lossless.

#![no_main]

use libfuzzer_sys::fuzz_target;
use puppet_syntax::{SourceKind, TextSize};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text: &str = &text;
    for kind in [SourceKind::Manifest, SourceKind::Template] {
        let lexed = puppet_syntax::lex(text, kind);
        let lexed_len: usize = lexed.tokens.iter().map(|t| t.len as usize).sum();
        assert_eq!(lexed_len, text.len(), "token lengths must cover the input");

        let (parse, errors) = puppet_syntax::parse_and_validate(text, kind);
        let root = parse.syntax_node();
        assert_eq!(root.text().to_string(), text, "the tree must be lossless");
        assert_eq!(root.text_range().end(), TextSize::of(text));
        let end = TextSize::of(text);
        for error in parse.errors().iter().chain(&errors) {
            assert!(
                error.range.end() <= end,
                "error range out of bounds: {error:?}"
            );
            assert!(text.is_char_boundary(error.range.start().into()));
            assert!(text.is_char_boundary(error.range.end().into()));
        }
        // Walk the whole tree (exercises every node and token).
        let mut tokens_len = 0usize;
        for token in root
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
        {
            tokens_len += token.text().len();
        }
        assert_eq!(tokens_len, text.len());
    }
});
