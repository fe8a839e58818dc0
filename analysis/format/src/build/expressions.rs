//! Expressions with a layout of their own: chains of binary operators
//! and relationships, selectors, and calls without parentheses.

use super::lists::{self, items};
use super::{first_token, parts, Builder};
use crate::doc::DocId;
use puppet_syntax::SyntaxKind::{self, *};
use puppet_syntax::{NodeOrToken, SyntaxElement, SyntaxNode};

/// How tightly a binary operator binds (the parser's table): chains of
/// one level are laid out together.
fn precedence(kind: SyntaxKind) -> u8 {
    match kind {
        OR_KW => 1,
        AND_KW => 2,
        LT | LTEQ | GT | GTEQ => 4,
        EQ2 | NEQ => 5,
        SHL | SHR => 6,
        PLUS | MINUS => 7,
        STAR | SLASH | PERCENT => 8,
        MATCH | NOMATCH => 9,
        IN_KW => 10,
        _ => 0,
    }
}

/// The operands and operators of a left-nested chain of `node`'s kind
/// where `same_level` holds for each operator, collected without
/// recursion: `((a + b) - c)` gives `a`, `+ b`, `- c`. `None` when `node`
/// is not a well-formed link.
type Chain = (SyntaxElement, Vec<(SyntaxElement, SyntaxElement)>);

fn flatten_chain(node: &SyntaxNode, same_level: impl Fn(SyntaxKind) -> bool) -> Option<Chain> {
    let mut links = Vec::new();
    let mut parts = link_parts(node)?;
    loop {
        let [left, op, right] = parts;
        links.push((op, right));
        let inner = match &left {
            NodeOrToken::Node(inner)
                if inner.kind() == node.kind() && operator(inner).is_some_and(&same_level) =>
            {
                link_parts(inner)
            }
            _ => None,
        };
        match inner {
            Some(inner_parts) => parts = inner_parts,
            None => {
                links.reverse();
                return Some((left, links));
            }
        }
    }
}

/// `left op right` of a binary or relationship node.
fn link_parts(node: &SyntaxNode) -> Option<[SyntaxElement; 3]> {
    let parts = parts(node);
    let [left, op, right] = &parts[..] else {
        return None;
    };
    op.as_token()?;
    Some([left.clone(), op.clone(), right.clone()])
}

fn operator(node: &SyntaxNode) -> Option<SyntaxKind> {
    parts(node)
        .get(1)
        .and_then(|p| p.as_token().map(|t| t.kind()))
}

/// Whether the source broke a line around any operator of a chain.
fn broken_in_source(b: &Builder<'_>, links: &[(SyntaxElement, SyntaxElement)]) -> bool {
    links.iter().any(|(op, right)| {
        let op_broken = op.as_token().is_some_and(|t| b.trivia.newline_before(t));
        let right_broken =
            super::first_token_of(right).is_some_and(|t| b.trivia.newline_before(&t));
        op_broken || right_broken
    })
}

/// `a + b + c`: on one line if it fits and stood on one line, else broken
/// after each operator with the operands indented.
pub fn binary_chain(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    let Some(level) = operator(node).map(precedence) else {
        return b.sequence(node);
    };
    let Some((first, links)) = flatten_chain(node, |op| precedence(op) == level) else {
        return b.sequence(node);
    };
    let broken = broken_in_source(b, &links);
    let first_doc = b.element(&first);
    let mut rest = Vec::with_capacity(links.len() * 3);
    for (op, right) in &links {
        rest.push(b.docs.text(" "));
        rest.push(b.element(op));
        rest.push(b.docs.line());
        rest.push(b.element(right));
    }
    let rest = b.docs.concat(rest);
    let indented = b.docs.indent(rest);
    let all = b.docs.concat(vec![first_doc, indented]);
    b.docs.group(all, broken)
}

/// `a -> b ~> c`: broken before each arrow, at the chain's indentation, as
/// the style guide shows (and puppet-lint's `arrow_on_right_operand_line`
/// wants).
pub fn relationship_chain(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    let Some((first, links)) = flatten_chain(node, |_| true) else {
        return b.sequence(node);
    };
    let broken = broken_in_source(b, &links);
    let mut docs = vec![b.element(&first)];
    for (op, right) in &links {
        docs.push(b.docs.line());
        // A comment between the arrow and its right operand goes above
        // the arrow, which stays on its operand's line.
        let comments = super::first_token_of(right)
            .map(|t| b.trivia.take_own_line(&t))
            .unwrap_or_default();
        docs.extend(b.comment_lines(comments, false));
        docs.push(b.element(op));
        docs.push(b.docs.text(" "));
        docs.push(b.element(right));
    }
    let all = b.docs.concat(docs);
    b.docs.group(all, broken)
}

/// `$x ? { a => 1, default => 2 }`, laid out as a hash.
pub fn selector(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    lists::braced_list(b, node, None)
}

/// `include a, b`: the name, then the arguments on one line.
pub fn statement_call(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    let parts = parts(node);
    let Some((name, args)) = parts.split_first() else {
        return b.docs.nil();
    };
    let name_doc = b.element(name);
    let mut docs = vec![name_doc];
    let (list_items, stray) = items(args);
    for token in &stray {
        docs.push(b.token(token));
    }
    for (i, item) in list_items.iter().enumerate() {
        docs.push(b.docs.text(if i == 0 { " " } else { ", " }));
        if i == 0 {
            // `notice\n($x)`: a `(` first on its line is not a call's; it
            // must stay first on its line.
            if first_token(&item.node).is_some_and(|t| t.kind() == L_PAREN_WS) {
                docs.push(b.docs.hard_line());
            }
        }
        docs.push(b.node(&item.node));
        if let Some(comma) = &item.comma {
            docs.push(b.dropped(comma));
        }
    }
    b.docs.concat(docs)
}

/// Node matchers `'a', /b/, default` on one line.
pub fn comma_separated(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    let parts = parts(node);
    let (list_items, stray) = items(&parts);
    let mut docs: Vec<DocId> = stray.iter().map(|t| b.token(t)).collect();
    super::lists::on_one_line(b, &list_items, &mut docs);
    b.docs.concat(docs)
}
