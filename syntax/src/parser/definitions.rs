//! Definitions: classes, defined types, nodes, functions, plans, type
//! aliases and type definitions, parameter lists, EPP parameters, `apply`.

use super::expressions::{arg_list, block, expression, lambda, recover_to_closing, single};
use super::Parser;
use crate::syntax_kind::SyntaxKind::{self, *};

/// `<%- |$x, $y = 1| -%>` at the start of a template.
pub(crate) fn epp_parameters(p: &mut Parser) {
    if p.at(PIPE) {
        p.start_node(EPP_PARAMS);
        parameter_list(p, PIPE);
        p.finish_node();
    }
}

/// `(params)` or `|params|`.
pub(crate) fn parameter_list(p: &mut Parser, close: SyntaxKind) {
    p.start_node(PARAM_LIST);
    p.bump(); // `(` (either variant) or `|`
    loop {
        if p.at(close) || p.at(EOF) {
            break;
        }
        if !matches!(p.current(), VARIABLE | TYPE_REF | STAR) {
            break;
        }
        parameter(p, close);
        if !p.eat(COMMA) {
            break;
        }
    }
    if !p.eat(close) {
        p.error_expected(
            &format!("a parameter, ',' or {}", close.describe()),
            "in the parameter list",
        );
        if close == PIPE {
            // `|` does not nest; skip to it or to a brace.
            p.start_node(ERROR);
            while !p.at_any(&[PIPE, L_BRACE, R_BRACE, EOF]) {
                p.bump();
            }
            p.eat(PIPE);
            p.finish_node();
        } else {
            recover_to_closing(p, close);
        }
    }
    p.finish_node();
}

/// `Type[args] *$name = default`.
fn parameter(p: &mut Parser, close: SyntaxKind) {
    p.start_node(PARAM);
    if p.at(TYPE_REF) {
        type_expression(p);
    }
    p.eat(STAR);
    if p.at(VARIABLE) {
        p.bump();
        if p.eat(EQ) {
            expression(p);
        }
    } else {
        p.error_expected("a parameter variable like '$name'", "in the parameter list");
        p.start_node(ERROR);
        while !p.at_any(&[COMMA, close, L_BRACE, R_BRACE, EOF]) {
            p.bump();
        }
        p.finish_node();
    }
    p.finish_node();
}

/// `Type` or `Type[args]`: a type reference with optional parameters.
fn type_expression(p: &mut Parser) {
    let cp = p.checkpoint();
    single(p, TYPE_REFERENCE);
    if p.at(L_BRACK) {
        p.start_node_at(cp, ACCESS_EXPR);
        arg_list(p, L_BRACK, R_BRACK, true);
        p.finish_node();
    }
}

/// `>> Type[args]` return type of a function or lambda.
pub(crate) fn return_type(p: &mut Parser) {
    p.start_node(RETURN_TYPE);
    p.bump();
    if p.at(TYPE_REF) {
        type_expression(p);
    } else {
        p.error_expected("a type", "after '>>'");
    }
    p.finish_node();
}

/// The name of a class, define, function or plan.
fn definition_name(p: &mut Parser) {
    match p.current() {
        NAME | WORD | TYPE_REF => p.bump(),
        CLASS_KW => p.error_and_bump("'class' keyword not allowed at this location"),
        SQ_STRING => p.error_and_bump("a quoted string is not valid as a name here"),
        DQUOTE => {
            p.error("a quoted string is not valid as a name here");
            p.start_node(ERROR);
            super::expressions::assignment(p);
            p.finish_node();
        }
        _ => p.error_expected("a name", "for the definition"),
    }
}

fn optional_parameters(p: &mut Parser) {
    if p.at(L_PAREN) || p.at(L_PAREN_WS) {
        parameter_list(p, R_PAREN);
    }
}

/// `class name(params) inherits parent { ... }`.
pub(crate) fn class(p: &mut Parser) -> SyntaxKind {
    p.start_node(CLASS_DEF);
    p.bump();
    definition_name(p);
    optional_parameters(p);
    if p.at(INHERITS_KW) {
        p.start_node(INHERITS_CLAUSE);
        p.bump();
        match p.current() {
            NAME | WORD | TYPE_REF | DEFAULT_KW => p.bump(),
            _ => p.error_expected("a class name", "after 'inherits'"),
        }
        p.finish_node();
    }
    block(p, "for the class body");
    p.finish_node();
    CLASS_DEF
}

/// `define name(params) { ... }`.
pub(crate) fn define(p: &mut Parser) -> SyntaxKind {
    p.start_node(DEFINE_DEF);
    p.bump();
    definition_name(p);
    optional_parameters(p);
    block(p, "for the define body");
    p.finish_node();
    DEFINE_DEF
}

/// `function name(params) >> Type { ... }`.
pub(crate) fn function(p: &mut Parser) -> SyntaxKind {
    p.start_node(FUNCTION_DEF);
    p.bump();
    definition_name(p);
    optional_parameters(p);
    if p.at(SHR) {
        return_type(p);
    }
    block(p, "for the function body");
    p.finish_node();
    FUNCTION_DEF
}

/// `plan name(params) { ... }` (Bolt); `plan` is a name the caller checked.
pub(crate) fn plan(p: &mut Parser) -> SyntaxKind {
    p.start_node(PLAN_DEF);
    p.bump();
    definition_name(p);
    optional_parameters(p);
    block(p, "for the plan body");
    p.finish_node();
    PLAN_DEF
}

/// `apply(targets, options) { ... }` (Bolt), or a plain call of a function
/// named `apply` when no block follows.
pub(crate) fn apply_or_call(p: &mut Parser) -> SyntaxKind {
    let cp = p.checkpoint();
    single(p, QUALIFIED_NAME);
    arg_list(p, L_PAREN, R_PAREN, true);
    if p.at(L_BRACE) {
        p.start_node_at(cp, APPLY_EXPR);
        block(p, "for the apply body");
        p.finish_node();
        return APPLY_EXPR;
    }
    p.start_node_at(cp, CALL_EXPR);
    if p.at(PIPE) {
        lambda(p);
    }
    p.finish_node();
    CALL_EXPR
}

/// `node 'a', /b/, default inherits x { ... }`.
pub(crate) fn node(p: &mut Parser) -> SyntaxKind {
    p.start_node(NODE_DEF);
    p.bump();
    p.start_node(NODE_MATCHERS);
    loop {
        if !hostname(p) {
            break;
        }
        if !p.eat(COMMA) || p.at(L_BRACE) || p.at(INHERITS_KW) {
            break;
        }
    }
    p.finish_node();
    if p.at(INHERITS_KW) {
        p.start_node(INHERITS_CLAUSE);
        p.bump();
        hostname(p);
        p.finish_node();
    }
    block(p, "for the node body");
    p.finish_node();
    NODE_DEF
}

/// One node matcher; false (after reporting) if there is none.
fn hostname(p: &mut Parser) -> bool {
    match p.current() {
        NAME | NUMBER => {
            p.start_node(HOSTNAME);
            p.bump();
            while p.at(DOT) && matches!(p.nth(1), NAME | NUMBER) {
                p.bump();
                p.bump();
            }
            p.finish_node();
        }
        SQ_STRING => {
            single(p, SQ_STRING_EXPR);
        }
        WORD => {
            single(p, BARE_WORD);
        }
        DEFAULT_KW => {
            single(p, LITERAL);
        }
        REGEX => {
            single(p, REGEX_EXPR);
        }
        DQUOTE | HEREDOC_HEADER => {
            expression(p);
        }
        _ => {
            p.error_expected(
                "a node name, string, regular expression or 'default'",
                "in the node definition",
            );
            return false;
        }
    }
    true
}

/// `type Name = Type` (alias) or `type Name [inherits Parent] { ... }`.
pub(crate) fn type_alias_or_definition(p: &mut Parser) -> SyntaxKind {
    let cp = p.checkpoint();
    p.bump(); // type
    let name_is_plain_ref = p.at(TYPE_REF) && p.nth(1) != L_BRACK;
    if p.at(TYPE_REF) {
        type_expression(p);
    } else {
        p.error_expected(
            "a type name starting with an upper-case letter",
            "after 'type'",
        );
    }
    if name_is_plain_ref && (p.at(L_BRACE) || p.at(INHERITS_KW)) {
        p.start_node_at(cp, TYPE_DEF);
        if p.eat(INHERITS_KW) && !p.eat(TYPE_REF) {
            p.error_expected("a type name", "after 'inherits'");
        }
        block(p, "for the type definition");
        p.finish_node();
        return TYPE_DEF;
    }
    p.start_node_at(cp, TYPE_ALIAS);
    if p.expect(EQ, "after the type alias name") {
        if p.at(TYPE_REF) && p.nth(1) == L_BRACE {
            // `Object { ... }`: a type followed by its initialization hash.
            single(p, TYPE_REFERENCE);
            expression(p);
        } else {
            expression(p);
        }
    }
    p.finish_node();
    TYPE_ALIAS
}
