//! What is expected at the cursor, read from the tree and the tokens
//! before it.
//!
//! Code being typed is incomplete (`file { '/x': ens`, `include foo::`),
//! and the parser's recovery puts the partial word in an `ERROR` node or in
//! the wrong construct. So the context is decided mostly by the previous
//! significant token and the nodes *it* belongs to, which are complete.

use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};

/// The context of a completion request.
pub(crate) struct Context {
    pub kind: ContextKind,
    /// What an item replaces (see `CompletionItem::replace_range`).
    pub replace: TextRange,
    /// The text of `replace` before the cursor (the typed prefix).
    pub prefix: String,
    pub offset: TextSize,
    /// The cursor is between quotes: items insert no quotes of their own.
    pub in_string: bool,
}

/// How a class name is written where it is completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ClassNameStyle {
    /// `include ntp`, `inherits ntp`.
    Bare,
    /// Inside quotes already: `include 'ntp'`, `Class['ntp']`.
    InString,
    /// A resource title: `class { 'ntp': }`.
    Title,
    /// An access key to quote: `Class[ntp]` -> `Class['ntp']`.
    Quoted,
}

/// The resource (or class) whose attributes are being written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ResourceTarget {
    /// The lower-case resource type name (`file`, `mymod::vhost`), or the
    /// class name for `class { 'name': }`.
    pub name: String,
    pub is_class: bool,
    /// Attributes already written in the body.
    pub present: Vec<String>,
}

pub(crate) enum ContextKind {
    /// `$x`, `"$x"`; `braced` for `"${x}"`, where items go without `$`.
    Variable {
        braced: bool,
    },
    /// `branches`: the keywords that may continue the conditional the
    /// previous statement closed (`else`, `elsif`).
    StatementStart {
        branches: &'static [&'static str],
    },
    Expression,
    TypeName,
    ClassName(ClassNameStyle),
    AttributeName(ResourceTarget),
    AttributeValue(ResourceTarget, String),
    /// A key of `x[...]`; `quoted` when the cursor is inside quotes.
    AccessKey {
        access: ast::AccessExpr,
        quoted: bool,
    },
}

use SyntaxKind::*;

/// Decides the context at `offset` (`None`: nothing to complete, as in
/// comments, template text, or inside an operator).
pub(crate) fn analyze(root: &SyntaxNode, offset: TextSize) -> Option<Context> {
    let left = if offset == TextSize::from(0) {
        if root.first_token().is_some_and(|t| t.kind() == EPP_TEXT) {
            return None;
        }
        None
    } else {
        root.token_at_offset(offset).left_biased()
    };
    if let Some(token) = &left {
        if in_comment_or_text(token, offset) {
            return None;
        }
        if let Some(context) = string_context(token, offset) {
            return context;
        }
    }
    let word = left.as_ref().and_then(|t| word_at(t, offset));
    let replace = word
        .as_ref()
        .map_or(TextRange::empty(offset), |(range, _)| *range);
    let prefix = prefix_of(root, replace, offset);
    let make = |kind| {
        Some(Context {
            kind,
            replace,
            prefix: prefix.clone(),
            offset,
            in_string: false,
        })
    };
    if word.is_none() && left.as_ref().is_some_and(|t| inside_non_word(t, offset)) {
        return None;
    }
    let word_kind = word.as_ref().map(|(_, kind)| *kind);
    if word_kind == Some(VARIABLE) {
        return make(ContextKind::Variable { braced: false });
    }
    let prev = previous_significant(root, replace.start());
    if let Some(prev) = &prev {
        if prev.kind() == DOLLAR_BRACE && word_kind.is_none_or(|k| k == NAME) {
            return make(ContextKind::Variable { braced: true });
        }
    }
    let newline_before = prev.as_ref().is_some_and(|p| {
        let start = p.text_range().end();
        let end = replace.start();
        start <= end && root.text_range().contains_range(TextRange::new(start, end)) && {
            let gap = root.text().slice(TextRange::new(start, end)).to_string();
            gap.contains('\n')
        }
    });
    if let Some(kind) = prev
        .as_ref()
        .and_then(|p| after_token(p, word.as_ref(), newline_before, offset))
    {
        return make(kind);
    }
    if word_kind == Some(TYPE_REF) {
        return make(ContextKind::TypeName);
    }
    if !matches!(word_kind, None | Some(NAME)) && !word_kind.is_some_and(SyntaxKind::is_keyword) {
        return None;
    }
    match &prev {
        None => make(ContextKind::StatementStart { branches: &[] }),
        Some(p) if starts_statement(p, newline_before) => make(ContextKind::StatementStart {
            branches: branch_keywords(p),
        }),
        Some(p) if ends_expression(p.kind()) => None,
        Some(_) => make(ContextKind::Expression),
    }
}

/// Comments and EPP template text (up to the next `<%`) offer nothing.
fn in_comment_or_text(token: &SyntaxToken, offset: TextSize) -> bool {
    let range = token.text_range();
    match token.kind() {
        EPP_CLOSE | EPP_RENDER_CLOSE | EPP_TEXT => true,
        COMMENT => offset > range.start(),
        BLOCK_COMMENT => {
            offset > range.start() && (offset < range.end() || !token.text().ends_with("*/"))
        }
        EPP_COMMENT => offset > range.start() && offset < range.end(),
        _ => false,
    }
}

/// The word the cursor is in or just after: its range and token kind.
/// `foo::` (a name then a lone `::`) counts as one word.
fn word_at(token: &SyntaxToken, offset: TextSize) -> Option<(TextRange, SyntaxKind)> {
    let kind = token.kind();
    if offset <= token.text_range().start() {
        return None;
    }
    if matches!(kind, NAME | WORD | TYPE_REF | VARIABLE) || kind.is_keyword() {
        return Some((token.text_range(), kind));
    }
    if kind == UNKNOWN && token.text() == "::" {
        let before = token.prev_token()?;
        if matches!(before.kind(), NAME | TYPE_REF | VARIABLE)
            && before.text_range().end() == token.text_range().start()
        {
            let range = TextRange::new(before.text_range().start(), token.text_range().end());
            return Some((range, before.kind()));
        }
    }
    None
}

/// The cursor is strictly inside a token that is not a word (`=|>`).
fn inside_non_word(token: &SyntaxToken, offset: TextSize) -> bool {
    let range = token.text_range();
    !token.kind().is_trivia() && offset > range.start() && offset < range.end()
}

fn prefix_of(root: &SyntaxNode, replace: TextRange, offset: TextSize) -> String {
    let end = offset.min(replace.end()).max(replace.start());
    let range = TextRange::new(replace.start(), end);
    if root.text_range().contains_range(range) {
        root.text().slice(range).to_string()
    } else {
        String::new()
    }
}

/// The last non-trivia token ending at or before `offset`.
fn previous_significant(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    if offset == TextSize::from(0) {
        return None;
    }
    let mut token = root.token_at_offset(offset).left_biased()?;
    loop {
        if !token.kind().is_trivia() && token.text_range().end() <= offset {
            return Some(token);
        }
        token = token.prev_token()?;
    }
}

/// Tokens after which no new expression starts on the same line.
fn ends_expression(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        NAME | WORD
            | TYPE_REF
            | VARIABLE
            | NUMBER
            | SQ_STRING
            | DQUOTE
            | REGEX
            | HEREDOC_HEADER
            | R_PAREN
            | R_BRACK
            | R_BRACE
            | TRUE_KW
            | FALSE_KW
            | UNDEF_KW
            | DEFAULT_KW
    )
}

fn starts_statement(prev: &SyntaxToken, newline_before: bool) -> bool {
    let parent = prev.parent().map(|p| p.kind());
    match prev.kind() {
        // `;` between the bodies of a resource comes before a title.
        SEMICOLON => parent != Some(RESOURCE_EXPR),
        L_BRACE => matches!(parent, Some(BLOCK | SOURCE_FILE)),
        R_BRACE => parent != Some(HASH_EXPR),
        EPP_TEXT | EPP_RENDER_CLOSE => true,
        kind => newline_before && ends_expression(kind),
    }
}

/// After the `}` of an `if`, `elsif` or `unless` block: what may follow.
fn branch_keywords(prev: &SyntaxToken) -> &'static [&'static str] {
    let conditional = prev
        .parent()
        .filter(|p| prev.kind() == R_BRACE && p.kind() == BLOCK)
        .and_then(|block| block.parent());
    match conditional.map(|c| c.kind()) {
        Some(IF_EXPR | ELSIF_BRANCH) => &["else", "elsif"],
        Some(UNLESS_EXPR) => &["else"],
        _ => &[],
    }
}

/// Contexts decided by the token before the word.
fn after_token(
    prev: &SyntaxToken,
    word: Option<&(TextRange, SyntaxKind)>,
    newline_before: bool,
    offset: TextSize,
) -> Option<ContextKind> {
    let parent = prev.parent()?;
    let word_kind = word.map(|(_, kind)| *kind);
    let bare_word =
        matches!(word_kind, None | Some(NAME)) || word_kind.is_some_and(|k| k.is_keyword());
    match prev.kind() {
        FAT_ARROW | PLUS_ARROW if parent.kind() == ATTRIBUTE => {
            let attribute = ast::Attribute::cast(parent.clone())?;
            let target = resource_target(&parent, offset)?;
            return Some(ContextKind::AttributeValue(target, attribute.name()?));
        }
        COLON | COMMA if parent.kind() == RESOURCE_BODY && bare_word => {
            return resource_target(&parent, offset).map(ContextKind::AttributeName);
        }
        // `name {` without a title yet parses as defaults of a lower-case
        // name: a title comes first (a class name for `class {`).
        L_BRACE
            if matches!(parent.kind(), RESOURCE_EXPR | RESOURCE_DEFAULTS)
                && parent
                    .first_child()
                    .is_some_and(|n| n.kind() == QUALIFIED_NAME)
                && bare_word =>
        {
            let is_class = parent.first_token().is_some_and(|t| t.kind() == CLASS_KW);
            return is_class.then_some(ContextKind::ClassName(ClassNameStyle::Title));
        }
        L_BRACE | COMMA
            if matches!(
                parent.kind(),
                RESOURCE_DEFAULTS | RESOURCE_OVERRIDE | COLLECTOR
            ) && bare_word =>
        {
            return resource_target(&parent, offset).map(ContextKind::AttributeName);
        }
        INHERITS_KW if bare_word => return Some(ContextKind::ClassName(ClassNameStyle::Bare)),
        NAME if bare_word && is_class_function_name(prev) => {
            return Some(ContextKind::ClassName(ClassNameStyle::Bare));
        }
        COMMA if parent.kind() == STATEMENT_CALL && bare_word => {
            let call = ast::StatementCall::cast(parent)?;
            return call
                .name()
                .is_some_and(|n| is_class_function(&n))
                .then_some(ContextKind::ClassName(ClassNameStyle::Bare));
        }
        L_BRACK | L_BRACK_LIST | COMMA if parent.kind() == ARG_LIST => {
            if let Some(access) = parent.parent().and_then(ast::AccessExpr::cast) {
                return Some(access_context(access, false));
            }
        }
        MATCH | NOMATCH => return Some(ContextKind::TypeName),
        L_PAREN | L_PAREN_WS | PIPE | COMMA if parent.kind() == PARAM_LIST => {
            return Some(ContextKind::TypeName)
        }
        EQ if parent.kind() == TYPE_ALIAS => return Some(ContextKind::TypeName),
        SHR if parent.kind() == RETURN_TYPE => return Some(ContextKind::TypeName),
        _ => {}
    }
    // A new attribute on the line after one without its trailing comma.
    if newline_before && bare_word && ends_expression(prev.kind()) {
        let attribute = prev.parent_ancestors().find(|n| n.kind() == ATTRIBUTE)?;
        let body = attribute.parent()?;
        if matches!(
            body.kind(),
            RESOURCE_BODY | RESOURCE_DEFAULTS | RESOURCE_OVERRIDE | COLLECTOR
        ) && attribute.text_range().end() == prev.text_range().end()
        {
            return resource_target(&body, offset).map(ContextKind::AttributeName);
        }
    }
    None
}

/// `x[...]`: a type's parameters, `Class[...]` class names, or keys.
fn access_context(access: ast::AccessExpr, quoted: bool) -> ContextKind {
    match access.target() {
        Some(Expr::TypeReference(t)) if t.name().eq_ignore_ascii_case("class") => {
            ContextKind::ClassName(if quoted {
                ClassNameStyle::InString
            } else {
                ClassNameStyle::Quoted
            })
        }
        Some(Expr::TypeReference(_)) if !quoted => ContextKind::TypeName,
        _ => ContextKind::AccessKey { access, quoted },
    }
}

fn is_class_function(name: &str) -> bool {
    matches!(name, "include" | "contain" | "require")
}

/// `include` as the name of a statement call (or a call being typed).
fn is_class_function_name(token: &SyntaxToken) -> bool {
    if !is_class_function(token.text()) {
        return false;
    }
    let Some(name) = token.parent().filter(|p| p.kind() == QUALIFIED_NAME) else {
        return false;
    };
    match name.parent().map(|p| p.kind()) {
        Some(STATEMENT_CALL) => name
            .parent()
            .and_then(ast::StatementCall::cast)
            .and_then(|c| c.name_expr())
            .is_some_and(|n| n.syntax() == &name),
        Some(kind) => kind != ATTRIBUTE && kind != HASH_ENTRY,
        None => false,
    }
}

/// The resource, defaults, override or collector a token or node is in.
/// Attributes whose name the cursor is on are not counted as present.
pub(crate) fn resource_target(node: &SyntaxNode, cursor: TextSize) -> Option<ResourceTarget> {
    let holder = node.ancestors().find(|n| {
        matches!(
            n.kind(),
            RESOURCE_BODY | RESOURCE_EXPR | RESOURCE_DEFAULTS | RESOURCE_OVERRIDE | COLLECTOR
        )
    })?;
    let attributes = |n: &SyntaxNode| -> Vec<String> {
        n.children()
            .filter_map(ast::Attribute::cast)
            .filter_map(|a| a.name_token())
            .filter(|t| !t.text_range().contains_inclusive(cursor))
            .map(|t| t.text().to_string())
            .collect()
    };
    let type_of = |expr: Option<Expr>| -> Option<String> {
        match expr? {
            Expr::TypeReference(t) => Some(t.name().trim_start_matches("::").to_lowercase()),
            Expr::QualifiedName(n) => Some(n.name().trim_start_matches("::").to_lowercase()),
            Expr::AccessExpr(a) => match a.target()? {
                Expr::TypeReference(t) => Some(t.name().trim_start_matches("::").to_lowercase()),
                _ => None,
            },
            _ => None,
        }
    };
    match holder.kind() {
        RESOURCE_BODY => {
            let body = ast::ResourceBody::cast(holder.clone())?;
            let resource = ast::ResourceExpr::cast(holder.parent()?)?;
            let name = resource.type_name()?;
            if name == "class" {
                let class = body.title()?.static_string()?;
                return Some(ResourceTarget {
                    name: class.trim_start_matches("::").to_lowercase(),
                    is_class: true,
                    present: attributes(&holder),
                });
            }
            Some(ResourceTarget {
                name: name.trim_start_matches("::").to_string(),
                is_class: false,
                present: attributes(&holder),
            })
        }
        RESOURCE_DEFAULTS => Some(ResourceTarget {
            name: type_of(ast::ResourceDefaults::cast(holder.clone())?.type_expr())?,
            is_class: false,
            present: attributes(&holder),
        }),
        RESOURCE_OVERRIDE => Some(ResourceTarget {
            name: type_of(ast::ResourceOverride::cast(holder.clone())?.target())?,
            is_class: false,
            present: attributes(&holder),
        }),
        COLLECTOR => Some(ResourceTarget {
            name: type_of(ast::Collector::cast(holder.clone())?.type_expr())?,
            is_class: false,
            present: attributes(&holder),
        }),
        _ => None,
    }
}

/// Completion inside a string: `$x` in double-quoted text, `${x`, class
/// names (`include 'ntp'`, `class { 'ntp': }`, `Class['ntp']`) and access
/// keys (`$facts['os']`). `Some(None)` when inside a string that offers
/// nothing; `None` when the cursor is not in a string.
fn string_context(token: &SyntaxToken, offset: TextSize) -> Option<Option<Context>> {
    let range = token.text_range();
    let text = token.text();
    let make = |kind: ContextKind, replace: TextRange| {
        let kind_in_string = !matches!(kind, ContextKind::Variable { .. });
        let start: usize = (replace.start() - range.start()).into();
        let end: usize = (offset.min(replace.end()) - range.start()).into();
        Some(Some(Context {
            kind,
            replace,
            prefix: text.get(start..end.max(start)).unwrap_or("").to_string(),
            offset,
            in_string: kind_in_string,
        }))
    };
    match token.kind() {
        SQ_STRING => {
            let terminated = text.len() >= 2 && text.ends_with('\'');
            if offset <= range.start() || (terminated && offset >= range.end()) {
                return None;
            }
            let end = if terminated {
                range.end() - TextSize::from(1)
            } else {
                range.end()
            };
            let content = TextRange::new(
                range.start() + TextSize::from(1),
                end.max(range.start() + TextSize::from(1)),
            );
            let string = token.parent()?;
            Some(string_owner(&string, offset).and_then(|kind| make(kind, content)?))
        }
        STRING_TEXT | HEREDOC_TEXT => {
            if let Some(start) = dollar_word_start(text, offset - range.start()) {
                let replace = TextRange::new(range.start() + start, offset);
                return make(ContextKind::Variable { braced: false }, replace);
            }
            let string = token.parent().filter(|p| p.kind() == DQ_STRING_EXPR);
            Some(string.and_then(|s| dq_content(&s, offset)))
        }
        DQUOTE => {
            let string = token.parent()?;
            let opening = string.first_token().is_some_and(|t| &t == token);
            if !opening || offset != range.end() {
                return None;
            }
            Some(dq_content(&string, offset))
        }
        DOLLAR_BRACE if offset == range.end() => make(
            ContextKind::Variable { braced: true },
            TextRange::empty(offset),
        ),
        _ => None,
    }
}

/// Inside a double-quoted string without interpolation: the same owners
/// as single-quoted strings.
fn dq_content(string: &SyntaxNode, offset: TextSize) -> Option<Context> {
    if string.children().next().is_some() {
        return None;
    }
    let first = string.first_token()?;
    let last = string.last_token()?;
    let start = first.text_range().end();
    let end = if last != first && last.kind() == DQUOTE {
        last.text_range().start()
    } else {
        string.text_range().end()
    };
    if offset < start || offset > end {
        return None;
    }
    let kind = string_owner(string, offset)?;
    let replace = TextRange::new(start, end);
    let prefix = string
        .text()
        .slice(TextRange::new(start, offset) - string.text_range().start())
        .to_string();
    Some(Context {
        kind,
        replace,
        prefix,
        offset,
        in_string: true,
    })
}

/// What a string expression is the argument of.
fn string_owner(string: &SyntaxNode, offset: TextSize) -> Option<ContextKind> {
    let parent = string.parent()?;
    match parent.kind() {
        ATTRIBUTE => {
            let attribute = ast::Attribute::cast(parent.clone())?;
            if attribute.value()?.syntax() != string {
                return None;
            }
            let target = resource_target(&parent, offset)?;
            Some(ContextKind::AttributeValue(target, attribute.name()?))
        }
        ARG_LIST => {
            let owner = parent.parent()?;
            if let Some(access) = ast::AccessExpr::cast(owner.clone()) {
                return Some(access_context(access, true));
            }
            let call = ast::CallExpr::cast(owner)?;
            is_class_function(&call.function_name()?)
                .then_some(ContextKind::ClassName(ClassNameStyle::InString))
        }
        STATEMENT_CALL => {
            let call = ast::StatementCall::cast(parent)?;
            is_class_function(&call.name()?)
                .then_some(ContextKind::ClassName(ClassNameStyle::InString))
        }
        RESOURCE_BODY => {
            let body = ast::ResourceBody::cast(parent.clone())?;
            let is_title = body.title().is_some_and(|t| t.syntax() == string);
            let resource = ast::ResourceExpr::cast(parent.parent()?)?;
            (is_title && resource.type_name().as_deref() == Some("class"))
                .then_some(ContextKind::ClassName(ClassNameStyle::InString))
        }
        _ => None,
    }
}

/// In string text, where a `$name` being typed starts (the `$`), if the
/// cursor is right after one.
fn dollar_word_start(text: &str, cursor: TextSize) -> Option<TextSize> {
    let before = text.get(..usize::from(cursor))?;
    let name_len = before
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
        .count();
    let head = &before[..before.len() - name_len];
    let dollar = head.strip_suffix('$')?;
    if dollar.ends_with('\\') {
        return None;
    }
    Some(TextSize::from(dollar.len() as u32))
}
