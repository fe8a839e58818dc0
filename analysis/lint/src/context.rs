//! What every check reads: the text, its tree, its tokens in order, and
//! positions as puppet-lint counts them (1-based lines, columns in
//! characters).

use crate::LintConfig;
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use std::path::Path;

pub(crate) struct LintContext<'a> {
    pub text: &'a str,
    pub root: SyntaxNode,
    /// Every token of the tree, trivia included, in text order.
    pub tokens: Vec<SyntaxToken>,
    pub path: Option<&'a Path>,
    pub config: &'a LintConfig,
    lines: LineStarts,
}

impl<'a> LintContext<'a> {
    /// `root` is the tree of `text`.
    pub fn new(
        text: &'a str,
        root: SyntaxNode,
        path: Option<&'a Path>,
        config: &'a LintConfig,
    ) -> LintContext<'a> {
        let tokens = root
            .descendants_with_tokens()
            .filter_map(|element| element.into_token())
            .collect();
        LintContext {
            text,
            root,
            tokens,
            path,
            config,
            lines: LineStarts::new(text),
        }
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, offset: TextSize) -> u32 {
        self.lines.line_of(offset)
    }

    /// 1-based line and character column of a byte offset.
    pub fn line_column(&self, offset: TextSize) -> (u32, u32) {
        self.lines.line_column(self.text, offset)
    }

    /// The text of the line holding `offset`, from its start up to `offset`.
    pub fn line_prefix(&self, offset: TextSize) -> &'a str {
        let start = self.lines.start_of_line_at(offset);
        &self.text[start..usize::from(offset)]
    }

    /// Index in `tokens` of the token starting at `token`'s offset.
    pub fn index_of(&self, token: &SyntaxToken) -> usize {
        let start = token.text_range().start();
        self.tokens
            .partition_point(|t| t.text_range().start() < start)
            .min(self.tokens.len().saturating_sub(1))
    }

    /// The nearest token after `index` that is not trivia.
    pub fn next_code(&self, index: usize) -> Option<(usize, &SyntaxToken)> {
        self.tokens
            .iter()
            .enumerate()
            .skip(index + 1)
            .find(|(_, t)| !t.kind().is_trivia())
    }

    /// The nearest token before `index` that is not trivia.
    pub fn prev_code(&self, index: usize) -> Option<(usize, &SyntaxToken)> {
        self.tokens[..index.min(self.tokens.len())]
            .iter()
            .enumerate()
            .rev()
            .find(|(_, t)| !t.kind().is_trivia())
    }

    /// Nodes of `kind` anywhere in the file.
    pub fn nodes(&self, kind: SyntaxKind) -> impl Iterator<Item = SyntaxNode> + '_ {
        self.root.descendants().filter(move |n| n.kind() == kind)
    }

    /// Tokens of `kind` anywhere in the file.
    pub fn tokens_of(&self, kind: SyntaxKind) -> impl Iterator<Item = &SyntaxToken> + '_ {
        self.tokens.iter().filter(move |t| t.kind() == kind)
    }

    /// The byte range of the text of `range` trimmed to one line, for
    /// diagnostics on elements that span lines.
    pub fn first_line_of(&self, range: TextRange) -> TextRange {
        let text = &self.text[range];
        let end = text.find(['\n', '\r']).unwrap_or(text.len());
        TextRange::at(range.start(), TextSize::from(end as u32))
    }
}

/// Byte offsets where lines start; lines end at `\n`, `\r\n` or a lone `\r`
/// as in puppet-lint's lexer.
pub(crate) struct LineStarts {
    starts: Vec<usize>,
}

impl LineStarts {
    pub fn new(text: &str) -> LineStarts {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        LineStarts { starts }
    }

    pub fn line_of(&self, offset: TextSize) -> u32 {
        self.starts.partition_point(|&s| s <= usize::from(offset)) as u32
    }

    pub fn start_of_line_at(&self, offset: TextSize) -> usize {
        self.starts[self.line_of(offset).saturating_sub(1) as usize]
    }

    pub fn line_column(&self, text: &str, offset: TextSize) -> (u32, u32) {
        let mut end = usize::from(offset).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let line = self.line_of(TextSize::from(end as u32));
        let start = self.starts[line.saturating_sub(1) as usize].min(end);
        (line, 1 + text[start..end].chars().count() as u32)
    }
}

/// Line breaks in `text`: `\n`, `\r\n` or a lone `\r`, each counting once.
pub(crate) fn count_line_breaks(text: &str) -> usize {
    LineStarts::new(text).starts.len() - 1
}
