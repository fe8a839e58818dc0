//! Bracketed, comma-separated lists: arrays, hashes, argument lists,
//! parameter lists, selector bodies and attribute lists.
//!
//! A list stays on one line when it fits, has no comments and was on one
//! line in the source (a line break after the opening bracket keeps it
//! broken, as the author laid it out). Broken, it has one item per line,
//! a trailing comma where Puppet allows one, and `=>` (or a parameter's
//! `=`) aligned one space after the longest key of the list.

use super::{first_token, parts, Builder};
use crate::doc::{DocId, GroupId};
use puppet_syntax::SyntaxKind::{self, *};
use puppet_syntax::{NodeOrToken, SyntaxElement, SyntaxNode, SyntaxToken};

/// One item of a list: its node and the comma after it.
pub struct Item {
    pub node: SyntaxNode,
    pub comma: Option<SyntaxToken>,
}

/// `head { items }` (a selector's body, a resource defaults, override or
/// collector's attributes): what comes before the brace as written, then
/// the items as a padded list with trailing commas, always broken from
/// `broken_from` items on (`None`: only when it does not fit).
pub fn braced_list(b: &mut Builder<'_>, node: &SyntaxNode, broken_from: Option<usize>) -> DocId {
    let parts = parts(node);
    let Some(open_at) = parts.iter().position(|p| p.kind() == L_BRACE) else {
        return b.spaced(node.kind(), &parts);
    };
    let head = b.spaced(node.kind(), &parts[..open_at]);
    let NodeOrToken::Token(open) = &parts[open_at] else {
        return head;
    };
    let (close, end) = match parts.last() {
        Some(NodeOrToken::Token(t)) if t.kind() == R_BRACE && parts.len() > open_at + 1 => {
            (Some(t.clone()), parts.len() - 1)
        }
        _ => (None, parts.len()),
    };
    let (found, stray) = items(&parts[open_at + 1..end]);
    let style = Style {
        padded: true,
        trailing_comma: true,
        broken: broken_from.is_some_and(|n| found.len() >= n),
    };
    let body = list(b, open, &found, &stray, close.as_ref(), style);
    let space = b.docs.text(" ");
    b.docs.concat(vec![head, space, body])
}

/// Splits the parts between the brackets into items; commas before the
/// first item (`{ 'x':, a => 1 }`) are returned apart. An unfolded hash
/// (`f(a => 1, b => 2)`) gives one item per entry.
pub fn items(parts: &[SyntaxElement]) -> (Vec<Item>, Vec<SyntaxToken>) {
    let mut found: Vec<Item> = Vec::new();
    let mut stray = Vec::new();
    for part in parts {
        match part {
            NodeOrToken::Node(node) if node.kind() == UNFOLDED_HASH => {
                let (inner, inner_stray) = items(&super::parts(node));
                found.extend(inner);
                stray.extend(inner_stray);
            }
            NodeOrToken::Node(node) => found.push(Item {
                node: node.clone(),
                comma: None,
            }),
            NodeOrToken::Token(token) => match found.last_mut() {
                Some(last) if last.comma.is_none() && token.kind() == COMMA => {
                    last.comma = Some(token.clone())
                }
                _ => stray.push(token.clone()),
            },
        }
    }
    (found, stray)
}

/// How a list prints.
#[derive(Clone, Copy)]
pub struct Style {
    /// `{ a => 1 }` rather than `[1]` on one line.
    pub padded: bool,
    /// A comma after the last item when broken.
    pub trailing_comma: bool,
    /// Broken whatever the width.
    pub broken: bool,
}

/// A list item ready to print.
struct Printed {
    shape: Shape,
    comments_before: Vec<DocId>,
    blank_before: bool,
    after_comma: DocId,
}

/// What an item is made of.
enum Shape {
    /// Printed as it is.
    Whole(DocId),
    /// `key => value` (or `$param = default`): the key, its width on one
    /// line (`None` when it cannot be aligned) and ` => value`.
    Entry {
        key: DocId,
        width: Option<usize>,
        rest: DocId,
    },
}

/// The list `open items close` in `style`.
pub fn list(
    b: &mut Builder<'_>,
    open: &SyntaxToken,
    list_items: &[Item],
    stray: &[SyntaxToken],
    close: Option<&SyntaxToken>,
    style: Style,
) -> DocId {
    let open_doc = b.token(open);
    let first_after_open = list_items
        .first()
        .and_then(|item| first_token(&item.node))
        .or_else(|| close.cloned());
    let source_broken = first_after_open.is_some_and(|t| b.trivia.newline_before(&t));
    let id = b.docs.new_group_id();
    let mut stray_docs: Vec<DocId> = stray.iter().map(|t| b.dropped(t)).collect();
    let printed: Vec<Printed> = list_items
        .iter()
        .enumerate()
        .map(|(i, item)| print_item(b, item, i == 0))
        .collect();
    let closing_comments = match close {
        Some(close) => b.trivia.take_own_line(close),
        None => Vec::new(),
    };
    // Comments after the closing bracket belong after the list, not in
    // its group (where they would break it).
    let after_close = match close {
        Some(close) => b.trivia.take_trailing(close),
        None => Vec::new(),
    };
    let after_close = b.trailing_comments(after_close);
    let after_close = b.docs.concat(after_close);
    let close_doc = match close {
        Some(close) => b.token(close),
        None => b.docs.nil(),
    };
    if printed.is_empty() && closing_comments.is_empty() && !b.docs.forces_break(open_doc) {
        stray_docs.insert(0, open_doc);
        stray_docs.push(close_doc);
        stray_docs.push(after_close);
        return b.docs.concat(stray_docs);
    }
    let has_comments =
        !closing_comments.is_empty() || printed.iter().any(|p| !p.comments_before.is_empty());
    let mut inner = stray_docs;
    if !printed.is_empty() || !closing_comments.is_empty() {
        inner.push(if style.padded {
            b.docs.line()
        } else {
            b.docs.soft_line()
        });
    }
    inner.extend(items_body(b, printed, style, id));
    if !closing_comments.is_empty() {
        inner.push(b.docs.hard_line());
        inner.extend(b.closing_comment_lines(closing_comments, true));
    }
    let inner = b.docs.concat(inner);
    let indented = b.docs.indent(inner);
    let closing_line = match (close, style.padded) {
        (None, _) => b.docs.nil(),
        (Some(_), true) => b.docs.line(),
        (Some(_), false) => b.docs.soft_line(),
    };
    let all = b
        .docs
        .concat(vec![open_doc, indented, closing_line, close_doc]);
    let group = b
        .docs
        .group_with_id(all, Some(id), style.broken || source_broken || has_comments);
    b.docs.concat(vec![group, after_close])
}

/// The items one after the other, separated by commas and (when broken)
/// line breaks, keys padded to the widest key of the list.
fn items_body(b: &mut Builder<'_>, printed: Vec<Printed>, style: Style, id: GroupId) -> Vec<DocId> {
    let widest = printed
        .iter()
        .filter_map(|p| match p.shape {
            Shape::Entry { width, .. } => width,
            Shape::Whole(_) => None,
        })
        .max();
    let count = printed.len();
    let mut body = Vec::with_capacity(count * 4);
    for (i, item) in printed.into_iter().enumerate() {
        if i > 0 {
            if item.blank_before {
                let blank = b.docs.soft_line();
                let nil = b.docs.nil();
                body.push(b.docs.if_break(blank, nil));
            }
            body.push(b.docs.line());
        }
        body.extend(item.comments_before);
        body.push(aligned(b, item.shape, widest, id));
        if i + 1 < count {
            body.push(b.docs.text(","));
        } else if style.trailing_comma {
            let comma = b.docs.text(",");
            let nil = b.docs.nil();
            body.push(b.docs.if_break(comma, nil));
        }
        body.push(item.after_comma);
    }
    body
}

/// An item with the comments above it, and the comments after its comma.
fn print_item(b: &mut Builder<'_>, item: &Item, first: bool) -> Printed {
    let token = first_token(&item.node);
    let comments = token
        .as_ref()
        .map(|t| b.trivia.take_own_line(t))
        .unwrap_or_default();
    let blank_before = !first && token.as_ref().is_some_and(|t| b.trivia.blank_before(t));
    let mut comments_before = b.comment_lines(comments, !first);
    let shape = match entry_parts(&item.node) {
        Some((key, op, value)) => {
            // Own-line comments before the operator go above the entry.
            if let NodeOrToken::Token(op_token) = &op {
                let moved = b.trivia.take_own_line(op_token);
                comments_before.extend(b.comment_lines(moved, true));
            }
            let key_doc = b.spaced(item.node.kind(), &key);
            let width = b.docs.flat_width(key_doc);
            let key_doc = b.docs.flat(key_doc);
            let op_doc = b.element(&op);
            let value_doc = b.element(&value);
            let space = b.docs.text(" ");
            let space2 = b.docs.text(" ");
            let rest = b.docs.concat(vec![space, op_doc, space2, value_doc]);
            Shape::Entry {
                key: key_doc,
                width,
                rest,
            }
        }
        None => Shape::Whole(b.node(&item.node)),
    };
    let after_comma = match &item.comma {
        Some(comma) => b.dropped(comma),
        None => b.docs.nil(),
    };
    Printed {
        shape,
        comments_before,
        blank_before,
        after_comma,
    }
}

/// `key => value` shaped items (and `$param = default`): the parts of the
/// key, the operator and the value. Other items are printed whole.
fn entry_parts(node: &SyntaxNode) -> Option<(Vec<SyntaxElement>, SyntaxElement, SyntaxElement)> {
    let parts = parts(node);
    let op_at = match node.kind() {
        HASH_ENTRY | SELECTOR_ENTRY | ATTRIBUTE => parts
            .iter()
            .position(|p| matches!(p.kind(), FAT_ARROW | PLUS_ARROW))?,
        PARAM => parts.iter().position(|p| p.kind() == EQ)?,
        _ => return None,
    };
    if op_at == 0 || parts.len() != op_at + 2 {
        return None;
    }
    Some((
        parts[..op_at].to_vec(),
        parts[op_at].clone(),
        parts[op_at + 1].clone(),
    ))
}

/// The item's document, its key padded to `widest` when its group breaks.
fn aligned(b: &mut Builder<'_>, shape: Shape, widest: Option<usize>, group: GroupId) -> DocId {
    let (key, width, rest) = match shape {
        Shape::Whole(doc) => return doc,
        Shape::Entry { key, width, rest } => (key, width, rest),
    };
    let padding = match (width, widest) {
        (Some(width), Some(widest)) if widest > width => {
            let pad = b.docs.text(" ".repeat(widest - width));
            let nil = b.docs.nil();
            b.docs.if_break_of(pad, nil, Some(group))
        }
        _ => b.docs.nil(),
    };
    b.docs.concat(vec![key, padding, rest])
}

/// The brackets and items of a node whose parts are `open items close`.
fn bracketed(node: &SyntaxNode) -> Option<(SyntaxToken, Vec<SyntaxElement>, Option<SyntaxToken>)> {
    let parts = parts(node);
    let open = parts.first()?.as_token()?.clone();
    let (close, end) = match parts.last() {
        Some(NodeOrToken::Token(t)) if parts.len() > 1 && is_closer(t.kind()) => {
            (Some(t.clone()), parts.len() - 1)
        }
        _ => (None, parts.len()),
    };
    Some((open, parts[1..end].to_vec(), close))
}

fn is_closer(kind: SyntaxKind) -> bool {
    matches!(kind, R_BRACK | R_BRACE | R_PAREN | PIPE)
}

/// `[1, 2]`, broken `[\n  1,\n  2,\n]`.
pub fn array(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    generic(b, node, false, true)
}

/// `{ a => 1 }`, broken with aligned arrows and a trailing comma.
pub fn hash(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    generic(b, node, true, true)
}

fn generic(b: &mut Builder<'_>, node: &SyntaxNode, padded: bool, trailing_comma: bool) -> DocId {
    let Some((open, inner, close)) = bracketed(node) else {
        return b.sequence(node);
    };
    let (list_items, stray) = items(&inner);
    let style = Style {
        padded,
        trailing_comma,
        broken: false,
    };
    list(b, &open, &list_items, &stray, close.as_ref(), style)
}

/// Call arguments `(...)` or access arguments `[...]`. When the last
/// argument is a hash, an array or ends with a lambda block, and the
/// first ones are plain, the list hugs it: `merge($a, {` ... `})`.
pub fn arg_list(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    let Some((open, inner, close)) = bracketed(node) else {
        return b.sequence(node);
    };
    let (list_items, stray) = items(&inner);
    let in_method_call = node.parent().is_some_and(|p| p.kind() == METHOD_CALL_EXPR);
    // Puppet's grammar takes no trailing comma in a parameter's type
    // (`Array[String,] $x` does not parse) though it does elsewhere.
    let in_parameter_type = node
        .parent()
        .filter(|p| p.kind() == ACCESS_EXPR)
        .and_then(|access| access.parent())
        .is_some_and(|p| matches!(p.kind(), PARAM | RETURN_TYPE));
    if stray.is_empty() && hugs_last(b, node, &list_items) {
        return hugged(b, &open, &list_items, close.as_ref());
    }
    let style = Style {
        padded: false,
        trailing_comma: !in_method_call && !in_parameter_type,
        broken: false,
    };
    list(b, &open, &list_items, &stray, close.as_ref(), style)
}

fn hugs_last(b: &Builder<'_>, node: &SyntaxNode, list_items: &[Item]) -> bool {
    let Some(last) = list_items.last() else {
        return false;
    };
    if list_items.iter().any(|i| i.node.kind() == HASH_ENTRY) || b.has_own_comments(node) {
        return false;
    }
    let first_is_on_line =
        first_token(&list_items[0].node).is_some_and(|t| !b.trivia.newline_before(&t));
    let plain_before = list_items[..list_items.len() - 1]
        .iter()
        .all(|item| !matches!(item.node.kind(), HASH_EXPR | ARRAY_EXPR));
    first_is_on_line && plain_before && is_huggable(&last.node)
}

/// A hash, an array, a call ending with a lambda, or a call or access
/// whose single argument is huggable (`Optional[Struct[{` ... `}]]`).
fn is_huggable(node: &SyntaxNode) -> bool {
    let mut node = node.clone();
    loop {
        match node.kind() {
            HASH_EXPR | ARRAY_EXPR => return has_items(&node),
            CALL_EXPR | METHOD_CALL_EXPR
                if node.children().last().is_some_and(|c| c.kind() == LAMBDA) =>
            {
                return true
            }
            CALL_EXPR | ACCESS_EXPR => {
                let Some(args) = node.children().find(|c| c.kind() == ARG_LIST) else {
                    return false;
                };
                let mut arguments = args.children().filter(|c| c.kind() != HEREDOC_BODY);
                match (arguments.next(), arguments.next()) {
                    (Some(only), None) => node = only,
                    _ => return false,
                }
            }
            _ => return false,
        }
    }
}

fn has_items(node: &SyntaxNode) -> bool {
    node.children().any(|c| c.kind() != HEREDOC_BODY)
}

/// The items separated by `, ` (their own commas dropped, keeping the
/// comments attached to them).
pub fn on_one_line(b: &mut Builder<'_>, list_items: &[Item], docs: &mut Vec<DocId>) {
    for (i, item) in list_items.iter().enumerate() {
        if i > 0 {
            docs.push(b.docs.text(", "));
        }
        docs.push(b.node(&item.node));
        if let Some(comma) = &item.comma {
            docs.push(b.dropped(comma));
        }
    }
}

fn hugged(
    b: &mut Builder<'_>,
    open: &SyntaxToken,
    list_items: &[Item],
    close: Option<&SyntaxToken>,
) -> DocId {
    let mut docs = vec![b.token(open)];
    on_one_line(b, list_items, &mut docs);
    if let Some(close) = close {
        docs.push(b.token(close));
    }
    b.docs.concat(docs)
}

/// `(String $a, $b = 1)` or `|$k, $v|`: broken, one parameter per line,
/// defaults' `=` aligned, a trailing comma in parentheses.
pub fn parameters(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    let Some((open, inner, close)) = bracketed(node) else {
        return b.sequence(node);
    };
    let (list_items, stray) = items(&inner);
    let parenthesized = open.kind() != PIPE;
    let style = Style {
        padded: false,
        trailing_comma: parenthesized,
        broken: false,
    };
    list(b, &open, &list_items, &stray, close.as_ref(), style)
}
