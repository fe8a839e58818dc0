//! Resource expressions (`file { 'x': }`, `@`, `@@`, `class { 'x': }`),
//! resource defaults and overrides, attribute operations and collector
//! queries.

use super::expressions::{expression, hash, recover_to_closing, single, STATEMENT_CALLS};
use super::Parser;
use crate::syntax_kind::SyntaxKind::{self, *};

/// `resource: expression | '@' resource | '@@' resource | resource '{' ... '}'`.
pub(crate) fn resource(p: &mut Parser) -> Option<SyntaxKind> {
    if !p.enter() {
        return None;
    }
    let cp = p.checkpoint();
    // `@@@file {}` is `@@ (@file {})`: Puppet accepts repeated forms and
    // the outermost wins, so all of them stay in this one node.
    let mut form = None;
    while p.at_any(&[AT, ATAT]) {
        form.get_or_insert(p.current_range());
        p.bump();
    }
    let statement_name = p.at(NAME) && STATEMENT_CALLS.contains(&p.nth_text(0));
    let lhs = if p.at(CLASS_KW) && p.nth(1) == L_BRACE {
        Some(single(p, QUALIFIED_NAME))
    } else {
        expression(p)
    };
    let result = if p.at(L_BRACE) && statement_name && lhs == Some(QUALIFIED_NAME) && untitled(p) {
        // `notice { a => 1 }`: Puppet turns an untitled "resource" of a
        // statement function into a call with a hash argument.
        p.start_node_at(cp, STATEMENT_CALL);
        hash(p);
        p.finish_node();
        Some(STATEMENT_CALL)
    } else if p.at(L_BRACE) {
        Some(resource_body_part(p, cp, lhs))
    } else {
        if let Some(range) = form {
            p.error_at(
                range,
                "virtual (@) and exported (@@) can only be applied to a resource expression",
            );
        }
        lhs
    };
    p.leave();
    result
}

/// Attribute names: a name or any keyword but `true` and `false`.
fn is_attribute_name(kind: SyntaxKind) -> bool {
    kind == NAME || (kind.is_keyword() && !matches!(kind, TRUE_KW | FALSE_KW))
}

/// Whether the tokens at `n` start an attribute operation.
fn at_attribute(p: &Parser, n: usize) -> bool {
    let kind = p.nth(n);
    (is_attribute_name(kind) && matches!(p.nth(n + 1), FAT_ARROW | PLUS_ARROW))
        || (kind == STAR && p.nth(n + 1) == FAT_ARROW)
}

/// At `{`: whether the braces hold attributes only (no title), possibly
/// after the comma Puppet allows before the first attribute.
fn untitled(p: &Parser) -> bool {
    let first = if p.nth(1) == COMMA { 2 } else { 1 };
    p.nth(first) == R_BRACE || at_attribute(p, first)
}

/// The `{ ... }` after a resource type: titled bodies, or attributes only
/// (defaults or override).
fn resource_body_part(p: &mut Parser, cp: super::Marker, lhs: Option<SyntaxKind>) -> SyntaxKind {
    if untitled(p) {
        let kind = match lhs {
            Some(ACCESS_EXPR) => RESOURCE_OVERRIDE,
            Some(TYPE_REFERENCE) => RESOURCE_DEFAULTS,
            Some(QUALIFIED_NAME) => {
                p.error(
                    "resource declaration without a title: write `type { 'title': ... }`, or `Type { ... }` for defaults",
                );
                RESOURCE_DEFAULTS
            }
            _ => {
                p.error("this expression is not valid as a resource, resource default or resource override");
                RESOURCE_DEFAULTS
            }
        };
        p.start_node_at(cp, kind);
        p.bump();
        attribute_operations(p);
        if !p.eat(R_BRACE) {
            p.error_expected("',' or '}'", "after the attributes");
            recover_to_closing(p, R_BRACE);
        }
        p.finish_node();
        return kind;
    }
    p.start_node_at(cp, RESOURCE_EXPR);
    p.bump();
    loop {
        if p.at(R_BRACE) || p.at(EOF) {
            break;
        }
        p.start_node(RESOURCE_BODY);
        expression(p);
        if p.expect(COLON, "after the resource title") {
            attribute_operations(p);
        }
        p.finish_node();
        if !p.eat(SEMICOLON) {
            break;
        }
    }
    if !p.eat(R_BRACE) {
        p.error_expected("',', ';' or '}'", "in the resource body");
        recover_to_closing(p, R_BRACE);
    }
    p.finish_node();
    RESOURCE_EXPR
}

/// `name => value, name +> value, * => hash` with an optional trailing comma.
/// Puppet's list of attribute operations may be empty, so one comma may
/// also stand before the first attribute (`{ 'x':, ensure => absent }`).
pub(crate) fn attribute_operations(p: &mut Parser) {
    p.eat(COMMA);
    while at_attribute(p, 0) {
        p.start_node(ATTRIBUTE);
        p.bump(); // name
        p.bump(); // => or +>
        expression(p);
        p.finish_node();
        if p.eat(COMMA) {
            continue;
        }
        if at_attribute(p, 0) {
            p.error("syntax error: expected ',' between attributes");
            continue;
        }
        break;
    }
}

/// `<| query |>` or `<<| query |>>`.
pub(crate) fn collect_query(p: &mut Parser) {
    p.start_node(COLLECT_QUERY);
    let close = if p.at(LCOLLECT) { RCOLLECT } else { RRCOLLECT };
    p.bump();
    if !p.at(close) {
        expression(p);
    }
    if !p.eat(close) {
        p.error_expected(close.describe(), "to end the collector query");
        recover_to_closing(p, close);
    }
    p.finish_node();
}
