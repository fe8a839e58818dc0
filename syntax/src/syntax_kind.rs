//! Every kind of token and node in a Puppet syntax tree.
//!
//! One flat enum, tokens first, then nodes, as rowan wants. Token kinds keep the
//! distinctions Puppet's own lexer makes from context (`[` after whitespace
//! starts a list, `(` first on a line is not a call), so the parser never has to
//! look at text.

macro_rules! syntax_kinds {
    ($($(#[$meta:meta])* $kind:ident,)*) => {
        /// A token or node kind. `#[repr(u16)]` so it converts to `rowan::SyntaxKind`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u16)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        pub enum SyntaxKind {
            $($(#[$meta])* $kind,)*
        }

        /// All kinds in discriminant order, for converting back from `u16`.
        const ALL_KINDS: &[SyntaxKind] = &[$(SyntaxKind::$kind,)*];
    };
}

syntax_kinds! {
    // ----- trivia -----
    /// Blanks, tabs, line breaks and Unicode spaces.
    WHITESPACE,
    /// `# ...` up to (not including) the line break.
    COMMENT,
    /// `/* ... */`.
    BLOCK_COMMENT,
    /// `<% ... %>` code delimiters in EPP: `<%`, `<%-`.
    EPP_OPEN,
    /// `%>` or `-%>` closing a `<%` code block (not a render expression).
    EPP_CLOSE,
    /// `<%# ... %>` template comment.
    EPP_COMMENT,
    /// EPP text that Puppet's template scanner drops: text that `-%>` and
    /// `<%-` trim to nothing (a line break after `-%>`, blanks before
    /// `<%-`), or text lost before a comment that ends the template. Code
    /// continues across it, so it is trivia.
    EPP_TRIMMED_TEXT,

    // ----- literals and names -----
    /// Any number literal: decimal, octal, hex, float.
    NUMBER,
    /// A whole single-quoted string, quotes included.
    SQ_STRING,
    /// `"` opening or closing a double-quoted string.
    DQUOTE,
    /// Literal text inside a double-quoted string (escapes unprocessed).
    STRING_TEXT,
    /// `${` starting an interpolated expression.
    DOLLAR_BRACE,
    /// `}` closing an interpolation started by `${`.
    INTERP_CLOSE,
    /// `/.../` regular expression literal.
    REGEX,
    /// `@(TAG:syntax/escapes)` heredoc header.
    HEREDOC_HEADER,
    /// Literal text of a heredoc body.
    HEREDOC_TEXT,
    /// The line that ends a heredoc body (`|- TAG`), without its line break.
    HEREDOC_END,
    /// Literal text of an EPP template.
    EPP_TEXT,
    /// `<%=` starting a render expression.
    EPP_RENDER_OPEN,
    /// `%>` / `-%>` closing a render expression.
    EPP_RENDER_CLOSE,
    /// Lower-case name: `foo`, `foo::bar`, `::foo`.
    NAME,
    /// A bare word that is not a name: `foo-bar`, `_x`.
    WORD,
    /// Upper-case type reference: `File`, `Foo::Bar`, `::Foo`.
    TYPE_REF,
    /// `$x`, `$::x`, `$a::b`, `$0`.
    VARIABLE,

    // ----- keywords -----
    AND_KW,
    ATTR_KW,
    CASE_KW,
    CLASS_KW,
    DEFAULT_KW,
    DEFINE_KW,
    ELSE_KW,
    ELSIF_KW,
    FALSE_KW,
    FUNCTION_KW,
    IF_KW,
    IN_KW,
    INHERITS_KW,
    NODE_KW,
    OR_KW,
    PRIVATE_KW,
    TRUE_KW,
    TYPE_KW,
    UNDEF_KW,
    UNLESS_KW,

    // ----- punctuation and operators -----
    /// `[` directly after an expression: access.
    L_BRACK,
    /// `[` after whitespace or at the start: a list literal.
    L_BRACK_LIST,
    R_BRACK,
    L_BRACE,
    R_BRACE,
    /// `(` that can start call arguments.
    L_PAREN,
    /// `(` first on its line: never call arguments.
    L_PAREN_WS,
    R_PAREN,
    SEMICOLON,
    COMMA,
    DOT,
    COLON,
    QUESTION,
    PIPE,
    AT,
    ATAT,
    EQ,
    PLUS_EQ,
    MINUS_EQ,
    EQ2,
    NEQ,
    MATCH,
    NOMATCH,
    LT,
    LTEQ,
    GT,
    GTEQ,
    FAT_ARROW,
    PLUS_ARROW,
    SHL,
    SHR,
    /// `<|`
    LCOLLECT,
    /// `<<|`
    LLCOLLECT,
    /// `|>`
    RCOLLECT,
    /// `|>>`
    RRCOLLECT,
    PLUS,
    MINUS,
    STAR,
    SLASH,
    PERCENT,
    BANG,
    TILDE,
    /// `->`
    IN_EDGE,
    /// `~>`
    IN_EDGE_SUB,
    /// `<-`
    OUT_EDGE,
    /// `<~`
    OUT_EDGE_SUB,
    /// A character no token starts with.
    UNKNOWN,
    /// End of input (never in a tree).
    EOF,

    // ----- nodes -----
    SOURCE_FILE,
    /// Tokens the parser could not place.
    ERROR,
    /// `{ statements }` of a definition or conditional.
    BLOCK,
    CLASS_DEF,
    DEFINE_DEF,
    NODE_DEF,
    FUNCTION_DEF,
    PLAN_DEF,
    /// `type Name = ...`
    TYPE_ALIAS,
    /// `type Name [inherits Parent] { ... }`
    TYPE_DEF,
    /// `apply(targets) { ... }` (Bolt).
    APPLY_EXPR,
    /// `(...)` or `|...|` parameter list.
    PARAM_LIST,
    PARAM,
    /// `inherits parent` of a class or node.
    INHERITS_CLAUSE,
    /// `>> Type` return type.
    RETURN_TYPE,
    /// Node name matchers: `'a', /b/, default`.
    NODE_MATCHERS,
    /// Dotted host name: `www.example.com`, `192.168.0.1`.
    HOSTNAME,

    /// `true`, `false`, `undef`, `default`, a number.
    LITERAL,
    /// A lower-case name used as a value or function name.
    QUALIFIED_NAME,
    /// A bare word used as a string.
    BARE_WORD,
    /// An upper-case type reference used as a value.
    TYPE_REFERENCE,
    /// `$x` as an expression.
    VARIABLE_EXPR,
    /// `'...'`.
    SQ_STRING_EXPR,
    /// `"..."` with its text and interpolations as children.
    DQ_STRING_EXPR,
    /// `$x` or `${ expr }` inside a string or heredoc.
    INTERPOLATION,
    /// `@(TAG)` heredoc expression; the body is linked by order.
    HEREDOC_EXPR,
    /// A heredoc's body lines and end tag, where they stand in the text.
    HEREDOC_BODY,
    REGEX_EXPR,
    ARRAY_EXPR,
    HASH_EXPR,
    /// `key => value` in a hash or an unfolded hash.
    HASH_ENTRY,
    /// `a => 1, b => 2` among arguments, access arguments or array
    /// elements: one hash without braces (Puppet merges adjacent entries
    /// into one `HASH_UNFOLDED` argument).
    UNFOLDED_HASH,
    PAREN_EXPR,
    BINARY_EXPR,
    /// `!x`, `-x`, `*x`.
    UNARY_EXPR,
    /// `=`, `+=`, `-=`.
    ASSIGNMENT_EXPR,
    /// `a -> b`, `a ~> b`, `a <- b`, `a <~ b`.
    RELATIONSHIP_EXPR,
    /// `x[args]`.
    ACCESS_EXPR,
    /// `(args)` of a call, or `[args]` of an access.
    ARG_LIST,
    /// `f(args)` possibly with a lambda.
    CALL_EXPR,
    /// `x.f(args)` possibly with a lambda.
    METHOD_CALL_EXPR,
    /// `include a, b` — call without parentheses.
    STATEMENT_CALL,
    LAMBDA,
    /// `x ? { a => b }`.
    SELECTOR_EXPR,
    SELECTOR_ENTRY,
    CASE_EXPR,
    /// `a, b: { ... }`.
    CASE_OPTION,
    IF_EXPR,
    ELSIF_BRANCH,
    ELSE_BRANCH,
    UNLESS_EXPR,
    /// `type { title: attrs; ... }`, `@type {}`, `@@type {}`, `class { 'x': }`.
    RESOURCE_EXPR,
    /// `title: attrs` in a resource expression.
    RESOURCE_BODY,
    /// `name => value`, `name +> value`, `* => hash`.
    ATTRIBUTE,
    /// `Type { attrs }`.
    RESOURCE_DEFAULTS,
    /// `Type['title'] { attrs }`.
    RESOURCE_OVERRIDE,
    /// `Type <| query |> { attrs }`.
    COLLECTOR,
    /// `<| query |>` or `<<| query |>>`.
    COLLECT_QUERY,
    /// `private`, `attr`: reserved words used as values.
    RESERVED_WORD,
    /// Literal text of an EPP template.
    RENDER_STRING,
    /// `<%= expr %>`.
    RENDER_EXPR,
    /// `<%- |$x| -%>` EPP parameter header.
    EPP_PARAMS,
}

use SyntaxKind::*;

impl SyntaxKind {
    /// Trivia carry no meaning for the grammar but stay in the tree.
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            WHITESPACE
                | COMMENT
                | BLOCK_COMMENT
                | EPP_OPEN
                | EPP_CLOSE
                | EPP_COMMENT
                | EPP_TRIMMED_TEXT
        )
    }

    pub fn is_keyword(self) -> bool {
        (AND_KW as u16..=UNLESS_KW as u16).contains(&(self as u16))
    }

    pub fn is_token(self) -> bool {
        (self as u16) < (SOURCE_FILE as u16)
    }

    /// The keyword kind for a word, if it is a keyword in Puppet 7.
    /// `plan` and `apply` are contextual and are not returned here.
    pub fn from_keyword(word: &str) -> Option<SyntaxKind> {
        Some(match word {
            "and" => AND_KW,
            "attr" => ATTR_KW,
            "case" => CASE_KW,
            "class" => CLASS_KW,
            "default" => DEFAULT_KW,
            "define" => DEFINE_KW,
            "else" => ELSE_KW,
            "elsif" => ELSIF_KW,
            "false" => FALSE_KW,
            "function" => FUNCTION_KW,
            "if" => IF_KW,
            "in" => IN_KW,
            "inherits" => INHERITS_KW,
            "node" => NODE_KW,
            "or" => OR_KW,
            "private" => PRIVATE_KW,
            "true" => TRUE_KW,
            "type" => TYPE_KW,
            "undef" => UNDEF_KW,
            "unless" => UNLESS_KW,
            _ => return None,
        })
    }

    /// How the kind reads in an error message.
    pub fn describe(self) -> &'static str {
        match self {
            WHITESPACE => "whitespace",
            COMMENT | BLOCK_COMMENT | EPP_COMMENT => "a comment",
            NUMBER => "a number",
            SQ_STRING => "a string",
            DQUOTE => "'\"'",
            STRING_TEXT | HEREDOC_TEXT => "text",
            DOLLAR_BRACE => "'${'",
            INTERP_CLOSE => "'}'",
            REGEX => "a regular expression",
            HEREDOC_HEADER => "a heredoc",
            HEREDOC_END => "a heredoc end tag",
            EPP_TEXT | EPP_TRIMMED_TEXT => "template text",
            EPP_OPEN => "'<%'",
            EPP_CLOSE | EPP_RENDER_CLOSE => "'%>'",
            EPP_RENDER_OPEN => "'<%='",
            NAME => "a name",
            WORD => "a bare word",
            TYPE_REF => "a type reference",
            VARIABLE => "a variable",
            AND_KW => "'and'",
            ATTR_KW => "'attr'",
            CASE_KW => "'case'",
            CLASS_KW => "'class'",
            DEFAULT_KW => "'default'",
            DEFINE_KW => "'define'",
            ELSE_KW => "'else'",
            ELSIF_KW => "'elsif'",
            FALSE_KW => "'false'",
            FUNCTION_KW => "'function'",
            IF_KW => "'if'",
            IN_KW => "'in'",
            INHERITS_KW => "'inherits'",
            NODE_KW => "'node'",
            OR_KW => "'or'",
            PRIVATE_KW => "'private'",
            TRUE_KW => "'true'",
            TYPE_KW => "'type'",
            UNDEF_KW => "'undef'",
            UNLESS_KW => "'unless'",
            L_BRACK | L_BRACK_LIST => "'['",
            R_BRACK => "']'",
            L_BRACE => "'{'",
            R_BRACE => "'}'",
            L_PAREN | L_PAREN_WS => "'('",
            R_PAREN => "')'",
            SEMICOLON => "';'",
            COMMA => "','",
            DOT => "'.'",
            COLON => "':'",
            QUESTION => "'?'",
            PIPE => "'|'",
            AT => "'@'",
            ATAT => "'@@'",
            EQ => "'='",
            PLUS_EQ => "'+='",
            MINUS_EQ => "'-='",
            EQ2 => "'=='",
            NEQ => "'!='",
            MATCH => "'=~'",
            NOMATCH => "'!~'",
            LT => "'<'",
            LTEQ => "'<='",
            GT => "'>'",
            GTEQ => "'>='",
            FAT_ARROW => "'=>'",
            PLUS_ARROW => "'+>'",
            SHL => "'<<'",
            SHR => "'>>'",
            LCOLLECT => "'<|'",
            LLCOLLECT => "'<<|'",
            RCOLLECT => "'|>'",
            RRCOLLECT => "'|>>'",
            PLUS => "'+'",
            MINUS => "'-'",
            STAR => "'*'",
            SLASH => "'/'",
            PERCENT => "'%'",
            BANG => "'!'",
            TILDE => "'~'",
            IN_EDGE => "'->'",
            IN_EDGE_SUB => "'~>'",
            OUT_EDGE => "'<-'",
            OUT_EDGE_SUB => "'<~'",
            UNKNOWN => "an unexpected character",
            EOF => "end of input",
            _ => "a syntax node",
        }
    }

    /// Converts back from rowan's raw kind.
    pub fn from_raw(raw: u16) -> SyntaxKind {
        ALL_KINDS.get(raw as usize).copied().unwrap_or(ERROR)
    }
}

/// The rowan language tag for Puppet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PuppetLanguage {}

impl rowan::Language for PuppetLanguage {
    type Kind = SyntaxKind;
    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0)
    }
    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(kind as u16)
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> Self {
        rowan::SyntaxKind(kind as u16)
    }
}

pub type SyntaxNode = rowan::SyntaxNode<PuppetLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<PuppetLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<PuppetLanguage>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_kinds_round_trip() {
        for (i, kind) in ALL_KINDS.iter().enumerate() {
            assert_eq!(*kind as usize, i);
            assert_eq!(SyntaxKind::from_raw(i as u16), *kind);
        }
        assert_eq!(SyntaxKind::from_raw(u16::MAX), ERROR);
    }
}
