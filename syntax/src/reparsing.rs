//! Incremental reparsing: applying one text edit to a parse, reusing the
//! unchanged parts of the tree.
//!
//! Three strategies, cheapest first, as rust-analyzer does:
//! 1. relex one token (a name, variable, number, whitespace, comment or
//!    simple string) when the edited text is still exactly one token of the
//!    same kind that merges with neither neighbour;
//! 2. reparse the smallest enclosing block, hash or resource expression
//!    whose braces still balance, and splice it in;
//! 3. parse the whole text again.
//!
//! Each strategy refuses whenever it cannot prove it gives exactly what a
//! full parse would (the differential tests check that promise).

use crate::lexer::{lex, SourceKind};
use crate::parser::{self, STATEMENT_CALL_NAMES};
use crate::syntax_kind::SyntaxKind::{self, *};
use crate::syntax_kind::{SyntaxNode, SyntaxToken};
use crate::{Parse, SyntaxError, TextRange, TextSize};

/// Replace the text in `delete` by `insert`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub delete: TextRange,
    pub insert: String,
}

impl TextEdit {
    pub fn replace(delete: TextRange, insert: impl Into<String>) -> TextEdit {
        TextEdit {
            delete,
            insert: insert.into(),
        }
    }

    /// Applies the edit to a string (the range is clamped to the text and to
    /// character boundaries).
    pub fn apply(&self, text: &str) -> String {
        let (start, end) = self.clamped(text);
        let mut out = String::with_capacity(text.len() + self.insert.len());
        out.push_str(&text[..start]);
        out.push_str(&self.insert);
        out.push_str(&text[end..]);
        out
    }

    pub(crate) fn clamped(&self, text: &str) -> (usize, usize) {
        let clamp = |offset: TextSize| {
            let mut o = (u32::from(offset) as usize).min(text.len());
            while !text.is_char_boundary(o) {
                o -= 1;
            }
            o
        };
        let start = clamp(self.delete.start());
        let end = clamp(self.delete.end()).max(start);
        (start, end)
    }

    /// How much the edit moves text after it.
    fn delta(&self) -> i64 {
        self.insert.len() as i64 - i64::from(u32::from(self.delete.len()))
    }
}

/// Which strategy produced a reparse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReparseStrategy {
    Token,
    Block,
    Full,
}

/// Kinds of token whose text can change without affecting the parse,
/// provided the kind stays the same.
const RELEXABLE: &[SyntaxKind] = &[
    NAME, WORD, VARIABLE, NUMBER, WHITESPACE, COMMENT, SQ_STRING, TYPE_REF,
];

/// Node kinds that can be reparsed on their own.
const REPARSABLE_NODES: &[SyntaxKind] = &[
    BLOCK,
    HASH_EXPR,
    RESOURCE_EXPR,
    RESOURCE_DEFAULTS,
    RESOURCE_OVERRIDE,
];

impl Parse {
    /// The parse of the text after `edit`, reusing what did not change.
    pub fn reparse(&self, edit: &TextEdit) -> Parse {
        self.reparse_with_strategy(edit).0
    }

    /// Like `reparse`, also telling which strategy was used.
    pub fn reparse_with_strategy(&self, edit: &TextEdit) -> (Parse, ReparseStrategy) {
        let root = self.syntax_node();
        let len = root.text_range().end();
        let in_bounds = edit.delete.end() <= len && edit.delete.start() <= edit.delete.end();
        // A `/` after a pending regex start turns that division into a regex
        // that may reach far: only a full parse knows.
        let regex_hazard = edit.insert.contains('/')
            && self
                .pending_regex_start
                .is_some_and(|at| at <= edit.delete.start());
        if in_bounds && !regex_hazard {
            if let Some(parse) = self.relex_token(&root, edit) {
                return (parse, ReparseStrategy::Token);
            }
            if self.kind == SourceKind::Manifest {
                if let Some(parse) = self.reparse_block(&root, edit) {
                    return (parse, ReparseStrategy::Block);
                }
            }
        }
        let text = edit.apply(&root.text().to_string());
        (crate::parse(&text, self.kind), ReparseStrategy::Full)
    }

    fn relex_token(&self, root: &SyntaxNode, edit: &TextEdit) -> Option<Parse> {
        let candidates: Vec<SyntaxToken> = if edit.delete.is_empty() {
            // `covering_element` searches children by binary search, unlike
            // `token_at_offset`, which walks every child of every level.
            let offset = edit.delete.start();
            match root.covering_element(edit.delete) {
                rowan::NodeOrToken::Token(t) => {
                    let range = t.text_range();
                    let mut tokens = Vec::with_capacity(2);
                    if range.start() == offset {
                        tokens.extend(t.prev_token());
                    }
                    let next = (range.end() == offset).then(|| t.next_token()).flatten();
                    tokens.push(t);
                    tokens.extend(next);
                    tokens
                }
                rowan::NodeOrToken::Node(_) => Vec::new(),
            }
        } else {
            match root.covering_element(edit.delete) {
                rowan::NodeOrToken::Token(t) => vec![t],
                rowan::NodeOrToken::Node(_) => Vec::new(),
            }
        };
        candidates
            .into_iter()
            .find_map(|token| self.try_relex(&token, edit))
    }

    fn try_relex(&self, token: &SyntaxToken, edit: &TextEdit) -> Option<Parse> {
        let kind = token.kind();
        if !RELEXABLE.contains(&kind) {
            return None;
        }
        // Tokens in strings, interpolations and heredocs live in other
        // lexer modes.
        if token
            .parent_ancestors()
            .any(|n| matches!(n.kind(), DQ_STRING_EXPR | INTERPOLATION | HEREDOC_BODY))
        {
            return None;
        }
        let range = token.text_range();
        // An error touching the token may quote its text.
        if self.error_touches(range) {
            return None;
        }
        let relative = TextEdit::replace(edit.delete - range.start(), edit.insert.clone());
        let new_text = relative.apply(token.text());
        if new_text.is_empty() {
            return None;
        }
        // Some names steer the parser: statement calls, `plan`, `apply`.
        if kind == NAME
            && [token.text(), new_text.as_str()]
                .iter()
                .any(|t| steers_parser(t))
        {
            return None;
        }
        // Line breaks decide `(` and `[` kinds and where heredoc text starts.
        let breaks = |t: &str| t.bytes().filter(|&b| b == b'\n' || b == b'\r').count();
        if breaks(token.text()) != breaks(&new_text) {
            return None;
        }
        let prev = token.prev_token();
        let next = token.next_token();
        if next
            .as_ref()
            .is_some_and(|n| matches!(n.kind(), HEREDOC_TEXT | HEREDOC_END))
            || prev.as_ref().is_some_and(|p| p.kind() == HEREDOC_END)
        {
            return None;
        }
        // Lex the new token between its neighbours (two on the right: a
        // number looks past a `.`): it must stay one token of the same kind,
        // and the neighbours must keep their lengths.
        let after_next = next.as_ref().and_then(|n| n.next_token());
        let neighbour =
            |t: &Option<SyntaxToken>| t.as_ref().map_or(String::new(), |t| t.text().to_string());
        let (prev_text, next_text, after_text) =
            (neighbour(&prev), neighbour(&next), neighbour(&after_next));
        let context = format!("{prev_text}{new_text}{next_text}{after_text}");
        let lexed = lex(&context, SourceKind::Manifest);
        if !lexed.errors.is_empty() {
            return None;
        }
        let expected: Vec<(Option<SyntaxKind>, usize)> = [
            (None, prev_text.len()),
            (Some(kind), new_text.len()),
            (None, next_text.len()),
            (None, after_text.len()),
        ]
        .into_iter()
        .filter(|&(_, len)| len > 0)
        .collect();
        if lexed.tokens.len() != expected.len()
            || lexed
                .tokens
                .iter()
                .zip(&expected)
                .any(|(t, (k, len))| t.len as usize != *len || k.is_some_and(|k| k != t.kind))
        {
            return None;
        }
        let green_token = rowan::GreenToken::new(kind.into(), &new_text);
        let green = token.replace_with(green_token);
        Some(Parse {
            green,
            errors: shift_errors(&self.errors, range, edit, Vec::new()),
            kind: self.kind,
            pending_regex_start: self.shifted_regex_start(edit),
        })
    }

    fn reparse_block(&self, root: &SyntaxNode, edit: &TextEdit) -> Option<Parse> {
        let covering = match root.covering_element(edit.delete) {
            rowan::NodeOrToken::Node(n) => n,
            rowan::NodeOrToken::Token(t) => t.parent()?,
        };
        let node = covering
            .ancestors()
            .find(|n| REPARSABLE_NODES.contains(&n.kind()) && strictly_inside(n, edit.delete))?;
        let range = node.text_range();
        // Errors on the node's braces may come from the surrounding parse;
        // errors inside it would have to be told apart from those.
        if self.error_touches(range) {
            return None;
        }
        let relative = TextEdit::replace(edit.delete - range.start(), edit.insert.clone());
        let new_text = relative.apply(&node.text().to_string());
        if !safe_to_reparse_alone(&node, &new_text) {
            return None;
        }
        let lexed = lex(&new_text, SourceKind::Manifest);
        if !braces_balance(&lexed) || !lexed.heredoc_bodies.is_empty() {
            return None;
        }
        // A `/` lexed as division alone may start a regex in the file that
        // ends after the node (Puppet's regexes may span lines).
        if lexed.tokens.iter().any(|t| t.kind == SLASH) {
            return None;
        }
        let (green_node, errors) = parser::parse_fragment(&new_text, &lexed, node.kind())?;
        // In the file, error recovery may run past the node's end.
        if !errors.is_empty() || !lexed.errors.is_empty() {
            return None;
        }
        // Parser errors first, as `parse` orders errors at equal positions.
        let mut new_errors = errors;
        new_errors.extend(lexed.errors);
        for error in &mut new_errors {
            error.range += range.start();
        }
        let green = node.replace_with(green_node);
        Some(Parse {
            green,
            errors: shift_errors(&self.errors, range, edit, new_errors),
            kind: self.kind,
            pending_regex_start: self.shifted_regex_start(edit),
        })
    }
}

impl Parse {
    /// Whether an error's range touches (overlaps or adjoins) `range`.
    fn error_touches(&self, range: TextRange) -> bool {
        self.errors
            .iter()
            .any(|e| e.range.start() <= range.end() && range.start() <= e.range.end())
    }

    /// The pending regex start after an edit that did not touch it (a
    /// reparsed block never contains one: blocks with `/` are refused).
    fn shifted_regex_start(&self, edit: &TextEdit) -> Option<TextSize> {
        self.pending_regex_start.map(|at| {
            if at >= edit.delete.end() {
                TextSize::from((i64::from(u32::from(at)) + edit.delta()).max(0) as u32)
            } else {
                at
            }
        })
    }
}

fn steers_parser(name: &str) -> bool {
    STATEMENT_CALL_NAMES.contains(&name) || name == "plan" || name == "apply"
}

/// The edit lies inside the node, not touching its first or last token,
/// and the node is complete: it ends with its own `}` (a node whose `}` is
/// missing was shaped by recovery in the surrounding parse).
fn strictly_inside(node: &SyntaxNode, delete: TextRange) -> bool {
    let (Some(first), Some(last)) = (node.first_token(), node.last_token()) else {
        return false;
    };
    let closes_itself = last.kind() == R_BRACE && last.parent().as_ref() == Some(node);
    closes_itself
        && first.text_range().end() <= delete.start()
        && delete.end() <= last.text_range().start()
}

/// Conditions under which a node parses the same alone as in its file.
fn safe_to_reparse_alone(node: &SyntaxNode, new_text: &str) -> bool {
    // `notice { ... }`: hash argument or resource body, decided by context.
    if node.kind() == HASH_EXPR && node.parent().is_some_and(|p| p.kind() == STATEMENT_CALL) {
        return false;
    }
    let first_ok = match node.kind() {
        BLOCK | HASH_EXPR => new_text.starts_with('{'),
        _ => true,
    };
    if !first_ok || !new_text.ends_with('}') {
        return false;
    }
    // Heredocs may have headers outside the node and bodies inside.
    if new_text.contains("@(") || node.descendants().any(|n| n.kind() == HEREDOC_BODY) {
        return false;
    }
    // A definition at a line start inside a block steers recovery from a
    // missing `}` anywhere in the file.
    if ["\nclass", "\ndefine", "\nnode", "\nfunction", "\ntype"]
        .iter()
        .any(|d| new_text.contains(d))
    {
        return false;
    }
    // Keep clear of the nesting limit, which counts from the file's root.
    let mut depth = 0usize;
    let mut max_depth = 0usize;
    for b in new_text.bytes() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                max_depth = max_depth.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (node.ancestors().count() + max_depth) * 8 < 200
}

/// The first token opens a brace that only the last token closes.
fn braces_balance(lexed: &crate::Lexed) -> bool {
    let mut depth = 0i64;
    let significant: Vec<SyntaxKind> = lexed
        .tokens
        .iter()
        .map(|t| t.kind)
        .filter(|k| !k.is_trivia())
        .collect();
    for (i, kind) in significant.iter().enumerate() {
        match kind {
            L_BRACE | DOLLAR_BRACE => depth += 1,
            R_BRACE | INTERP_CLOSE => {
                depth -= 1;
                if depth < 0
                    || (depth == 0 && i + 1 != significant.len() && significant[0] == L_BRACE)
                {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Errors of the old parse outside `replaced`, shifted by the edit, plus
/// `new_errors` for the replaced part; in text order.
fn shift_errors(
    old: &[SyntaxError],
    replaced: TextRange,
    edit: &TextEdit,
    new_errors: Vec<SyntaxError>,
) -> Vec<SyntaxError> {
    let delta = edit.delta();
    let shift =
        |offset: TextSize| TextSize::from((i64::from(u32::from(offset)) + delta).max(0) as u32);
    let mut errors: Vec<SyntaxError> = old
        .iter()
        .filter(|e| e.range.end() <= replaced.start() || e.range.start() >= replaced.end())
        .map(|e| {
            let mut e = e.clone();
            if e.range.start() >= replaced.end() {
                e.range = TextRange::new(shift(e.range.start()), shift(e.range.end()));
            }
            e
        })
        .collect();
    errors.extend(new_errors);
    errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    errors
}
