//! Statement lists: the file, blocks (`{ ... }` of definitions,
//! conditionals and lambdas) and `case` options. One statement per line,
//! at most one blank line kept between statements, none after `{` or
//! before `}`.

use super::{first_token, first_token_of, parts, Builder};
use crate::doc::DocId;
use puppet_syntax::SyntaxKind::*;
use puppet_syntax::{NodeOrToken, SyntaxElement, SyntaxNode, SyntaxToken};

pub fn source_file(b: &mut Builder<'_>, root: &SyntaxNode) -> DocId {
    let parts = parts(root);
    let (mut docs, _) = statement_list(b, &parts);
    let end = std::mem::take(&mut b.trivia.end);
    if !end.is_empty() {
        if !docs.is_empty() {
            docs.push(b.docs.hard_line());
        }
        docs.extend(b.closing_comment_lines(end, !docs.is_empty()));
    }
    b.docs.concat(docs)
}

/// The statements among `parts` one per line, with the comments before
/// them, and how many statements there were.
fn statement_list(b: &mut Builder<'_>, parts: &[SyntaxElement]) -> (Vec<DocId>, usize) {
    let mut docs = Vec::new();
    let mut count = 0;
    for (i, part) in parts.iter().enumerate() {
        match part {
            NodeOrToken::Node(statement) => {
                let first = docs.is_empty();
                if !first {
                    docs.push(b.docs.hard_line());
                }
                docs.extend(statement_prefix(b, statement, first));
                docs.push(b.node(statement));
                count += 1;
            }
            NodeOrToken::Token(token) if token.kind() == SEMICOLON => {
                docs.push(semicolon(b, token, parts.get(i + 1)));
            }
            NodeOrToken::Token(token) => docs.push(b.token(token)),
        }
    }
    (docs, count)
}

/// The comments above a statement and the blank line before it.
fn statement_prefix(b: &mut Builder<'_>, statement: &SyntaxNode, first: bool) -> Vec<DocId> {
    let Some(token) = first_token(statement) else {
        return Vec::new();
    };
    let comments = b.trivia.take_own_line(&token);
    let had_comments = !comments.is_empty();
    let mut docs = b.comment_lines(comments, !first);
    if b.trivia.blank_before(&token) && (had_comments || !first) {
        docs.push(b.docs.hard_line());
    }
    docs
}

/// A `;` between statements goes, unless the next statement could
/// otherwise continue the previous one (`-1`, `*$x`, `{ ... }`).
fn semicolon(b: &mut Builder<'_>, token: &SyntaxToken, next: Option<&SyntaxElement>) -> DocId {
    let next_kind = next.and_then(first_token_of).map(|t| t.kind());
    if matches!(next_kind, Some(MINUS | STAR | L_BRACE)) {
        b.token(token)
    } else {
        b.dropped(token)
    }
}

/// `{ statements }`. Empty, `{}`; a lambda's or case option's single
/// statement may stay on the line when it stood there; otherwise one
/// statement per line.
pub fn block(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    let parts = parts(node);
    let (Some(NodeOrToken::Token(open)), Some(NodeOrToken::Token(close))) =
        (parts.first(), parts.last())
    else {
        return b.spaced(node.kind(), &parts);
    };
    if open.kind() != L_BRACE || close.kind() != R_BRACE || parts.len() < 2 {
        return b.spaced(node.kind(), &parts);
    }
    let open_doc = b.token(open);
    let inner = &parts[1..parts.len() - 1];
    let closing_comments = b.trivia.take_own_line(close);
    if inner.is_empty() && closing_comments.is_empty() && !b.trivia.has_comments(open) {
        let close_doc = b.token(close);
        return b.docs.concat(vec![open_doc, close_doc]);
    }
    let may_stay_on_line = node
        .parent()
        .is_some_and(|p| matches!(p.kind(), LAMBDA | CASE_OPTION))
        && closing_comments.is_empty()
        && !b.trivia.newline_before(close)
        && single_statement_without_comments(b, inner);
    let (mut body, _) = statement_list(b, inner);
    if !closing_comments.is_empty() {
        if !body.is_empty() {
            body.push(b.docs.hard_line());
        }
        body.extend(b.closing_comment_lines(closing_comments, !body.is_empty()));
    }
    let after_close = b.trivia.take_trailing(close);
    let after_close = b.trailing_comments(after_close);
    let after_close = b.docs.concat(after_close);
    let close_doc = b.token(close);
    let (line_a, line_b) = if may_stay_on_line {
        (b.docs.line(), b.docs.line())
    } else {
        (b.docs.hard_line(), b.docs.hard_line())
    };
    let mut content = vec![line_a];
    content.extend(body);
    let content = b.docs.concat(content);
    let indented = b.docs.indent(content);
    let all = b.docs.concat(vec![open_doc, indented, line_b, close_doc]);
    let group = b.docs.group(all, false);
    b.docs.concat(vec![group, after_close])
}

fn single_statement_without_comments(b: &Builder<'_>, inner: &[SyntaxElement]) -> bool {
    let [NodeOrToken::Node(statement)] = inner else {
        return false;
    };
    first_token(statement).is_some_and(|t| !b.trivia.newline_before(&t))
        && !statement
            .descendants_with_tokens()
            .any(|e| matches!(e.kind(), COMMENT | BLOCK_COMMENT))
}

/// `case $x { a, b: { ... } default: { ... } }`: one option per line.
pub fn case(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    let parts = parts(node);
    let Some(open_at) = parts.iter().position(|p| p.kind() == L_BRACE) else {
        return b.spaced(node.kind(), &parts);
    };
    let head = b.spaced(node.kind(), &parts[..open_at]);
    let open = parts[open_at].clone();
    let close = parts.last().filter(|p| p.kind() == R_BRACE).cloned();
    let end = if close.is_some() {
        parts.len() - 1
    } else {
        parts.len()
    };
    let open_doc = b.element(&open);
    let mut body = Vec::new();
    for (i, option) in parts[open_at + 1..end].iter().enumerate() {
        body.push(b.docs.hard_line());
        if let NodeOrToken::Node(option_node) = option {
            body.extend(statement_prefix(b, option_node, i == 0));
        }
        body.push(b.element(option));
    }
    let mut close_doc = b.docs.nil();
    if let Some(NodeOrToken::Token(close)) = &close {
        let comments = b.trivia.take_own_line(close);
        if !comments.is_empty() {
            body.push(b.docs.hard_line());
            body.extend(b.closing_comment_lines(comments, true));
        }
        close_doc = b.token(close);
    }
    let body = b.docs.concat(body);
    let indented = b.docs.indent(body);
    let space = b.docs.text(" ");
    let line = b.docs.hard_line();
    b.docs
        .concat(vec![head, space, open_doc, indented, line, close_doc])
}
