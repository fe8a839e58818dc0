//! From the syntax tree to the layout document.
//!
//! One `Builder` walks the tree. Significant tokens are emitted through
//! `token` (or `dropped` for the commas and semicolons the style adds or
//! removes), which also emits the comments attached to them (`trivia.rs`),
//! so a comment is never lost whatever construct it sits in. Constructs
//! with a layout of their own have a module each; everything else is a
//! sequence of parts with single spaces or none between them (`spacing`).

mod expressions;
mod lists;
mod resources;
mod statements;
mod strings;

use crate::doc::{DocId, Docs};
use crate::trivia::{Comment, Placement, Trivia};
use puppet_syntax::SyntaxKind::{self, *};
use puppet_syntax::{NodeOrToken, SyntaxElement, SyntaxNode, SyntaxToken, TextSize};
use std::collections::HashMap;

/// How deeply nested a tree may be to be formatted: each level costs a few
/// stack frames, and the formatter must not overflow a 2 MiB thread stack.
pub const MAX_NESTING: u32 = 400;

pub struct Builder<'a> {
    pub docs: Docs<'a>,
    text: &'a str,
    trivia: Trivia<'a>,
    /// Heredoc header offset -> its body's text (lines and end tag).
    heredoc_bodies: HashMap<TextSize, &'a str>,
    depth: u32,
    /// Set when the tree nests deeper than `MAX_NESTING`.
    pub too_deep: bool,
}

impl<'a> Builder<'a> {
    pub fn new(root: &SyntaxNode, text: &'a str) -> Builder<'a> {
        Builder {
            docs: Docs::default(),
            text,
            trivia: Trivia::new(root, text),
            heredoc_bodies: heredoc_bodies(root, text),
            depth: 0,
            too_deep: false,
        }
    }

    /// The document of a whole file.
    pub fn source_file(&mut self, root: &SyntaxNode) -> DocId {
        statements::source_file(self, root)
    }

    fn source(&self, range: puppet_syntax::TextRange) -> &'a str {
        &self.text[usize::from(range.start())..usize::from(range.end())]
    }

    // ----- nodes -----

    /// The document of any node.
    fn node(&mut self, node: &SyntaxNode) -> DocId {
        if self.depth >= MAX_NESTING {
            self.too_deep = true;
            return self.docs.nil();
        }
        self.depth += 1;
        let doc = match node.kind() {
            SOURCE_FILE => statements::source_file(self, node),
            BLOCK => statements::block(self, node),
            CASE_EXPR => statements::case(self, node),
            BINARY_EXPR => expressions::binary_chain(self, node),
            RELATIONSHIP_EXPR => expressions::relationship_chain(self, node),
            SELECTOR_EXPR => expressions::selector(self, node),
            STATEMENT_CALL => expressions::statement_call(self, node),
            NODE_MATCHERS => expressions::comma_separated(self, node),
            DQ_STRING_EXPR => strings::double_quoted(self, node),
            ARRAY_EXPR => lists::array(self, node),
            HASH_EXPR => lists::hash(self, node),
            ARG_LIST => lists::arg_list(self, node),
            PARAM_LIST => lists::parameters(self, node),
            RESOURCE_EXPR => resources::resource(self, node),
            RESOURCE_DEFAULTS | RESOURCE_OVERRIDE | COLLECTOR => {
                resources::attribute_block(self, node)
            }
            _ => self.sequence(node),
        };
        self.depth -= 1;
        doc
    }

    fn element(&mut self, element: &SyntaxElement) -> DocId {
        match element {
            NodeOrToken::Node(node) => self.node(node),
            NodeOrToken::Token(token) => self.token(token),
        }
    }

    /// The parts of a node with single spaces or none between them.
    fn sequence(&mut self, node: &SyntaxNode) -> DocId {
        let parts = parts(node);
        self.spaced(node.kind(), &parts)
    }

    /// `parts` (children of a `parent` node) with the spaces `spacing`
    /// puts between them.
    fn spaced(&mut self, parent: SyntaxKind, parts: &[SyntaxElement]) -> DocId {
        let mut docs = Vec::with_capacity(parts.len() * 2);
        let mut previous: Option<SyntaxKind> = None;
        for part in parts {
            if let Some(left) = previous {
                if spacing::space_between(parent, left, part.kind()) {
                    docs.push(self.docs.text(" "));
                }
            }
            docs.push(self.element(part));
            previous = Some(part.kind());
        }
        self.docs.concat(docs)
    }

    // ----- tokens and their comments -----

    /// A token as it stands in the source, with its comments.
    fn token(&mut self, token: &SyntaxToken) -> DocId {
        let text = self.source(token.text_range());
        self.token_as(token, text)
    }

    /// A token printed as `text`, with its comments (and, for a heredoc
    /// header, its body).
    fn token_as(&mut self, token: &SyntaxToken, text: &'a str) -> DocId {
        let leading = self.trivia.take_leading(token);
        let trailing = self.trivia.take_trailing(token);
        let mut docs = self.leading_comments(leading);
        docs.push(self.docs.text(text));
        if token.kind() == HEREDOC_HEADER {
            if let Some(body) = self.heredoc_bodies.get(&token.text_range().start()) {
                docs.push(self.docs.heredoc_body(*body));
            }
        }
        docs.extend(self.trailing_comments(trailing));
        self.docs.concat(docs)
    }

    /// The comments of a token the style leaves out (a comma, a
    /// semicolon): own-line comments, then trailing ones.
    fn dropped(&mut self, token: &SyntaxToken) -> DocId {
        let leading = self.trivia.take_leading(token);
        let trailing = self.trivia.take_trailing(token);
        let mut docs = self.leading_comments(leading);
        docs.extend(self.trailing_comments(trailing));
        self.docs.concat(docs)
    }

    /// Own-line comments each on a line of their own (starting one if
    /// needed); inline block comments followed by a space.
    fn leading_comments(&mut self, comments: Vec<Comment<'a>>) -> Vec<DocId> {
        let mut docs = Vec::new();
        for comment in comments {
            match comment.placement {
                Placement::Inline => {
                    docs.push(self.docs.text(comment.text));
                    docs.push(self.docs.text(" "));
                }
                Placement::OwnLine { .. } | Placement::Trailing => {
                    docs.push(self.docs.line_start());
                    docs.push(self.docs.text(comment.text));
                    docs.push(self.docs.hard_line());
                }
            }
        }
        docs
    }

    /// Own-line comments in a vertical list (statements, attributes,
    /// entries): at the start of a line, keeping one blank line above a
    /// comment that had one (`keep_blank` false for the first in a list).
    fn comment_lines(&mut self, comments: Vec<Comment<'a>>, keep_blank: bool) -> Vec<DocId> {
        let mut docs = self.closing_comment_lines(comments, keep_blank);
        if !docs.is_empty() {
            docs.push(self.docs.hard_line());
        }
        docs
    }

    /// `comment_lines` without the line break after the last comment, for
    /// comments before a closing bracket (which starts its own line).
    fn closing_comment_lines(
        &mut self,
        comments: Vec<Comment<'a>>,
        mut keep_blank: bool,
    ) -> Vec<DocId> {
        let mut docs = Vec::new();
        for comment in comments {
            match comment.placement {
                Placement::Inline => {
                    docs.push(self.docs.text(comment.text));
                    docs.push(self.docs.text(" "));
                }
                Placement::OwnLine { blank_before } => {
                    docs.push(self.docs.line_start());
                    if keep_blank && blank_before {
                        docs.push(self.docs.hard_line());
                    }
                    docs.push(self.docs.text(comment.text));
                }
                Placement::Trailing => {
                    docs.push(self.docs.line_start());
                    docs.push(self.docs.text(comment.text));
                }
            }
            keep_blank = true;
        }
        docs
    }

    fn trailing_comments(&mut self, comments: Vec<Comment<'a>>) -> Vec<DocId> {
        comments
            .into_iter()
            .map(|comment| self.docs.line_suffix(comment.text))
            .collect()
    }

    /// Whether comments stand anywhere among the tokens of `node`'s own
    /// parts (not inside child nodes): then its list must break.
    fn has_own_comments(&self, node: &SyntaxNode) -> bool {
        node.children_with_tokens().any(|element| match element {
            NodeOrToken::Token(token) => self.trivia.has_comments(&token),
            NodeOrToken::Node(node) => first_token(&node)
                .is_some_and(|t| self.trivia.get(&t).is_some_and(|t| !t.leading.is_empty())),
        })
    }
}

/// The children of a node that print: significant tokens and nodes,
/// without trivia and heredoc bodies (printed with their headers).
fn parts(node: &SyntaxNode) -> Vec<SyntaxElement> {
    node.children_with_tokens()
        .filter(|element| match element {
            NodeOrToken::Token(token) => !token.kind().is_trivia(),
            NodeOrToken::Node(node) => node.kind() != HEREDOC_BODY,
        })
        .collect()
}

/// The first significant token of a node or token.
fn first_token_of(element: &SyntaxElement) -> Option<SyntaxToken> {
    match element {
        NodeOrToken::Token(token) => Some(token.clone()),
        NodeOrToken::Node(node) => first_token(node),
    }
}

/// The first significant token under a node.
fn first_token(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| !t.kind().is_trivia())
}

/// The text of each heredoc body, by the offset of its header: the n-th
/// body belongs to the n-th header.
fn heredoc_bodies<'a>(root: &SyntaxNode, text: &'a str) -> HashMap<TextSize, &'a str> {
    let mut headers = Vec::new();
    let mut bodies = Vec::new();
    for element in root.descendants_with_tokens() {
        match element {
            NodeOrToken::Token(token) if token.kind() == HEREDOC_HEADER => {
                headers.push(token.text_range().start())
            }
            NodeOrToken::Node(node) if node.kind() == HEREDOC_BODY => {
                let range = node.text_range();
                bodies.push(&text[usize::from(range.start())..usize::from(range.end())]);
            }
            _ => {}
        }
    }
    headers.into_iter().zip(bodies).collect()
}

mod spacing {
    use puppet_syntax::SyntaxKind::{self, *};

    /// Whether a space separates two adjacent parts of a `parent` node
    /// printed as a plain sequence.
    pub fn space_between(parent: SyntaxKind, left: SyntaxKind, right: SyntaxKind) -> bool {
        if matches!(parent, HOSTNAME | UNARY_EXPR) {
            return false;
        }
        match (left, right) {
            (AT | ATAT, AT | ATAT) => true,
            (_, COMMA | COLON | SEMICOLON | R_PAREN | R_BRACK | DOT | ARG_LIST) => false,
            (DOT | L_PAREN | L_PAREN_WS | L_BRACK | L_BRACK_LIST | AT | ATAT, _) => false,
            (STAR, VARIABLE) if parent == PARAM => false,
            (_, PARAM_LIST) => parent != FUNCTION_DEF,
            _ => true,
        }
    }
}
