//! What every check reads: the text, its tree, its tokens in order, its
//! nodes by kind, and positions as puppet-lint counts them (1-based lines,
//! columns in characters).
//!
//! The tree is walked once, here; checks look nodes up by kind and share
//! the views several of them need (variables, definitions, resources),
//! computed on first use. That keeps linting a small part of a check.

pub(crate) mod definitions;
pub(crate) mod resources;
pub(crate) mod variables;
pub(crate) mod whitespace;

use crate::config::LintConfig;
use definitions::Definition;
use puppet_syntax::{NodeOrToken, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use resources::ResourceBody;
use std::cell::OnceCell;
use std::path::Path;
use variables::VariableRef;
use whitespace::BlankRun;

/// A token of the tree as the checks read it: kind, range and text, without
/// the cost of a rowan cursor (made on demand by `LintContext::syntax_token`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tok<'a> {
    kind: SyntaxKind,
    range: TextRange,
    text: &'a str,
}

impl<'a> Tok<'a> {
    pub fn kind(&self) -> SyntaxKind {
        self.kind
    }

    pub fn text_range(&self) -> TextRange {
        self.range
    }

    pub fn text(&self) -> &'a str {
        self.text
    }
}

/// The node kinds checks look up; only these are kept from the walk.
const INDEXED_KINDS: &[SyntaxKind] = &[
    SyntaxKind::ASSIGNMENT_EXPR,
    SyntaxKind::CASE_EXPR,
    SyntaxKind::CLASS_DEF,
    SyntaxKind::DEFINE_DEF,
    SyntaxKind::DQ_STRING_EXPR,
    SyntaxKind::HASH_EXPR,
    SyntaxKind::HOSTNAME,
    SyntaxKind::INTERPOLATION,
    SyntaxKind::LAMBDA,
    SyntaxKind::RESOURCE_EXPR,
    SyntaxKind::SELECTOR_EXPR,
    SyntaxKind::SQ_STRING_EXPR,
    SyntaxKind::VARIABLE_EXPR,
];

pub(crate) struct LintContext<'a> {
    pub text: &'a str,
    pub root: SyntaxNode,
    /// Every token of the tree, trivia included, in text order.
    pub tokens: Vec<Tok<'a>>,
    pub path: Option<&'a Path>,
    pub config: &'a LintConfig,
    lines: LineStarts,
    /// The nodes of the kinds checks look up (`INDEXED_KINDS`), by kind,
    /// each list in text order.
    nodes: Vec<Vec<SyntaxNode>>,
    variables: OnceCell<Vec<VariableRef<'a>>>,
    definitions: OnceCell<Vec<Definition>>,
    resources: OnceCell<Vec<ResourceBody>>,
    blank_runs: OnceCell<Vec<BlankRun>>,
}

impl<'a> LintContext<'a> {
    /// `root` is the tree of `text`.
    pub fn new(
        text: &'a str,
        root: SyntaxNode,
        path: Option<&'a Path>,
        config: &'a LintConfig,
    ) -> LintContext<'a> {
        let tokens = flat_tokens(&root, text);
        // Slot of each indexed kind, by raw kind.
        let mut slots = [usize::MAX; 512];
        for (slot, kind) in INDEXED_KINDS.iter().enumerate() {
            slots[*kind as usize] = slot;
        }
        let mut nodes = vec![Vec::new(); INDEXED_KINDS.len()];
        for node in root.descendants() {
            if let Some(list) = slots
                .get(node.kind() as usize)
                .and_then(|&slot| nodes.get_mut(slot))
            {
                list.push(node);
            }
        }
        LintContext {
            text,
            root,
            tokens,
            path,
            config,
            lines: LineStarts::new(text),
            nodes,
            variables: OnceCell::new(),
            definitions: OnceCell::new(),
            resources: OnceCell::new(),
            blank_runs: OnceCell::new(),
        }
    }

    /// Every variable reference, in text order.
    pub fn variables(&self) -> &[VariableRef<'a>] {
        self.variables
            .get_or_init(|| variables::variable_refs(self))
    }

    /// The variable references inside `range`.
    pub fn variables_within(&self, range: TextRange) -> &[VariableRef<'a>] {
        let all = self.variables();
        let from = all.partition_point(|v| v.range().start() < range.start());
        let to = all.partition_point(|v| v.range().start() < range.end());
        &all[from..to.max(from)]
    }

    /// Every class and defined type, in text order.
    pub fn definitions(&self) -> &[Definition] {
        self.definitions
            .get_or_init(|| definitions::definitions(self))
    }

    /// The runs of blanks between tokens, in text order.
    pub fn blank_runs(&self) -> &[BlankRun] {
        self.blank_runs.get_or_init(|| whitespace::blank_runs(self))
    }

    /// Every body of a resource declaration, in text order.
    pub fn resources(&self) -> &[ResourceBody] {
        self.resources
            .get_or_init(|| resources::resource_bodies(self))
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

    /// Index in `tokens` of the token starting at `offset` (or the last
    /// token starting before it).
    pub fn index_at(&self, offset: TextSize) -> usize {
        self.tokens
            .partition_point(|t| t.range.start() <= offset)
            .saturating_sub(1)
    }

    /// The rowan token for `token`, to reach its parents.
    pub fn syntax_token(&self, token: &Tok) -> Option<SyntaxToken> {
        self.root.covering_element(token.range).into_token()
    }

    /// The nearest token after `index` that is not trivia.
    pub fn next_code(&self, index: usize) -> Option<(usize, &Tok<'a>)> {
        self.tokens
            .iter()
            .enumerate()
            .skip(index + 1)
            .find(|(_, t)| !t.kind().is_trivia())
    }

    /// The first token that is not trivia, starting at `offset`.
    pub fn code_at_or_after(&self, offset: TextSize) -> Option<(usize, &Tok<'a>)> {
        let index = self.tokens.partition_point(|t| t.range.start() < offset);
        self.tokens
            .iter()
            .enumerate()
            .skip(index)
            .find(|(_, t)| !t.kind().is_trivia())
    }

    /// The nearest token before `index` that is not trivia.
    pub fn prev_code(&self, index: usize) -> Option<(usize, &Tok<'a>)> {
        self.tokens[..index.min(self.tokens.len())]
            .iter()
            .enumerate()
            .rev()
            .find(|(_, t)| !t.kind().is_trivia())
    }

    /// The nodes of `kind`, one of `INDEXED_KINDS`, in text order.
    fn indexed(&self, kind: SyntaxKind) -> &[SyntaxNode] {
        let slot = INDEXED_KINDS.iter().position(|&k| k == kind);
        debug_assert!(slot.is_some(), "{kind:?} is not in INDEXED_KINDS");
        slot.map_or(&[], |slot| &self.nodes[slot])
    }

    /// Nodes of `kind` (one of `INDEXED_KINDS`) anywhere in the file, in
    /// text order.
    pub fn nodes(&self, kind: SyntaxKind) -> impl Iterator<Item = SyntaxNode> + '_ {
        self.indexed(kind).iter().cloned()
    }

    /// Nodes of `kind` (one of `INDEXED_KINDS`) inside `range`, in text
    /// order.
    pub fn nodes_within(
        &self,
        kind: SyntaxKind,
        range: TextRange,
    ) -> impl Iterator<Item = SyntaxNode> + '_ {
        let all = self.indexed(kind);
        let from = all.partition_point(|n| n.text_range().start() < range.start());
        all[from..]
            .iter()
            .take_while(move |n| n.text_range().start() < range.end())
            .filter(move |n| range.contains_range(n.text_range()))
            .cloned()
    }

    /// Tokens of `kind` anywhere in the file.
    pub fn tokens_of(&self, kind: SyntaxKind) -> impl Iterator<Item = &Tok<'a>> + '_ {
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

/// The tokens under `root`, read from the green tree (no cursor per token).
fn flat_tokens<'a>(root: &SyntaxNode, text: &'a str) -> Vec<Tok<'a>> {
    let green = root.green();
    let mut tokens = Vec::with_capacity(text.len() / 4);
    let mut offset = root.text_range().start();
    let mut stack = vec![green.children()];
    while let Some(children) = stack.last_mut() {
        match children.next() {
            None => {
                stack.pop();
            }
            Some(NodeOrToken::Node(node)) => stack.push(node.children()),
            Some(NodeOrToken::Token(token)) => {
                let range = TextRange::at(offset, token.text_len());
                offset = range.end();
                tokens.push(Tok {
                    kind: SyntaxKind::from_raw(token.kind().0),
                    range,
                    text: text
                        .get(usize::from(range.start())..usize::from(range.end()))
                        .unwrap_or(""),
                });
            }
        }
    }
    tokens
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
        for at in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if bytes[at] == b'\n' || bytes.get(at + 1) != Some(&b'\n') {
                starts.push(at + 1);
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
