//! Statements and expressions, following Puppet 7's `egrammar.ra`:
//! assignment > relationship > resource > expression (binary operators by
//! precedence) > unary > postfix (access, call, method call, collector) >
//! primary.

use super::{definitions, resources, Parser};
use crate::syntax_kind::SyntaxKind::{self, *};

/// Names that can be called without parentheses (`include foo`), as in
/// Puppet's `Factory::STATEMENT_CALLS`.
pub(crate) const STATEMENT_CALLS: &[&str] = &[
    "require", "realize", "include", "contain", "tag", "debug", "info", "notice", "warning", "err",
    "fail", "import", "break", "next", "return",
];

/// A statement list: at top level (until the end) or in a block (until `}`).
pub(crate) fn statements(p: &mut Parser, in_block: bool) {
    let mut after_statement = false;
    loop {
        match p.current() {
            EOF => break,
            R_BRACE if in_block => break,
            SEMICOLON => {
                semicolon(p, after_statement);
                after_statement = false;
                continue;
            }
            R_BRACE => p.error_and_bump("unexpected '}': there is no open '{' to close"),
            _ if in_block && definition_at_line_start(p) && p.unclosed_brace_before() => break,
            _ if !can_start_expression(p.current()) => {
                let found = p.found();
                p.error_and_bump(format!("syntax error: {found} cannot start a statement"))
            }
            _ => {
                statement(p);
                after_statement = true;
                continue;
            }
        }
        after_statement = false;
    }
}

/// A class, define, node, function or type definition starting at column 0.
/// Inside a block whose `}` is missing, such a definition is taken to start
/// a new top-level definition, so the error stays local to the block.
fn definition_at_line_start(p: &Parser) -> bool {
    let definition = match p.current() {
        CLASS_KW => p.nth(1) != L_BRACE,
        DEFINE_KW | NODE_KW | FUNCTION_KW => true,
        TYPE_KW => p.nth(1) == TYPE_REF,
        _ => false,
    };
    definition && p.at_line_start()
}

/// Puppet's grammar has `;` only between two statements
/// (`statements SEMIC statement`): a leading, doubled or trailing `;`
/// (before `}` or the end of input) is a syntax error in Puppet 7.
fn semicolon(p: &mut Parser, after_statement: bool) {
    if after_statement && can_start_expression(p.nth(1)) {
        p.bump();
    } else {
        p.error_and_bump("syntax error: ';' must stand between two statements");
    }
}

fn statement(p: &mut Parser) {
    let cp = p.checkpoint();
    if p.at(NAME) && STATEMENT_CALLS.contains(&p.nth_text(0)) && starts_call_argument(p.nth(1)) {
        p.start_node_at(cp, STATEMENT_CALL);
        p.start_node(QUALIFIED_NAME);
        p.bump();
        p.finish_node();
        assignment(p);
        while p.eat(COMMA) {
            assignment(p);
        }
        p.finish_node();
        return;
    }
    let kind = assignment(p);
    if p.at(COMMA) {
        let message = if kind == Some(QUALIFIED_NAME) {
            "attempt to pass an argument list to a function that cannot be called without parentheses"
        } else {
            "illegal comma separated argument list"
        };
        p.error(message);
        p.start_node_at(cp, ERROR);
        while p.eat(COMMA) {
            assignment(p);
        }
        p.finish_node();
    }
}

/// Whether a token after a statement-call name starts its argument.
fn starts_call_argument(kind: SyntaxKind) -> bool {
    can_start_expression(kind) && !matches!(kind, L_PAREN | L_BRACE)
}

pub(crate) fn can_start_expression(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        VARIABLE
            | NAME
            | WORD
            | TYPE_REF
            | NUMBER
            | SQ_STRING
            | DQUOTE
            | HEREDOC_HEADER
            | REGEX
            | L_BRACK
            | L_BRACK_LIST
            | L_BRACE
            | L_PAREN
            | L_PAREN_WS
            | BANG
            | MINUS
            | STAR
            | AT
            | ATAT
            | TRUE_KW
            | FALSE_KW
            | UNDEF_KW
            | DEFAULT_KW
            | CASE_KW
            | IF_KW
            | UNLESS_KW
            | CLASS_KW
            | DEFINE_KW
            | NODE_KW
            | FUNCTION_KW
            | TYPE_KW
            | PRIVATE_KW
            | ATTR_KW
            | EPP_TEXT
            | EPP_RENDER_OPEN
    )
}

/// `assignment: relationship (('=' | '+=' | '-=') assignment)?`. Returns the
/// kind of the node produced (for callers that care about its shape).
pub(crate) fn assignment(p: &mut Parser) -> Option<SyntaxKind> {
    if !p.enter() {
        return None;
    }
    let cp = p.checkpoint();
    let mut kind = relationship(p);
    if p.at_any(&[EQ, PLUS_EQ, MINUS_EQ]) {
        p.start_node_at(cp, ASSIGNMENT_EXPR);
        p.bump();
        assignment(p);
        p.finish_node();
        kind = Some(ASSIGNMENT_EXPR);
    }
    p.leave();
    kind
}

fn relationship(p: &mut Parser) -> Option<SyntaxKind> {
    let cp = p.checkpoint();
    let mut kind = resources::resource(p);
    while p.at_any(&[IN_EDGE, IN_EDGE_SUB, OUT_EDGE, OUT_EDGE_SUB]) {
        if !p.can_wrap(cp) {
            break;
        }
        p.start_node_at(cp, RELATIONSHIP_EXPR);
        p.bump();
        resources::resource(p);
        p.finish_node();
        kind = Some(RELATIONSHIP_EXPR);
    }
    kind
}

/// One element of an argument list or array: an assignment, or adjacent
/// `key => value` entries, which Puppet merges into one hash. The keywords
/// `type` and `function` stand as hash keys and values, and alone only as
/// array elements.
pub(crate) fn argument(p: &mut Parser, in_array: bool) {
    if !starts_hash_entry(p) {
        let keyword_element =
            in_array && p.at_any(&[TYPE_KW, FUNCTION_KW]) && matches!(p.nth(1), COMMA | R_BRACK);
        if !keyword_element || !collection_keyword(p) {
            assignment(p);
        }
        return;
    }
    p.start_node(UNFOLDED_HASH);
    loop {
        let cp = p.checkpoint();
        if !collection_keyword(p) {
            assignment(p);
        }
        p.start_node_at(cp, HASH_ENTRY);
        p.expect(FAT_ARROW, "after a hash key");
        hash_value(p);
        p.finish_node();
        if !(p.at(COMMA) && starts_hash_entry_at(p, 1)) {
            break;
        }
        p.bump();
    }
    p.finish_node();
}

fn starts_hash_entry(p: &Parser) -> bool {
    starts_hash_entry_at(p, 0)
}

/// Whether the element starting at token `n` is `key => value`: a `=>`
/// before the element ends (at `,` or a closing bracket outside brackets).
fn starts_hash_entry_at(p: &Parser, n: usize) -> bool {
    let mut depth = 0u32;
    for i in n.. {
        match p.nth(i) {
            L_PAREN | L_PAREN_WS | L_BRACK | L_BRACK_LIST | L_BRACE | DOLLAR_BRACE | LCOLLECT
            | LLCOLLECT => depth += 1,
            R_PAREN | R_BRACK | R_BRACE | INTERP_CLOSE | RCOLLECT | RRCOLLECT => {
                if depth == 0 {
                    return false;
                }
                depth -= 1;
            }
            FAT_ARROW if depth == 0 => return true,
            COMMA | SEMICOLON if depth == 0 => return false,
            EOF => return false,
            _ => {}
        }
    }
    false
}

/// `type` and `function` may stand as values in arrays and hashes.
fn collection_keyword(p: &mut Parser) -> bool {
    if p.at_any(&[TYPE_KW, FUNCTION_KW])
        && matches!(p.nth(1), COMMA | R_BRACK | FAT_ARROW | R_BRACE | R_PAREN)
    {
        p.start_node(LITERAL);
        p.bump();
        p.finish_node();
        return true;
    }
    false
}

fn hash_value(p: &mut Parser) {
    if !collection_keyword(p) {
        assignment(p);
    }
}

/// Left binding power of a binary operator (higher binds tighter).
fn binary_op(kind: SyntaxKind) -> Option<u8> {
    Some(match kind {
        OR_KW => 1,
        AND_KW => 2,
        QUESTION => 3,
        LT | LTEQ | GT | GTEQ => 4,
        EQ2 | NEQ => 5,
        SHL | SHR => 6,
        PLUS | MINUS => 7,
        STAR | SLASH | PERCENT => 8,
        MATCH | NOMATCH => 9,
        IN_KW => 10,
        _ => return None,
    })
}

/// An expression with binary operators (no assignment, relationship or
/// resource at the top).
pub(crate) fn expression(p: &mut Parser) -> Option<SyntaxKind> {
    expression_bp(p, 1)
}

fn expression_bp(p: &mut Parser, min_bp: u8) -> Option<SyntaxKind> {
    if !p.enter() {
        return None;
    }
    let cp = p.checkpoint();
    let mut kind = unary(p);
    while let Some(bp) = binary_op(p.current()) {
        if bp < min_bp || !p.can_wrap(cp) {
            break;
        }
        if p.at(QUESTION) {
            p.start_node_at(cp, SELECTOR_EXPR);
            p.bump();
            selector_entries(p);
            p.finish_node();
            kind = Some(SELECTOR_EXPR);
            continue;
        }
        p.start_node_at(cp, BINARY_EXPR);
        p.bump();
        expression_bp(p, bp + 1);
        p.finish_node();
        kind = Some(BINARY_EXPR);
    }
    p.leave();
    kind
}

fn selector_entries(p: &mut Parser) {
    if p.eat(L_BRACE) {
        loop {
            if p.at(R_BRACE) || p.at(EOF) {
                break;
            }
            selector_entry(p);
            if !p.eat(COMMA) {
                break;
            }
        }
        if !p.eat(R_BRACE) {
            p.error_expected("',' or '}'", "in the selector");
            recover_to_closing(p, R_BRACE);
        }
    } else {
        selector_entry(p);
    }
}

fn selector_entry(p: &mut Parser) {
    p.start_node(SELECTOR_ENTRY);
    expression(p);
    if p.expect(FAT_ARROW, "after a selector option") {
        expression(p);
    }
    p.finish_node();
}

fn unary(p: &mut Parser) -> Option<SyntaxKind> {
    if p.at_any(&[BANG, MINUS, STAR]) {
        if !p.enter() {
            return None;
        }
        p.start_node(UNARY_EXPR);
        p.bump();
        unary(p);
        p.finish_node();
        p.leave();
        return Some(UNARY_EXPR);
    }
    postfix(p)
}

fn postfix(p: &mut Parser) -> Option<SyntaxKind> {
    let cp = p.checkpoint();
    let mut kind = primary(p)?;
    loop {
        let postfix_op = matches!(p.current(), L_BRACK | L_PAREN | DOT | LCOLLECT | LLCOLLECT);
        if postfix_op && !p.can_wrap(cp) {
            break;
        }
        match p.current() {
            L_BRACK => {
                p.start_node_at(cp, ACCESS_EXPR);
                arg_list(p, L_BRACK, R_BRACK, true);
                p.finish_node();
                kind = ACCESS_EXPR;
            }
            L_PAREN => {
                p.start_node_at(cp, CALL_EXPR);
                arg_list(p, L_PAREN, R_PAREN, true);
                if p.at(PIPE) {
                    lambda(p);
                }
                p.finish_node();
                kind = CALL_EXPR;
            }
            DOT => {
                p.start_node_at(cp, METHOD_CALL_EXPR);
                p.bump();
                if p.at(NAME) || p.at(TYPE_KW) {
                    p.bump();
                } else {
                    p.error_expected("a function name", "after '.'");
                }
                if p.at(L_PAREN) {
                    arg_list(p, L_PAREN, R_PAREN, false);
                }
                if p.at(PIPE) {
                    lambda(p);
                }
                p.finish_node();
                kind = METHOD_CALL_EXPR;
            }
            LCOLLECT | LLCOLLECT => {
                p.start_node_at(cp, COLLECTOR);
                resources::collect_query(p);
                if p.at(L_BRACE) {
                    p.bump();
                    resources::attribute_operations(p);
                    if !p.eat(R_BRACE) {
                        p.error_expected("',' or '}'", "after the collector's attributes");
                        recover_to_closing(p, R_BRACE);
                    }
                }
                p.finish_node();
                kind = COLLECTOR;
            }
            _ => break,
        }
    }
    Some(kind)
}

/// `(args)` or `[args]`: arguments (assignments or `k => v`) separated by
/// commas; a trailing comma only where Puppet allows one.
pub(crate) fn arg_list(p: &mut Parser, open: SyntaxKind, close: SyntaxKind, trailing_comma: bool) {
    if !p.enter() {
        return;
    }
    p.start_node(ARG_LIST);
    debug_assert!(p.at(open) || open == L_PAREN);
    p.bump();
    loop {
        if p.at(close) || p.at(EOF) {
            break;
        }
        if !can_start_expression(p.current()) {
            break;
        }
        argument(p, false);
        if p.at(COMMA) {
            let comma = p.current_range();
            p.bump();
            if p.at(close) && !trailing_comma {
                p.error_at(
                    comma,
                    "a trailing comma is not allowed in method call arguments",
                );
            }
        } else {
            break;
        }
    }
    if !p.eat(close) {
        p.error_expected(
            &format!("',' or {}", close.describe()),
            "in the argument list",
        );
        recover_to_closing(p, close);
    }
    p.finish_node();
    p.leave();
}

/// After an error inside brackets: skips to the closing token (consuming
/// it) unless a token that clearly belongs outside comes first.
pub(crate) fn recover_to_closing(p: &mut Parser, close: SyntaxKind) {
    p.start_node(ERROR);
    let mut depth = 0u32;
    loop {
        let kind = p.current();
        match kind {
            EOF => break,
            L_BRACK | L_BRACK_LIST | L_PAREN | L_PAREN_WS | L_BRACE => depth += 1,
            R_BRACK | R_PAREN | R_BRACE if depth > 0 => depth -= 1,
            _ if kind == close && depth == 0 => {
                p.bump();
                break;
            }
            // A closer of an outer construct: stop without consuming it.
            R_BRACK | R_PAREN | R_BRACE | INTERP_CLOSE | EPP_RENDER_CLOSE => break,
            CLASS_KW | DEFINE_KW | NODE_KW if depth == 0 => break,
            _ => {}
        }
        p.bump();
    }
    p.finish_node();
}

/// `|params| >> Type { statements }`.
pub(crate) fn lambda(p: &mut Parser) {
    p.start_node(LAMBDA);
    definitions::parameter_list(p, PIPE);
    if p.at(SHR) {
        definitions::return_type(p);
    }
    block(p, "for the lambda body");
    p.finish_node();
}

/// `{ statements }` as a `BLOCK` node.
pub(crate) fn block(p: &mut Parser, context: &str) {
    if !p.enter() {
        return;
    }
    p.start_node(BLOCK);
    if p.expect(L_BRACE, context) {
        statements(p, true);
        if !p.eat(R_BRACE) {
            p.error_expected("'}'", context);
        }
    }
    p.finish_node();
    p.leave();
}

fn primary(p: &mut Parser) -> Option<SyntaxKind> {
    if std::mem::take(&mut p.interpolated_name_is_variable) {
        return Some(single(p, VARIABLE_EXPR));
    }
    let kind = match p.current() {
        VARIABLE => single(p, VARIABLE_EXPR),
        NUMBER | TRUE_KW | FALSE_KW | UNDEF_KW | DEFAULT_KW => single(p, LITERAL),
        NAME => match p.nth_text(0) {
            "plan"
                if matches!(p.nth(1), NAME | WORD | TYPE_REF)
                    && matches!(p.nth(2), L_PAREN | L_PAREN_WS | L_BRACE) =>
            {
                definitions::plan(p)
            }
            "apply" if p.nth(1) == L_PAREN => definitions::apply_or_call(p),
            _ => single(p, QUALIFIED_NAME),
        },
        WORD => single(p, BARE_WORD),
        TYPE_REF => single(p, TYPE_REFERENCE),
        SQ_STRING => single(p, SQ_STRING_EXPR),
        REGEX => single(p, REGEX_EXPR),
        HEREDOC_HEADER => single(p, HEREDOC_EXPR),
        PRIVATE_KW | ATTR_KW => single(p, RESERVED_WORD),
        EPP_TEXT => render_string(p),
        DQUOTE => double_quoted_string(p),
        L_BRACK | L_BRACK_LIST => array(p),
        L_BRACE => hash(p),
        L_PAREN | L_PAREN_WS => parenthesized(p),
        CASE_KW => case(p),
        IF_KW => if_expr(p),
        UNLESS_KW => unless_expr(p),
        CLASS_KW if p.nth(1) == L_BRACE => {
            // `class { 'x': }` outside a statement position.
            return resources::resource(p);
        }
        CLASS_KW => definitions::class(p),
        DEFINE_KW => definitions::define(p),
        NODE_KW => definitions::node(p),
        FUNCTION_KW => definitions::function(p),
        TYPE_KW if p.nth(1) == L_PAREN => single(p, QUALIFIED_NAME),
        TYPE_KW => definitions::type_alias_or_definition(p),
        EPP_RENDER_OPEN => render_expression(p),
        AT | ATAT => return resources::resource(p),
        _ => {
            let found = p.found();
            p.error(format!(
                "syntax error: expected an expression, found {found}"
            ));
            if !matches!(
                p.current(),
                EOF | R_BRACE
                    | R_BRACK
                    | R_PAREN
                    | SEMICOLON
                    | COMMA
                    | FAT_ARROW
                    | INTERP_CLOSE
                    | EPP_RENDER_CLOSE
                    | COLON
            ) {
                p.start_node(ERROR);
                p.bump();
                p.finish_node();
            }
            return None;
        }
    };
    Some(kind)
}

/// Template text: one string for Puppet even when comments split it.
fn render_string(p: &mut Parser) -> SyntaxKind {
    p.start_node(RENDER_STRING);
    while p.next_text_continues() {
        p.bump();
    }
    p.bump();
    p.finish_node();
    RENDER_STRING
}

/// A node around the single current token.
pub(crate) fn single(p: &mut Parser, kind: SyntaxKind) -> SyntaxKind {
    p.start_node(kind);
    p.bump();
    p.finish_node();
    kind
}

fn double_quoted_string(p: &mut Parser) -> SyntaxKind {
    p.start_node(DQ_STRING_EXPR);
    p.bump();
    loop {
        match p.current() {
            STRING_TEXT => p.bump(),
            VARIABLE | DOLLAR_BRACE => interpolation(p),
            DQUOTE => {
                p.bump();
                break;
            }
            // Unclosed string: the lexer has reported it.
            _ => break,
        }
    }
    p.finish_node();
    DQ_STRING_EXPR
}

/// `$x` or `${ expr }` inside a string or heredoc body.
pub(crate) fn interpolation(p: &mut Parser) {
    p.start_node(INTERPOLATION);
    if p.at(VARIABLE) {
        p.bump();
        p.finish_node();
        return;
    }
    p.bump(); // ${
    if p.at(INTERP_CLOSE) {
        p.error("empty interpolation: expected an expression inside '${}'");
    } else if p.enter() {
        let first = p.current();
        p.interpolated_name_is_variable = (matches!(first, NAME | WORD | NUMBER)
            || first.is_keyword())
            && matches!(p.nth(1), INTERP_CLOSE | DOT | L_BRACK);
        assignment(p);
        p.interpolated_name_is_variable = false;
        p.leave();
    }
    if !p.at(INTERP_CLOSE) && !p.at(EOF) {
        p.error_expected("'}'", "to end the interpolation");
        p.start_node(ERROR);
        while !p.at(INTERP_CLOSE) && !p.at(EOF) {
            p.bump();
        }
        p.finish_node();
    }
    p.eat(INTERP_CLOSE);
    p.finish_node();
}

fn array(p: &mut Parser) -> SyntaxKind {
    if !p.enter() {
        return ARRAY_EXPR;
    }
    p.start_node(ARRAY_EXPR);
    p.bump();
    loop {
        if p.at(R_BRACK) || p.at(EOF) || !can_start_expression(p.current()) {
            break;
        }
        argument(p, true);
        if !p.eat(COMMA) {
            break;
        }
    }
    if !p.eat(R_BRACK) {
        p.error_expected("',' or ']'", "in the array");
        recover_to_closing(p, R_BRACK);
    }
    p.finish_node();
    p.leave();
    ARRAY_EXPR
}

pub(crate) fn hash(p: &mut Parser) -> SyntaxKind {
    if !p.enter() {
        return HASH_EXPR;
    }
    p.start_node(HASH_EXPR);
    p.bump();
    loop {
        if p.at(R_BRACE) || p.at(EOF) || !can_start_expression(p.current()) {
            break;
        }
        p.start_node(HASH_ENTRY);
        hash_value(p);
        if p.expect(FAT_ARROW, "after a hash key") {
            hash_value(p);
        }
        p.finish_node();
        if !p.eat(COMMA) {
            break;
        }
    }
    if !p.eat(R_BRACE) {
        p.error_expected("',' or '}'", "in the hash");
        recover_to_closing(p, R_BRACE);
    }
    p.finish_node();
    p.leave();
    HASH_EXPR
}

fn parenthesized(p: &mut Parser) -> SyntaxKind {
    p.start_node(PAREN_EXPR);
    p.bump();
    assignment(p);
    if !p.eat(R_PAREN) {
        p.error_expected("')'", "to close the parenthesis");
        recover_to_closing(p, R_PAREN);
    }
    p.finish_node();
    PAREN_EXPR
}

fn case(p: &mut Parser) -> SyntaxKind {
    p.start_node(CASE_EXPR);
    p.bump();
    expression(p);
    if p.expect(L_BRACE, "after the case expression") {
        let mut options = 0;
        loop {
            if p.at(R_BRACE) || p.at(EOF) {
                break;
            }
            if !can_start_expression(p.current()) {
                let found = p.found();
                p.error_and_bump(format!(
                    "syntax error: expected a case option, found {found}"
                ));
                continue;
            }
            options += 1;
            p.start_node(CASE_OPTION);
            expression(p);
            while p.eat(COMMA) {
                expression(p);
            }
            if p.expect(COLON, "after the case option values") {
                block(p, "for the case option");
            }
            p.finish_node();
        }
        if options == 0 {
            p.error("a case expression needs at least one option");
        }
        p.expect(R_BRACE, "to close the case expression");
    }
    p.finish_node();
    CASE_EXPR
}

fn if_expr(p: &mut Parser) -> SyntaxKind {
    p.start_node(IF_EXPR);
    p.bump();
    expression(p);
    block(p, "for the if body");
    loop {
        if p.at(ELSIF_KW) {
            p.start_node(ELSIF_BRANCH);
            p.bump();
            expression(p);
            block(p, "for the elsif body");
            p.finish_node();
        } else if p.at(ELSE_KW) {
            p.start_node(ELSE_BRANCH);
            p.bump();
            block(p, "for the else body");
            p.finish_node();
            break;
        } else {
            break;
        }
    }
    p.finish_node();
    IF_EXPR
}

fn unless_expr(p: &mut Parser) -> SyntaxKind {
    p.start_node(UNLESS_EXPR);
    p.bump();
    expression(p);
    block(p, "for the unless body");
    if p.at(ELSIF_KW) {
        p.error("'unless' cannot have an 'elsif' branch");
        p.start_node(ELSIF_BRANCH);
        p.bump();
        expression(p);
        block(p, "for the elsif body");
        p.finish_node();
    }
    if p.at(ELSE_KW) {
        p.start_node(ELSE_BRANCH);
        p.bump();
        block(p, "for the else body");
        p.finish_node();
    }
    p.finish_node();
    UNLESS_EXPR
}

/// `<%= expr %>` in a template.
fn render_expression(p: &mut Parser) -> SyntaxKind {
    p.start_node(RENDER_EXPR);
    p.bump();
    if p.at(L_BRACE) {
        block(p, "in the render expression");
    } else {
        expression(p);
    }
    if !p.eat(EPP_RENDER_CLOSE) {
        p.error_expected("'%>'", "to end the render expression");
        p.start_node(ERROR);
        while !p.at(EPP_RENDER_CLOSE) && !p.at(EOF) {
            p.bump();
        }
        p.eat(EPP_RENDER_CLOSE);
        p.finish_node();
    }
    p.finish_node();
    RENDER_EXPR
}
