//! A hand-written recursive-descent parser that builds the rowan tree
//! directly.
//!
//! The parser walks the significant tokens only; trivia and heredoc bodies
//! are emitted into the tree wherever they stand in the text, just before the
//! next node or token is started. Heredoc bodies get their own nodes, parsed
//! by a nested parser over their token range (they may hold interpolations).
//! Every loop consumes a token or exits, nesting is capped, and the tree
//! always covers every token, so any input gives a lossless tree.

mod definitions;
mod expressions;
mod fragment;
mod resources;

use crate::lexer::{Lexed, SourceKind, Token};
use crate::syntax_kind::SyntaxKind::{self, *};
use crate::Code;
use crate::{SyntaxError, TextRange};
pub(crate) use expressions::STATEMENT_CALLS as STATEMENT_CALL_NAMES;
pub(crate) use fragment::parse_fragment;
use rowan::{Checkpoint, GreenNode, GreenNodeBuilder};
use std::ops::Range;

/// Nesting deeper than this is reported once and skipped, so hostile input
/// (100,000 `[`) cannot overflow the stack.
const MAX_DEPTH: u32 = 1000;

/// The height a node built by wrapping (`a + b + ...`, `x.f.g...`, `a -> b
/// -> ...`) may reach. Long chains build deep trees iteratively, but
/// dropping a tree recurses over its height, so it is capped. The check
/// looks only at the wrapped subtree, so a fragment reparsed on its own
/// decides the same way as in its file.
const MAX_HEIGHT: u32 = 2000;

/// A place where a node may later start, wrapping what was built since.
#[derive(Clone, Copy)]
pub(crate) struct Marker {
    builder: Checkpoint,
    heights: usize,
}

pub(crate) fn parse(text: &str, lexed: &Lexed, kind: SourceKind) -> (GreenNode, Vec<SyntaxError>) {
    let offsets = token_offsets(lexed);
    let mut p = Parser::for_whole(text, lexed, &offsets);
    p.builder.start_node(SOURCE_FILE.into());
    if kind == SourceKind::Template {
        definitions::epp_parameters(&mut p);
    }
    expressions::statements(&mut p, false);
    p.flush_trivia_to(p.range.end);
    p.builder.finish_node();
    let errors = p.errors;
    (p.builder.finish(), errors)
}

/// The start offset of every token, plus the end of the text.
fn token_offsets(lexed: &Lexed) -> Vec<u32> {
    let mut offsets = Vec::with_capacity(lexed.tokens.len() + 1);
    let mut offset = 0u32;
    for token in &lexed.tokens {
        offsets.push(offset);
        offset += token.len;
    }
    offsets.push(offset);
    offsets
}

/// What all (nested) parsers share: the input and the lexer's output.
#[derive(Clone, Copy)]
struct Shared<'t> {
    text: &'t str,
    tokens: &'t [Token],
    offsets: &'t [u32],
    bodies: &'t [Range<usize>],
}

pub(crate) struct Parser<'t> {
    shared: Shared<'t>,
    /// The raw token range this parser covers.
    range: Range<usize>,
    /// Raw indices of the significant tokens in `range` (no trivia, no
    /// heredoc bodies).
    significant: Vec<usize>,
    /// Position in `significant`.
    cursor: usize,
    /// Next raw token to put into the tree.
    emitted: usize,
    builder: GreenNodeBuilder<'static>,
    errors: Vec<SyntaxError>,
    depth: u32,
    /// The heredoc body this parser parses (its own start is not a nested body).
    own_body: Option<usize>,
    /// Set once the nesting limit has been reported.
    too_deep_reported: bool,
    /// At the start of `${...}`: a leading name, number or keyword is a
    /// variable (`${type}` is `$type`), as Puppet's lexer rewrites it.
    pub(crate) interpolated_name_is_variable: bool,
    /// Heights of the finished child nodes of the open nodes, flattened.
    heights: Vec<u32>,
    /// For each open node, where its children start in `heights`.
    open: Vec<usize>,
}

impl<'t> Parser<'t> {
    /// A parser over all of a lexed text (`offsets` from `token_offsets`).
    fn for_whole(text: &'t str, lexed: &'t Lexed, offsets: &'t [u32]) -> Parser<'t> {
        let shared = Shared {
            text,
            tokens: &lexed.tokens,
            offsets,
            bodies: &lexed.heredoc_bodies,
        };
        Parser::new(
            shared,
            0..lexed.tokens.len(),
            GreenNodeBuilder::new(),
            0,
            None,
        )
    }

    fn new(
        shared: Shared<'t>,
        range: Range<usize>,
        builder: GreenNodeBuilder<'static>,
        depth: u32,
        own_body: Option<usize>,
    ) -> Parser<'t> {
        let mut significant = Vec::new();
        let mut i = range.start;
        while i < range.end {
            if let Some(body) = shared.body_starting_at(i).filter(|_| Some(i) != own_body) {
                i = body.end.max(i + 1);
                continue;
            }
            if !shared.tokens[i].kind.is_trivia() {
                significant.push(i);
            }
            i += 1;
        }
        Parser {
            shared,
            emitted: range.start,
            range,
            significant,
            cursor: 0,
            builder,
            errors: Vec::new(),
            depth,
            own_body,
            too_deep_reported: false,
            interpolated_name_is_variable: false,
            heights: Vec::new(),
            open: Vec::new(),
        }
    }

    // ----- looking at tokens -----

    pub(crate) fn nth(&self, n: usize) -> SyntaxKind {
        self.significant
            .get(self.cursor + n)
            .map_or(EOF, |&i| self.shared.tokens[i].kind)
    }

    pub(crate) fn current(&self) -> SyntaxKind {
        self.nth(0)
    }

    pub(crate) fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == kind
    }

    pub(crate) fn at_any(&self, kinds: &[SyntaxKind]) -> bool {
        kinds.contains(&self.current())
    }

    pub(crate) fn nth_text(&self, n: usize) -> &'t str {
        match self.significant.get(self.cursor + n) {
            Some(&i) => self.shared.token_text(i),
            None => "",
        }
    }

    /// The range of the current token. At the end of input: empty, just
    /// after the last significant token, where people see it (not on the
    /// empty line after the file's final newline).
    pub(crate) fn current_range(&self) -> TextRange {
        match self.significant.get(self.cursor) {
            Some(&i) => self.shared.token_range(i),
            None => match self.significant.last() {
                Some(&last) => TextRange::empty(self.shared.token_range(last).end()),
                None => TextRange::empty(self.shared.offsets[self.range.end].into()),
            },
        }
    }

    /// Whether the current EPP text and the next one are one string for
    /// Puppet: only template comments (and text trimmed away) stand between.
    pub(crate) fn next_text_continues(&self) -> bool {
        let (Some(&here), Some(&next)) = (
            self.significant.get(self.cursor),
            self.significant.get(self.cursor + 1),
        ) else {
            return false;
        };
        let tokens = self.shared.tokens;
        tokens[here].kind == EPP_TEXT
            && tokens[next].kind == EPP_TEXT
            && tokens[here + 1..next]
                .iter()
                .all(|t| matches!(t.kind, EPP_COMMENT | EPP_TRIMMED_TEXT))
    }

    /// Whether the current token starts its line, without indentation.
    pub(crate) fn at_line_start(&self) -> bool {
        let Some(&i) = self.significant.get(self.cursor) else {
            return false;
        };
        let start = self.shared.offsets[i] as usize;
        start == 0 || self.shared.text.as_bytes()[start - 1] == b'\n'
    }

    /// Whether some `{` before the current token can never be closed: more
    /// braces are open before it than close after it. O(tokens), so only
    /// for rare decisions (recovering from a missing `}`).
    pub(crate) fn unclosed_brace_before(&self) -> bool {
        let balance = |indices: &[usize]| {
            indices
                .iter()
                .map(|&i| match self.shared.tokens[i].kind {
                    L_BRACE => 1i64,
                    R_BRACE => -1,
                    _ => 0,
                })
                .sum::<i64>()
        };
        let (before, after) = self
            .significant
            .split_at(self.cursor.min(self.significant.len()));
        balance(before) > -balance(after)
    }

    // ----- building -----

    /// Puts trivia and heredoc bodies before raw index `until` into the tree.
    fn flush_trivia_to(&mut self, until: usize) {
        while self.emitted < until {
            let i = self.emitted;
            if let Some(body) = self
                .shared
                .body_starting_at(i)
                .filter(|_| Some(i) != self.own_body)
            {
                self.heredoc_body(body.clone());
                continue;
            }
            let token = self.shared.tokens[i];
            self.builder
                .token(token.kind.into(), self.shared.token_text(i));
            self.emitted += 1;
        }
    }

    /// Puts the trivia before the current token into the tree, before a
    /// node starts there. A definition keeps the comment block right above
    /// it (no blank line between): its documentation, as puppet-strings
    /// reads it.
    fn flush_trivia(&mut self) {
        let until = self
            .significant
            .get(self.cursor)
            .copied()
            .unwrap_or(self.range.end);
        let until = if self.at_definition() {
            self.doc_comment_start(until)
        } else {
            until
        };
        self.flush_trivia_to(until);
    }

    fn at_definition(&self) -> bool {
        match self.current() {
            CLASS_KW => self.nth(1) != L_BRACE,
            DEFINE_KW | FUNCTION_KW | NODE_KW => true,
            TYPE_KW => self.nth(1) == TYPE_REF,
            _ => false,
        }
    }

    /// The first token of the comment block that ends just before raw
    /// index `until`, or `until` when there is none.
    fn doc_comment_start(&self, until: usize) -> usize {
        let mut start = until;
        let mut i = until;
        while i > self.emitted {
            let token = self.shared.tokens[i - 1];
            match token.kind {
                COMMENT => start = i - 1,
                WHITESPACE if self.shared.token_text(i - 1).matches('\n').count() <= 1 => {}
                _ => break,
            }
            i -= 1;
        }
        start
    }

    /// Parses a heredoc body's tokens into a `HEREDOC_BODY` node.
    fn heredoc_body(&mut self, body: Range<usize>) {
        let end = body.end;
        let builder = std::mem::take(&mut self.builder);
        let mut sub = Parser::new(
            self.shared,
            body.clone(),
            builder,
            self.depth + 1,
            Some(body.start),
        );
        sub.start_node(HEREDOC_BODY);
        loop {
            match sub.current() {
                EOF => break,
                DOLLAR_BRACE | VARIABLE => expressions::interpolation(&mut sub),
                _ => sub.bump(),
            }
        }
        sub.flush_trivia_to(sub.range.end);
        sub.finish_node();
        self.heights.extend(sub.heights.last());
        self.builder = sub.builder;
        self.errors.extend(sub.errors);
        self.emitted = end;
    }

    pub(crate) fn bump(&mut self) {
        self.bump_as(self.current());
    }

    /// Consumes the current token, recording it with `kind`.
    pub(crate) fn bump_as(&mut self, kind: SyntaxKind) {
        let Some(&i) = self.significant.get(self.cursor) else {
            return;
        };
        self.flush_trivia_to(i);
        self.builder.token(kind.into(), self.shared.token_text(i));
        self.emitted = i + 1;
        self.cursor += 1;
    }

    /// Consumes the token if it has the kind.
    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes the token if it has the kind, else reports what was expected.
    pub(crate) fn expect(&mut self, kind: SyntaxKind, context: &str) -> bool {
        if self.eat(kind) {
            return true;
        }
        self.error_expected(kind.describe(), context);
        false
    }

    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.flush_trivia();
        self.builder.start_node(kind.into());
        self.open.push(self.heights.len());
    }

    pub(crate) fn checkpoint(&mut self) -> Marker {
        self.flush_trivia();
        Marker {
            builder: self.builder.checkpoint(),
            heights: self.heights.len(),
        }
    }

    pub(crate) fn start_node_at(&mut self, marker: Marker, kind: SyntaxKind) {
        self.builder.start_node_at(marker.builder, kind.into());
        self.open.push(marker.heights);
    }

    pub(crate) fn finish_node(&mut self) {
        self.builder.finish_node();
        let start = self
            .open
            .pop()
            .unwrap_or(self.heights.len())
            .min(self.heights.len());
        let height = 1 + self.heights[start..].iter().copied().max().unwrap_or(0);
        self.heights.truncate(start);
        self.heights.push(height);
    }

    /// Whether a node may start at `marker`, wrapping what was built since,
    /// without exceeding `MAX_HEIGHT`. When not, reports it once and skips
    /// the rest of the construct.
    pub(crate) fn can_wrap(&mut self, marker: Marker) -> bool {
        let start = marker.heights.min(self.heights.len());
        let height = 1 + self.heights[start..].iter().copied().max().unwrap_or(0);
        if height <= MAX_HEIGHT {
            return true;
        }
        if !self.too_deep_reported {
            self.too_deep_reported = true;
            self.errors.push(SyntaxError::error(
                self.current_range(),
                format!("expression too long: it nests more than {MAX_HEIGHT} operations"),
                Code::NestingTooDeep,
            ));
        }
        self.skip_balanced();
        false
    }

    // ----- errors -----

    pub(crate) fn error_at(&mut self, range: TextRange, message: impl Into<String>) {
        self.errors
            .push(SyntaxError::error(range, message, Code::SyntaxError));
    }

    pub(crate) fn error(&mut self, message: impl Into<String>) {
        let range = self.current_range();
        self.error_at(range, message);
    }

    /// "expected X in Y, found Z" at the current token.
    pub(crate) fn error_expected(&mut self, expected: &str, context: &str) {
        let found = self.found();
        self.error(format!("expected {expected} {context}, found {found}"));
    }

    /// How the current token reads in a message.
    pub(crate) fn found(&self) -> String {
        match self.current() {
            EOF => "end of input".to_string(),
            kind => {
                let text = self.nth_text(0);
                if text.len() <= 40 && !text.contains('\n') {
                    format!("'{text}'")
                } else {
                    kind.describe().to_string()
                }
            }
        }
    }

    /// Wraps the current token in an `ERROR` node with a message.
    pub(crate) fn error_and_bump(&mut self, message: impl Into<String>) {
        self.error(message);
        if self.at(EOF) {
            return;
        }
        self.start_node(ERROR);
        self.bump();
        self.finish_node();
    }

    // ----- nesting -----

    /// Enters one level of nesting; false (after skipping the deep part) when
    /// the limit is reached.
    pub(crate) fn enter(&mut self) -> bool {
        if self.depth < MAX_DEPTH {
            self.depth += 1;
            return true;
        }
        if !self.too_deep_reported {
            self.too_deep_reported = true;
            self.errors.push(SyntaxError::error(
                self.current_range(),
                "expression nested too deeply".to_string(),
                Code::NestingTooDeep,
            ));
        }
        self.skip_balanced();
        false
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Skips tokens into an `ERROR` node until the brackets opened here close
    /// one level further out (or the input ends).
    fn skip_balanced(&mut self) {
        self.start_node(ERROR);
        let mut balance = 0i64;
        loop {
            match self.current() {
                EOF => break,
                L_BRACK | L_BRACK_LIST | L_PAREN | L_PAREN_WS | L_BRACE | DOLLAR_BRACE => {
                    balance += 1
                }
                R_BRACK | R_PAREN | R_BRACE | INTERP_CLOSE => {
                    if balance == 0 {
                        break;
                    }
                    balance -= 1;
                }
                _ => {}
            }
            self.bump();
        }
        self.finish_node();
    }
}

impl<'t> Shared<'t> {
    fn token_text(&self, i: usize) -> &'t str {
        &self.text[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    fn token_range(&self, i: usize) -> TextRange {
        TextRange::new(self.offsets[i].into(), self.offsets[i + 1].into())
    }

    fn body_starting_at(&self, i: usize) -> Option<&'t Range<usize>> {
        let at = self.bodies.partition_point(|b| b.start < i);
        self.bodies
            .get(at)
            .filter(|b| b.start == i && b.end > b.start)
    }
}
