//! Where comments and line breaks stand relative to the significant
//! tokens, computed once before the document is built.
//!
//! The parser puts trivia wherever the next node starts, so a comment may
//! be the child of almost any node. Instead of looking for comments node
//! by node, every comment is attached to a significant token: a comment
//! on the line of the token before it trails that token; any other
//! comment leads the next token. Whoever emits a token emits its comments,
//! so none can be lost, whatever construct it sits in.

use puppet_syntax::{NodeOrToken, SyntaxKind, SyntaxNode, SyntaxToken, TextSize};

/// How a comment stands in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// First on its line (`blank_before`: a blank line above it).
    OwnLine { blank_before: bool },
    /// After code on the same line, before the line break.
    Trailing,
    /// A block comment with code after it on the same line.
    Inline,
}

#[derive(Debug, Clone)]
pub struct Comment<'a> {
    /// The comment, without trailing blanks (on each of its lines).
    pub text: std::borrow::Cow<'a, str>,
    pub placement: Placement,
}

/// What stands before and after one significant token.
#[derive(Debug, Default)]
pub struct TokenTrivia<'a> {
    offset: TextSize,
    pub leading: Vec<Comment<'a>>,
    pub trailing: Vec<Comment<'a>>,
    /// A line break between the previous significant token (or comment)
    /// and this token.
    pub newline_before: bool,
    /// A blank line there.
    pub blank_before: bool,
}

/// The trivia of every significant token of a file, in text order.
#[derive(Debug, Default)]
pub struct Trivia<'a> {
    tokens: Vec<TokenTrivia<'a>>,
    /// Comments after the last significant token.
    pub end: Vec<Comment<'a>>,
}

impl<'a> Trivia<'a> {
    /// Attaches the comments of the tree over `text`. Heredoc bodies are
    /// verbatim and skipped.
    pub fn new(root: &SyntaxNode, text: &'a str) -> Trivia<'a> {
        let mut collector = Collector {
            text,
            trivia: Trivia::default(),
            newlines: 0,
            same_line: Vec::new(),
            own_line: Vec::new(),
        };
        let mut walk = root.preorder_with_tokens();
        while let Some(event) = walk.next() {
            let rowan::WalkEvent::Enter(element) = event else {
                continue;
            };
            match element {
                NodeOrToken::Node(node) if node.kind() == SyntaxKind::HEREDOC_BODY => {
                    // The body fills whole lines: the line breaks around it
                    // are one break of the code, not a blank line.
                    walk.skip_subtree();
                    collector.newlines = 0;
                }
                NodeOrToken::Node(_) => {}
                NodeOrToken::Token(token) => collector.token(&token),
            }
        }
        collector.finish()
    }

    fn index(&self, offset: TextSize) -> Option<usize> {
        self.tokens.binary_search_by_key(&offset, |t| t.offset).ok()
    }

    pub fn get(&self, token: &SyntaxToken) -> Option<&TokenTrivia<'a>> {
        self.index(token.text_range().start())
            .map(|i| &self.tokens[i])
    }

    /// The comments before a token, which are then no longer attached.
    pub fn take_leading(&mut self, token: &SyntaxToken) -> Vec<Comment<'a>> {
        match self.index(token.text_range().start()) {
            Some(i) => std::mem::take(&mut self.tokens[i].leading),
            None => Vec::new(),
        }
    }

    /// The own-line comments before a token (inline ones stay attached).
    pub fn take_own_line(&mut self, token: &SyntaxToken) -> Vec<Comment<'a>> {
        let Some(i) = self.index(token.text_range().start()) else {
            return Vec::new();
        };
        let leading = &mut self.tokens[i].leading;
        let inline_from = leading
            .iter()
            .position(|c| c.placement == Placement::Inline)
            .unwrap_or(leading.len());
        leading.drain(..inline_from).collect()
    }

    pub fn take_trailing(&mut self, token: &SyntaxToken) -> Vec<Comment<'a>> {
        match self.index(token.text_range().start()) {
            Some(i) => std::mem::take(&mut self.tokens[i].trailing),
            None => Vec::new(),
        }
    }

    pub fn newline_before(&self, token: &SyntaxToken) -> bool {
        self.get(token).is_some_and(|t| t.newline_before)
    }

    pub fn blank_before(&self, token: &SyntaxToken) -> bool {
        self.get(token).is_some_and(|t| t.blank_before)
    }

    /// Whether any comment is attached to the token.
    pub fn has_comments(&self, token: &SyntaxToken) -> bool {
        self.get(token)
            .is_some_and(|t| !t.leading.is_empty() || !t.trailing.is_empty())
    }
}

struct Collector<'a> {
    text: &'a str,
    trivia: Trivia<'a>,
    /// Line breaks since the last significant token or comment.
    newlines: usize,
    /// Comments on the line of the last significant token, so far.
    same_line: Vec<Comment<'a>>,
    /// Comments that began a line, waiting for the next token.
    own_line: Vec<Comment<'a>>,
}

impl<'a> Collector<'a> {
    fn token(&mut self, token: &SyntaxToken) {
        let kind = token.kind();
        match kind {
            SyntaxKind::WHITESPACE => {
                let breaks = token.text().matches('\n').count();
                if breaks > 0 {
                    self.end_line();
                }
                self.newlines += breaks;
            }
            SyntaxKind::COMMENT | SyntaxKind::BLOCK_COMMENT => self.comment(token),
            _ if kind.is_trivia() => {}
            _ => self.significant(token),
        }
    }

    /// A line break: comments on the previous token's line trail it.
    fn end_line(&mut self) {
        if self.same_line.is_empty() {
            return;
        }
        let comments = std::mem::take(&mut self.same_line);
        match self.trivia.tokens.last_mut() {
            Some(last) => last.trailing.extend(comments),
            None => self.own_line.extend(comments),
        }
    }

    fn comment(&mut self, token: &SyntaxToken) {
        let range = token.text_range();
        let raw = &self.text[usize::from(range.start())..usize::from(range.end())];
        let text = trim_line_ends(raw);
        let after_code = self.newlines == 0 && !self.trivia.tokens.is_empty();
        if after_code && self.own_line.is_empty() {
            self.same_line.push(Comment {
                text,
                placement: Placement::Trailing,
            });
        } else {
            self.own_line.push(Comment {
                text,
                placement: Placement::OwnLine {
                    blank_before: self.newlines >= 2,
                },
            });
        }
        self.newlines = 0;
    }

    fn significant(&mut self, token: &SyntaxToken) {
        let mut leading = std::mem::take(&mut self.own_line);
        if self.newlines == 0 {
            // Block comments with this token right after them on their line.
            if let Some(last) = leading.last_mut() {
                last.placement = Placement::Inline;
            }
            for mut comment in std::mem::take(&mut self.same_line) {
                comment.placement = Placement::Inline;
                leading.push(comment);
            }
        }
        let newline_before = self.newlines > 0;
        let blank_before = self.newlines >= 2;
        self.trivia.tokens.push(TokenTrivia {
            offset: token.text_range().start(),
            leading,
            trailing: Vec::new(),
            newline_before,
            blank_before,
        });
        self.newlines = 0;
    }

    fn finish(mut self) -> Trivia<'a> {
        self.end_line();
        self.trivia.end = std::mem::take(&mut self.own_line);
        self.trivia
    }
}

/// The comment without blanks at the end of any of its lines.
fn trim_line_ends(text: &str) -> std::borrow::Cow<'_, str> {
    let trim = |line: &str| line.trim_end_matches([' ', '\t', '\r']).len() != line.len();
    if !text.split('\n').any(trim) {
        return text.into();
    }
    text.split('\n')
        .map(|line| line.trim_end_matches([' ', '\t', '\r']))
        .collect::<Vec<_>>()
        .join("\n")
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use puppet_syntax::{parse, SourceKind};

    fn placements(text: &str) -> Vec<(String, String, Placement)> {
        let parse = parse(text, SourceKind::Manifest);
        let root = parse.syntax_node();
        let trivia = Trivia::new(&root, text);
        let mut out = Vec::new();
        for token in root
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
        {
            if let Some(t) = trivia.get(&token) {
                for c in t.leading.iter().chain(&t.trailing) {
                    out.push((token.text().to_string(), c.text.to_string(), c.placement));
                }
            }
        }
        for c in &trivia.end {
            out.push(("<end>".into(), c.text.to_string(), c.placement));
        }
        out
    }

    #[test]
    fn comments_trail_their_line_or_lead_the_next_token() {
        let found = placements("$a = 1 # one  \n\n# two\n$b = /* x */ 2 /* y */\n# end\n");
        assert_eq!(
            found,
            vec![
                ("1".into(), "# one".into(), Placement::Trailing),
                (
                    "$b".into(),
                    "# two".into(),
                    Placement::OwnLine { blank_before: true }
                ),
                ("2".into(), "/* x */".into(), Placement::Inline),
                ("2".into(), "/* y */".into(), Placement::Trailing),
                (
                    "<end>".into(),
                    "# end".into(),
                    Placement::OwnLine {
                        blank_before: false
                    }
                ),
            ]
        );
    }
}
