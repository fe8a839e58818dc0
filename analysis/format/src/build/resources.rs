//! Resource declarations, defaults, overrides and collectors: one
//! attribute per line (arrows aligned, trailing comma) as soon as there
//! are two attributes, as the style guide asks.
//!
//! ```puppet
//! file { '/etc/motd':
//!   ensure  => file,
//!   content => 'hi',
//! }
//! ```
//!
//! Several bodies in one declaration get a line each for their titles,
//! with the attributes indented below and `;` after each body.

use super::lists::{self, items, Style};
use super::{parts, Builder};
use crate::doc::DocId;
use puppet_syntax::SyntaxKind::*;
use puppet_syntax::{NodeOrToken, SyntaxElement, SyntaxNode, SyntaxToken};

pub fn resource(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    let parts = parts(node);
    let Some(open_at) = parts.iter().position(|p| p.kind() == L_BRACE) else {
        return b.spaced(node.kind(), &parts);
    };
    let (Some(NodeOrToken::Token(open)), Some(NodeOrToken::Token(close))) =
        (parts.get(open_at), parts.last())
    else {
        return b.spaced(node.kind(), &parts);
    };
    if close.kind() != R_BRACE || parts.len() < open_at + 2 {
        return b.spaced(node.kind(), &parts);
    }
    let head = b.spaced(node.kind(), &parts[..open_at]);
    let bodies: Vec<(SyntaxNode, Option<SyntaxToken>)> =
        bodies(&parts[open_at + 1..parts.len() - 1]);
    let space = b.docs.text(" ");
    let open_doc = b.token(open);
    let rest = match &bodies[..] {
        [(body, semicolon)] if !b.trivia.has_comments(open) => {
            single_body(b, body, semicolon.as_ref(), close)
        }
        _ => several_bodies(b, &bodies, close),
    };
    b.docs.concat(vec![head, space, open_doc, rest])
}

/// The bodies among a resource's parts, each with the `;` after it.
fn bodies(parts: &[SyntaxElement]) -> Vec<(SyntaxNode, Option<SyntaxToken>)> {
    let mut bodies: Vec<(SyntaxNode, Option<SyntaxToken>)> = Vec::new();
    for part in parts {
        match part {
            NodeOrToken::Node(node) => bodies.push((node.clone(), None)),
            NodeOrToken::Token(token) => {
                if let Some(last) = bodies.last_mut().filter(|l| l.1.is_none()) {
                    last.1 = Some(token.clone());
                }
            }
        }
    }
    bodies
}

/// ` 'title': attrs }` after the `{` of a one-body resource.
fn single_body(
    b: &mut Builder<'_>,
    body: &SyntaxNode,
    semicolon: Option<&SyntaxToken>,
    close: &SyntaxToken,
) -> DocId {
    let parts = parts(body);
    let Some(colon_at) = parts.iter().position(|p| p.kind() == COLON) else {
        let doc = b.node(body);
        let close_doc = b.token(close);
        let space = b.docs.text(" ");
        return b.docs.concat(vec![space, doc, space, close_doc]);
    };
    let title = b.spaced(body.kind(), &parts[..colon_at]);
    let NodeOrToken::Token(colon) = &parts[colon_at] else {
        return title;
    };
    let (attributes, stray) = items(&parts[colon_at + 1..]);
    let mut stray = stray;
    stray.extend(semicolon.cloned());
    let space = b.docs.text(" ");
    let list = if attributes.is_empty()
        && stray.is_empty()
        && !b.trivia.has_comments(colon)
        && !b.trivia.has_comments(close)
    {
        let colon_doc = b.token(colon);
        let close_doc = b.token(close);
        b.docs.concat(vec![colon_doc, space, close_doc])
    } else {
        let style = Style {
            padded: true,
            trailing_comma: true,
            broken: attributes.len() >= 2,
        };
        lists::list(b, colon, &attributes, &stray, Some(close), style)
    };
    let space = b.docs.text(" ");
    b.docs.concat(vec![space, title, list])
}

/// The bodies of a resource with several titles, one after the other.
fn several_bodies(
    b: &mut Builder<'_>,
    bodies: &[(SyntaxNode, Option<SyntaxToken>)],
    close: &SyntaxToken,
) -> DocId {
    let mut docs = Vec::new();
    for (body, semicolon) in bodies {
        docs.push(b.docs.hard_line());
        let parts = parts(body);
        let title_end = parts
            .iter()
            .position(|p| p.kind() == COLON)
            .unwrap_or(parts.len());
        let comments = super::first_token(body)
            .map(|t| b.trivia.take_own_line(&t))
            .unwrap_or_default();
        docs.extend(b.comment_lines(comments, true));
        docs.push(b.spaced(body.kind(), &parts[..title_end]));
        if let Some(NodeOrToken::Token(colon)) = parts.get(title_end) {
            let (attributes, stray) = items(&parts[title_end + 1..]);
            let style = Style {
                padded: false,
                trailing_comma: false,
                broken: !attributes.is_empty(),
            };
            docs.push(lists::list(b, colon, &attributes, &stray, None, style));
        }
        docs.push(match semicolon {
            Some(semicolon) => b.token(semicolon),
            None => b.docs.text(";"),
        });
    }
    let comments = b.trivia.take_own_line(close);
    if !comments.is_empty() {
        docs.push(b.docs.hard_line());
        docs.extend(b.closing_comment_lines(comments, true));
    }
    let docs = b.docs.concat(docs);
    let indented = b.docs.indent(docs);
    let line = b.docs.hard_line();
    let close_doc = b.token(close);
    b.docs.concat(vec![indented, line, close_doc])
}

/// `File { attrs }`, `File['x'] { attrs }`, `User <| query |> { attrs }`.
pub fn attribute_block(b: &mut Builder<'_>, node: &SyntaxNode) -> DocId {
    lists::braced_list(b, node, Some(2))
}
