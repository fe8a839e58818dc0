//! The node types and their accessors.

use super::literals::{self, HeredocInfo, MappedText, Number, NumberError, Sink};
use super::{child, children, first_significant_token, token, AstNode};
use crate::syntax_kind::SyntaxKind::{self, *};
use crate::syntax_kind::{SyntaxNode, SyntaxToken};

macro_rules! ast_node {
    ($(#[$meta:meta])* $name:ident, $kind:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(SyntaxNode);

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                kind == $kind
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                Self::can_cast(node.kind()).then(|| $name(node))
            }
            fn syntax(&self) -> &SyntaxNode {
                &self.0
            }
        }
    };
}

/// Direct child tokens that are not trivia.
fn significant_tokens(node: &SyntaxNode) -> impl Iterator<Item = SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
}

/// The n-th expression child.
fn nth_expr(node: &SyntaxNode, n: usize) -> Option<Expr> {
    children::<Expr>(node).nth(n)
}

/// The first expression child after the first token of `kind`.
fn expr_after(node: &SyntaxNode, kind: SyntaxKind) -> Option<Expr> {
    let mut seen = false;
    for element in node.children_with_tokens() {
        match element {
            rowan::NodeOrToken::Token(t) if t.kind() == kind => seen = true,
            rowan::NodeOrToken::Node(n) if seen => {
                if let Some(e) = Expr::cast(n) {
                    return Some(e);
                }
            }
            _ => {}
        }
    }
    None
}

/// The first expression child before the first token of `kind`.
fn expr_before(node: &SyntaxNode, kind: SyntaxKind) -> Option<Expr> {
    for element in node.children_with_tokens() {
        match element {
            rowan::NodeOrToken::Token(t) if t.kind() == kind => return None,
            rowan::NodeOrToken::Node(n) => {
                if let Some(e) = Expr::cast(n) {
                    return Some(e);
                }
            }
            _ => {}
        }
    }
    None
}

// ----- file, blocks, definitions -----

ast_node!(
    /// The root: a manifest's statements or a template's parts.
    SourceFile, SOURCE_FILE
);
impl SourceFile {
    pub fn statements(&self) -> impl Iterator<Item = Expr> {
        children(&self.0)
    }
    /// The `<%- |...| -%>` header of a template.
    pub fn epp_params(&self) -> Option<EppParams> {
        child(&self.0)
    }
}

ast_node!(
    /// `{ statements }`.
    Block, BLOCK
);
impl Block {
    pub fn statements(&self) -> impl Iterator<Item = Expr> {
        children(&self.0)
    }
}

/// The name token of a definition: the first name-like token after its keyword.
fn definition_name_token(node: &SyntaxNode) -> Option<SyntaxToken> {
    significant_tokens(node)
        .skip(1)
        .find(|t| matches!(t.kind(), NAME | WORD | TYPE_REF))
}

/// The comment block right above a definition (inside its node), with the
/// `#` and one following space removed from each line.
pub fn doc_comment(node: &SyntaxNode) -> Option<String> {
    let lines: Vec<String> = node
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .take_while(|t| t.kind().is_trivia())
        .filter(|t| t.kind() == COMMENT)
        .map(|t| {
            let text = t.text().trim_start_matches('#');
            text.strip_prefix(' ').unwrap_or(text).to_string()
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

macro_rules! definition_accessors {
    ($name:ident) => {
        impl $name {
            /// The documentation comment above the definition.
            pub fn doc_comment(&self) -> Option<String> {
                doc_comment(&self.0)
            }
            /// The token naming the definition.
            pub fn name_token(&self) -> Option<SyntaxToken> {
                definition_name_token(&self.0)
            }
            /// The name as written (a leading `::` removed).
            pub fn name(&self) -> Option<String> {
                self.name_token()
                    .map(|t| t.text().trim_start_matches("::").to_string())
            }
            pub fn params(&self) -> Option<ParamList> {
                child(&self.0)
            }
            pub fn body(&self) -> Option<Block> {
                child(&self.0)
            }
        }
    };
}

ast_node!(
    /// `class name(params) inherits parent { ... }`.
    ClassDef, CLASS_DEF
);
definition_accessors!(ClassDef);
impl ClassDef {
    pub fn parent(&self) -> Option<InheritsClause> {
        child(&self.0)
    }
}

ast_node!(
    /// `define name(params) { ... }`.
    DefineDef, DEFINE_DEF
);
definition_accessors!(DefineDef);

ast_node!(
    /// `function name(params) >> Type { ... }`.
    FunctionDef, FUNCTION_DEF
);
definition_accessors!(FunctionDef);
impl FunctionDef {
    pub fn return_type(&self) -> Option<ReturnType> {
        child(&self.0)
    }
}

ast_node!(
    /// `plan name(params) { ... }` (Bolt).
    PlanDef, PLAN_DEF
);
definition_accessors!(PlanDef);

ast_node!(
    /// `node matchers inherits parent { ... }`.
    NodeDef, NODE_DEF
);
impl NodeDef {
    pub fn matchers(&self) -> impl Iterator<Item = Expr> {
        child::<NodeMatchers>(&self.0)
            .into_iter()
            .flat_map(|m| children::<Expr>(&m.0).collect::<Vec<_>>())
    }
    pub fn parent(&self) -> Option<InheritsClause> {
        child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// The matchers of a node definition.
    NodeMatchers, NODE_MATCHERS
);

ast_node!(
    /// A dotted host name in a node definition: `www.example.com`.
    Hostname, HOSTNAME
);
impl Hostname {
    pub fn text(&self) -> String {
        significant_tokens(&self.0)
            .map(|t| t.text().to_string())
            .collect()
    }
}

ast_node!(
    /// `inherits parent` of a class or node.
    InheritsClause, INHERITS_CLAUSE
);
impl InheritsClause {
    /// The parent class name token (classes).
    pub fn name_token(&self) -> Option<SyntaxToken> {
        significant_tokens(&self.0).nth(1)
    }
    /// The parent matcher (nodes).
    pub fn hostname(&self) -> Option<Expr> {
        child(&self.0)
    }
}

ast_node!(
    /// `type Name = Type`.
    TypeAlias, TYPE_ALIAS
);
impl TypeAlias {
    /// `Name` (or `Name[...]`, which validation rejects).
    pub fn name_expr(&self) -> Option<Expr> {
        expr_before(&self.0, EQ)
    }
    pub fn name(&self) -> Option<String> {
        match self.name_expr()? {
            Expr::TypeReference(r) => Some(r.name()),
            _ => None,
        }
    }
    /// The aliased type expression; for `Object {...}` the type reference
    /// (see `initializer` for the hash).
    pub fn value(&self) -> Option<Expr> {
        expr_after(&self.0, EQ)
    }
    /// The hash of `type X = Object { ... }`.
    pub fn initializer(&self) -> Option<HashExpr> {
        let mut after_eq = children::<Expr>(&self.0).skip(1);
        match (after_eq.next(), after_eq.next()) {
            (Some(Expr::TypeReference(_)), Some(Expr::HashExpr(h))) => Some(h),
            _ => None,
        }
    }
}

ast_node!(
    /// `type Name inherits Parent { ... }`.
    TypeDef, TYPE_DEF
);
impl TypeDef {
    pub fn name(&self) -> Option<String> {
        child::<TypeReference>(&self.0).map(|r| r.name())
    }
    pub fn parent(&self) -> Option<String> {
        token(&self.0, TYPE_REF).map(|t| t.text().to_string())
    }
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// `apply(targets) { ... }` (Bolt).
    ApplyExpr, APPLY_EXPR
);
impl ApplyExpr {
    pub fn args(&self) -> Option<ArgList> {
        child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// `(params)` or `|params|`.
    ParamList, PARAM_LIST
);
impl ParamList {
    pub fn params(&self) -> impl Iterator<Item = Param> {
        children(&self.0)
    }
}

ast_node!(
    /// `Type *$name = default`.
    Param, PARAM
);
impl Param {
    pub fn variable_token(&self) -> Option<SyntaxToken> {
        token(&self.0, VARIABLE)
    }
    /// The name without `$`.
    pub fn name(&self) -> Option<String> {
        self.variable_token()
            .map(|t| t.text().trim_start_matches('$').to_string())
    }
    pub fn type_expr(&self) -> Option<Expr> {
        expr_before(&self.0, VARIABLE)
    }
    pub fn default_value(&self) -> Option<Expr> {
        expr_after(&self.0, EQ)
    }
    /// `*$rest`: captures the remaining arguments.
    pub fn captures_rest(&self) -> bool {
        token(&self.0, STAR).is_some()
    }
}

ast_node!(
    /// `>> Type`.
    ReturnType, RETURN_TYPE
);
impl ReturnType {
    pub fn type_expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

ast_node!(
    /// `<%- |params| -%>` of a template.
    EppParams, EPP_PARAMS
);
impl EppParams {
    pub fn params(&self) -> Option<ParamList> {
        child(&self.0)
    }
}

// ----- expressions -----

macro_rules! expr_enum {
    ($($variant:ident),* $(,)?) => {
        /// Anything that can stand as an expression or statement.
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum Expr {
            $($variant($variant),)*
        }

        impl AstNode for Expr {
            fn can_cast(kind: SyntaxKind) -> bool {
                $($variant::can_cast(kind))||*
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                let kind = node.kind();
                $(if $variant::can_cast(kind) {
                    return Some(Expr::$variant($variant(node)));
                })*
                None
            }
            fn syntax(&self) -> &SyntaxNode {
                match self {
                    $(Expr::$variant(n) => &n.0,)*
                }
            }
        }
    };
}

expr_enum!(
    ClassDef,
    DefineDef,
    NodeDef,
    FunctionDef,
    PlanDef,
    TypeAlias,
    TypeDef,
    ApplyExpr,
    Literal,
    QualifiedName,
    BareWord,
    TypeReference,
    VariableExpr,
    SqStringExpr,
    DqStringExpr,
    HeredocExpr,
    RegexExpr,
    ArrayExpr,
    HashExpr,
    ParenExpr,
    BinaryExpr,
    UnaryExpr,
    AssignmentExpr,
    RelationshipExpr,
    AccessExpr,
    CallExpr,
    MethodCallExpr,
    StatementCall,
    SelectorExpr,
    CaseExpr,
    IfExpr,
    UnlessExpr,
    ResourceExpr,
    ResourceDefaults,
    ResourceOverride,
    Collector,
    ReservedWord,
    RenderString,
    RenderExpr,
    Hostname,
);

impl Expr {
    /// The text of a string written out (single-quoted, double-quoted or a
    /// heredoc, without interpolation), with where each of its bytes is in
    /// the tree.
    pub fn static_text_mapped(&self) -> Option<MappedText> {
        match self {
            Expr::SqStringExpr(s) => Some(s.value_mapped()),
            Expr::DqStringExpr(s) => s.static_value_mapped(),
            Expr::HeredocExpr(h) => h.static_text_mapped(),
            _ => None,
        }
    }

    /// How a string written out as this one is ([`Expr::static_text_mapped`])
    /// writes `text`, escapes included; `None` when it cannot (a heredoc
    /// that interpolates, without the `$` escape).
    pub fn escaped_static_text(&self, text: &str) -> Option<String> {
        match self {
            Expr::SqStringExpr(_) => Some(literals::escape_single_quoted(text)),
            Expr::DqStringExpr(_) => Some(literals::escape_double_quoted(text)),
            Expr::HeredocExpr(h) => literals::escape_heredoc(&h.info()?, text),
            _ => None,
        }
    }

    /// The string an expression stands for when it is written literally: a
    /// name, bare word, string without interpolation, or the keywords
    /// `type` and `function` as values (class names, titles, template
    /// paths, hash keys).
    pub fn static_string(&self) -> Option<String> {
        match self {
            Expr::QualifiedName(n) => Some(n.name()),
            Expr::BareWord(w) => Some(w.text()),
            Expr::SqStringExpr(s) => Some(s.value()),
            Expr::DqStringExpr(s) => s.static_value(),
            Expr::Literal(l) => match l.value()? {
                LiteralValue::Keyword(word) => Some(word),
                _ => None,
            },
            _ => None,
        }
    }
}

ast_node!(
    /// A number, `true`, `false`, `undef`, `default`, or `type`/`function`
    /// used as a value in a collection.
    Literal, LITERAL
);

/// The value of a literal token.
#[derive(Debug, Clone, PartialEq)]
pub enum LiteralValue {
    Number(Result<Number, NumberError>),
    Boolean(bool),
    Undef,
    Default,
    /// `type` or `function` used as a string value.
    Keyword(String),
}

impl Literal {
    pub fn token(&self) -> Option<SyntaxToken> {
        first_significant_token(&self.0)
    }
    pub fn value(&self) -> Option<LiteralValue> {
        let token = self.token()?;
        Some(match token.kind() {
            NUMBER => LiteralValue::Number(literals::parse_number(token.text())),
            TRUE_KW => LiteralValue::Boolean(true),
            FALSE_KW => LiteralValue::Boolean(false),
            UNDEF_KW => LiteralValue::Undef,
            DEFAULT_KW => LiteralValue::Default,
            _ => LiteralValue::Keyword(token.text().to_string()),
        })
    }
}

ast_node!(
    /// A lower-case name: a string value, or a function or class name.
    QualifiedName, QUALIFIED_NAME
);
impl QualifiedName {
    pub fn token(&self) -> Option<SyntaxToken> {
        first_significant_token(&self.0)
    }
    pub fn name(&self) -> String {
        self.token()
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
}

ast_node!(
    /// A bare word (`foo-bar`), a string value.
    BareWord, BARE_WORD
);
impl BareWord {
    pub fn text(&self) -> String {
        first_significant_token(&self.0)
            .map(|t| t.text().to_string())
            .unwrap_or_default()
    }
}

ast_node!(
    /// An upper-case type reference: `File`, `Foo::Bar`.
    TypeReference, TYPE_REFERENCE
);
impl TypeReference {
    pub fn token(&self) -> Option<SyntaxToken> {
        first_significant_token(&self.0)
    }
    /// The name as written, a leading `::` removed.
    pub fn name(&self) -> String {
        self.token()
            .map(|t| t.text().trim_start_matches("::").to_string())
            .unwrap_or_default()
    }
}

ast_node!(
    /// `$name`; inside `${...}` also a bare name or keyword (`${type}`).
    VariableExpr, VARIABLE_EXPR
);
impl VariableExpr {
    pub fn token(&self) -> Option<SyntaxToken> {
        first_significant_token(&self.0)
    }
    /// The name without `$`, as written (`::x` keeps its `::`).
    pub fn name(&self) -> String {
        self.token()
            .map(|t| t.text().trim_start_matches('$').to_string())
            .unwrap_or_default()
    }
}

ast_node!(
    /// `'text'`.
    SqStringExpr, SQ_STRING_EXPR
);
impl SqStringExpr {
    pub fn value(&self) -> String {
        let (text, _) = self.inner();
        literals::unescape_single_quoted(&text)
    }

    /// The value with where each of its bytes is in the tree.
    pub fn value_mapped(&self) -> MappedText {
        let (text, at) = self.inner();
        literals::single_quoted_mapped(&text, at)
    }

    /// The text between the quotes, and where it starts.
    fn inner(&self) -> (String, usize) {
        let Some(token) = first_significant_token(&self.0) else {
            return (String::new(), usize::from(self.0.text_range().start()));
        };
        let text = token.text();
        let mut at = usize::from(token.text_range().start());
        let inner = match text.strip_prefix('\'') {
            Some(inner) => {
                at += 1;
                inner
            }
            None => text,
        };
        let inner =
            if !inner.is_empty() && inner.ends_with('\'') && !literals::ends_with_escape(inner) {
                &inner[..inner.len() - 1]
            } else {
                inner
            };
        (inner.to_string(), at)
    }
}

/// A piece of a double-quoted string or heredoc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StringPart {
    /// Literal text, escapes already processed.
    Text(String),
    Interpolation(Interpolation),
}

ast_node!(
    /// `"text $var ${expr}"`.
    DqStringExpr, DQ_STRING_EXPR
);
impl DqStringExpr {
    pub fn parts(&self) -> Vec<StringPart> {
        let mut parts = Vec::new();
        for element in self.0.children_with_tokens() {
            match element {
                rowan::NodeOrToken::Token(t) if t.kind() == STRING_TEXT => {
                    parts.push(StringPart::Text(literals::unescape_double_quoted(t.text())));
                }
                rowan::NodeOrToken::Node(n) => {
                    if let Some(i) = Interpolation::cast(n) {
                        parts.push(StringPart::Interpolation(i));
                    }
                }
                _ => {}
            }
        }
        parts
    }
    /// The value when there is no interpolation, with where each of its
    /// bytes is in the tree.
    pub fn static_value_mapped(&self) -> Option<MappedText> {
        let mut out = MappedText::default();
        out.ends_at(usize::from(self.0.text_range().start()) + 1);
        for element in self.0.children_with_tokens() {
            match element {
                rowan::NodeOrToken::Token(t) if t.kind() == STRING_TEXT => {
                    let at = usize::from(t.text_range().start());
                    let part = literals::double_quoted_mapped(t.text(), at);
                    out.append(part);
                }
                rowan::NodeOrToken::Node(n) if Interpolation::can_cast(n.kind()) => return None,
                _ => {}
            }
        }
        Some(out)
    }
    /// The value when there is no interpolation.
    pub fn static_value(&self) -> Option<String> {
        let mut out = String::new();
        for part in self.parts() {
            match part {
                StringPart::Text(t) => out.push_str(&t),
                StringPart::Interpolation(_) => return None,
            }
        }
        Some(out)
    }
}

ast_node!(
    /// `$x` or `${expr}` inside a string or heredoc.
    Interpolation, INTERPOLATION
);
impl Interpolation {
    /// The `$x` short form's token.
    pub fn variable_token(&self) -> Option<SyntaxToken> {
        token(&self.0, VARIABLE)
    }
    /// The expression of the `${...}` form.
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

ast_node!(
    /// `@(TAG:syntax/escapes)`; its body stands elsewhere in the tree.
    HeredocExpr, HEREDOC_EXPR
);
impl HeredocExpr {
    pub fn header_token(&self) -> Option<SyntaxToken> {
        token(&self.0, HEREDOC_HEADER)
    }
    pub fn info(&self) -> Option<HeredocInfo> {
        literals::heredoc_info(self.header_token()?.text())
    }
    /// The text when it has no interpolation, with where each of its bytes
    /// is in the tree.
    pub fn static_text_mapped(&self) -> Option<MappedText> {
        let info = self.info()?;
        let body = self.body()?;
        let end_line = body
            .end_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default();
        let mut pieces = Vec::new();
        for element in body.syntax().children_with_tokens() {
            match element {
                rowan::NodeOrToken::Token(t) if t.kind() == HEREDOC_TEXT => pieces.push(t),
                rowan::NodeOrToken::Node(n) if Interpolation::can_cast(n.kind()) => return None,
                _ => {}
            }
        }
        let pieces: Vec<Option<(&str, usize)>> = pieces
            .iter()
            .map(|t| Some((t.text(), usize::from(t.text_range().start()))))
            .collect();
        let mut out = MappedText::default();
        out.ends_at(usize::from(body.syntax().text_range().start()));
        for part in literals::heredoc_text_mapped(&info, &end_line, &pieces)
            .into_iter()
            .flatten()
        {
            out.append(part);
        }
        Some(out)
    }
    /// The body: heredoc headers and bodies pair up in text order.
    pub fn body(&self) -> Option<HeredocBody> {
        let root = self.0.ancestors().last()?;
        let index = root
            .descendants()
            .filter(|n| n.kind() == HEREDOC_EXPR)
            .position(|n| n == self.0)?;
        root.descendants().filter_map(HeredocBody::cast).nth(index)
    }
}

ast_node!(
    /// The text lines and end tag of a heredoc.
    HeredocBody, HEREDOC_BODY
);
impl HeredocBody {
    pub fn end_token(&self) -> Option<SyntaxToken> {
        token(&self.0, HEREDOC_END)
    }
    /// Raw text and interpolations in order (escapes, margin and trimming
    /// are applied by `literals::heredoc_text`).
    pub fn raw_parts(&self) -> Vec<(Option<String>, Option<Interpolation>)> {
        let mut parts = Vec::new();
        for element in self.0.children_with_tokens() {
            match element {
                rowan::NodeOrToken::Token(t) if t.kind() == HEREDOC_TEXT => {
                    parts.push((Some(t.text().to_string()), None));
                }
                rowan::NodeOrToken::Node(n) => {
                    if let Some(i) = Interpolation::cast(n) {
                        parts.push((None, Some(i)));
                    }
                }
                _ => {}
            }
        }
        parts
    }
}

ast_node!(
    /// `/pattern/`.
    RegexExpr, REGEX_EXPR
);
impl RegexExpr {
    /// The pattern between the slashes, `\/` turned into `/`.
    pub fn pattern(&self) -> String {
        let text = first_significant_token(&self.0)
            .map(|t| t.text().to_string())
            .unwrap_or_default();
        let inner = text.strip_prefix('/').unwrap_or(&text);
        let inner = inner.strip_suffix('/').unwrap_or(inner);
        inner.replace("\\/", "/")
    }
}

ast_node!(
    /// `[a, b]`.
    ArrayExpr, ARRAY_EXPR
);
impl ArrayExpr {
    pub fn elements(&self) -> impl Iterator<Item = Expr> {
        children(&self.0)
    }
}

/// `{a => b}`, or entries without braces among arguments and array
/// elements (an unfolded hash: `f(a => 1, b => 2)` passes one hash).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HashExpr(SyntaxNode);

impl AstNode for HashExpr {
    fn can_cast(kind: SyntaxKind) -> bool {
        matches!(kind, HASH_EXPR | UNFOLDED_HASH)
    }
    fn cast(node: SyntaxNode) -> Option<Self> {
        Self::can_cast(node.kind()).then(|| HashExpr(node))
    }
    fn syntax(&self) -> &SyntaxNode {
        &self.0
    }
}

impl HashExpr {
    pub fn entries(&self) -> impl Iterator<Item = HashEntry> {
        children(&self.0)
    }
    /// Written without braces, among arguments or array elements.
    pub fn is_unfolded(&self) -> bool {
        self.0.kind() == UNFOLDED_HASH
    }
}

ast_node!(
    /// `key => value` in a hash.
    HashEntry, HASH_ENTRY
);
impl HashEntry {
    pub fn key(&self) -> Option<Expr> {
        expr_before(&self.0, FAT_ARROW)
    }
    pub fn value(&self) -> Option<Expr> {
        expr_after(&self.0, FAT_ARROW)
    }
}

ast_node!(
    /// `(expr)`.
    ParenExpr, PAREN_EXPR
);
impl ParenExpr {
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Lt,
    LtEq,
    Gt,
    GtEq,
    Eq,
    NotEq,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Match,
    NotMatch,
    In,
}

impl BinaryOp {
    fn from_kind(kind: SyntaxKind) -> Option<BinaryOp> {
        Some(match kind {
            OR_KW => BinaryOp::Or,
            AND_KW => BinaryOp::And,
            LT => BinaryOp::Lt,
            LTEQ => BinaryOp::LtEq,
            GT => BinaryOp::Gt,
            GTEQ => BinaryOp::GtEq,
            EQ2 => BinaryOp::Eq,
            NEQ => BinaryOp::NotEq,
            SHL => BinaryOp::Shl,
            SHR => BinaryOp::Shr,
            PLUS => BinaryOp::Add,
            MINUS => BinaryOp::Sub,
            STAR => BinaryOp::Mul,
            SLASH => BinaryOp::Div,
            PERCENT => BinaryOp::Mod,
            MATCH => BinaryOp::Match,
            NOMATCH => BinaryOp::NotMatch,
            IN_KW => BinaryOp::In,
            _ => return None,
        })
    }
}

/// The first direct token that is an operator per `from_kind`.
fn operator<T>(
    node: &SyntaxNode,
    from_kind: impl Fn(SyntaxKind) -> Option<T>,
) -> Option<(SyntaxToken, T)> {
    significant_tokens(node).find_map(|t| from_kind(t.kind()).map(|op| (t, op)))
}

ast_node!(
    /// `a op b`.
    BinaryExpr, BINARY_EXPR
);
impl BinaryExpr {
    pub fn lhs(&self) -> Option<Expr> {
        nth_expr(&self.0, 0)
    }
    pub fn rhs(&self) -> Option<Expr> {
        nth_expr(&self.0, 1)
    }
    pub fn op(&self) -> Option<BinaryOp> {
        operator(&self.0, BinaryOp::from_kind).map(|(_, op)| op)
    }
    pub fn op_token(&self) -> Option<SyntaxToken> {
        operator(&self.0, BinaryOp::from_kind).map(|(t, _)| t)
    }
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Not,
    Neg,
    Splat,
}

ast_node!(
    /// `!x`, `-x`, `*x`.
    UnaryExpr, UNARY_EXPR
);
impl UnaryExpr {
    pub fn op(&self) -> Option<UnaryOp> {
        match first_significant_token(&self.0)?.kind() {
            BANG => Some(UnaryOp::Not),
            MINUS => Some(UnaryOp::Neg),
            STAR => Some(UnaryOp::Splat),
            _ => None,
        }
    }
    pub fn operand(&self) -> Option<Expr> {
        child(&self.0)
    }
}

/// Assignment operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AssignOp {
    Assign,
    AddAssign,
    SubAssign,
}

ast_node!(
    /// `a = b`, `a += b`, `a -= b`.
    AssignmentExpr, ASSIGNMENT_EXPR
);
impl AssignmentExpr {
    pub fn lhs(&self) -> Option<Expr> {
        nth_expr(&self.0, 0)
    }
    pub fn rhs(&self) -> Option<Expr> {
        nth_expr(&self.0, 1)
    }
    pub fn op_token(&self) -> Option<SyntaxToken> {
        significant_tokens(&self.0).find(|t| matches!(t.kind(), EQ | PLUS_EQ | MINUS_EQ))
    }
    pub fn op(&self) -> Option<AssignOp> {
        Some(match self.op_token()?.kind() {
            PLUS_EQ => AssignOp::AddAssign,
            MINUS_EQ => AssignOp::SubAssign,
            _ => AssignOp::Assign,
        })
    }
}

/// Relationship arrows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RelationshipOp {
    /// `->`
    Before,
    /// `~>`
    Notify,
    /// `<-`
    Require,
    /// `<~`
    Subscribe,
}

ast_node!(
    /// `a -> b`, `a ~> b`, `a <- b`, `a <~ b`.
    RelationshipExpr, RELATIONSHIP_EXPR
);
impl RelationshipExpr {
    pub fn lhs(&self) -> Option<Expr> {
        nth_expr(&self.0, 0)
    }
    pub fn rhs(&self) -> Option<Expr> {
        nth_expr(&self.0, 1)
    }
    pub fn op(&self) -> Option<RelationshipOp> {
        operator(&self.0, |k| match k {
            IN_EDGE => Some(RelationshipOp::Before),
            IN_EDGE_SUB => Some(RelationshipOp::Notify),
            OUT_EDGE => Some(RelationshipOp::Require),
            OUT_EDGE_SUB => Some(RelationshipOp::Subscribe),
            _ => None,
        })
        .map(|(_, op)| op)
    }
}

ast_node!(
    /// `(args)` of a call or `[args]` of an access.
    ArgList, ARG_LIST
);
impl ArgList {
    pub fn args(&self) -> impl Iterator<Item = Expr> {
        children(&self.0)
    }
}

ast_node!(
    /// `target[args]`.
    AccessExpr, ACCESS_EXPR
);
impl AccessExpr {
    pub fn target(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn args(&self) -> Vec<Expr> {
        child::<ArgList>(&self.0)
            .map(|a| a.args().collect())
            .unwrap_or_default()
    }
}

ast_node!(
    /// `f(args) |params| { ... }`.
    CallExpr, CALL_EXPR
);
impl CallExpr {
    pub fn callee(&self) -> Option<Expr> {
        child(&self.0)
    }
    /// The function name when the callee is a plain name.
    pub fn function_name(&self) -> Option<String> {
        match self.callee()? {
            Expr::QualifiedName(n) => Some(n.name()),
            _ => None,
        }
    }
    pub fn arg_list(&self) -> Option<ArgList> {
        child(&self.0)
    }
    pub fn args(&self) -> Vec<Expr> {
        self.arg_list()
            .map(|a| a.args().collect())
            .unwrap_or_default()
    }
    pub fn lambda(&self) -> Option<Lambda> {
        child(&self.0)
    }
}

ast_node!(
    /// `receiver.name(args) |params| { ... }`.
    MethodCallExpr, METHOD_CALL_EXPR
);
impl MethodCallExpr {
    pub fn receiver(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn name_token(&self) -> Option<SyntaxToken> {
        significant_tokens(&self.0)
            .skip_while(|t| t.kind() != DOT)
            .nth(1)
            .filter(|t| matches!(t.kind(), NAME | TYPE_KW))
    }
    pub fn name(&self) -> Option<String> {
        self.name_token().map(|t| t.text().to_string())
    }
    pub fn arg_list(&self) -> Option<ArgList> {
        child(&self.0)
    }
    pub fn args(&self) -> Vec<Expr> {
        self.arg_list()
            .map(|a| a.args().collect())
            .unwrap_or_default()
    }
    pub fn lambda(&self) -> Option<Lambda> {
        child(&self.0)
    }
}

ast_node!(
    /// `include a, b`: a call without parentheses.
    StatementCall, STATEMENT_CALL
);
impl StatementCall {
    pub fn name_expr(&self) -> Option<QualifiedName> {
        child(&self.0)
    }
    pub fn name(&self) -> Option<String> {
        self.name_expr().map(|n| n.name())
    }
    pub fn args(&self) -> impl Iterator<Item = Expr> {
        children::<Expr>(&self.0).skip(1)
    }
}

ast_node!(
    /// `|params| >> Type { ... }`.
    Lambda, LAMBDA
);
impl Lambda {
    pub fn params(&self) -> Option<ParamList> {
        child(&self.0)
    }
    pub fn return_type(&self) -> Option<ReturnType> {
        child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// `subject ? { matcher => value, ... }`.
    SelectorExpr, SELECTOR_EXPR
);
impl SelectorExpr {
    pub fn subject(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn entries(&self) -> impl Iterator<Item = SelectorEntry> {
        children(&self.0)
    }
}

ast_node!(
    /// `matcher => value` in a selector.
    SelectorEntry, SELECTOR_ENTRY
);
impl SelectorEntry {
    pub fn matcher(&self) -> Option<Expr> {
        expr_before(&self.0, FAT_ARROW)
    }
    pub fn value(&self) -> Option<Expr> {
        expr_after(&self.0, FAT_ARROW)
    }
}

ast_node!(
    /// `case subject { options }`.
    CaseExpr, CASE_EXPR
);
impl CaseExpr {
    pub fn subject(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn options(&self) -> impl Iterator<Item = CaseOption> {
        children(&self.0)
    }
}

ast_node!(
    /// `a, b: { ... }` in a case expression.
    CaseOption, CASE_OPTION
);
impl CaseOption {
    pub fn values(&self) -> impl Iterator<Item = Expr> {
        children(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// `if cond { } elsif cond { } else { }`.
    IfExpr, IF_EXPR
);
impl IfExpr {
    pub fn condition(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn then_block(&self) -> Option<Block> {
        child(&self.0)
    }
    pub fn elsif_branches(&self) -> impl Iterator<Item = ElsifBranch> {
        children(&self.0)
    }
    pub fn else_branch(&self) -> Option<ElseBranch> {
        child(&self.0)
    }
}

ast_node!(
    /// `elsif cond { ... }`.
    ElsifBranch, ELSIF_BRANCH
);
impl ElsifBranch {
    pub fn condition(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn block(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// `else { ... }`.
    ElseBranch, ELSE_BRANCH
);
impl ElseBranch {
    pub fn block(&self) -> Option<Block> {
        child(&self.0)
    }
}

ast_node!(
    /// `unless cond { } else { }`.
    UnlessExpr, UNLESS_EXPR
);
impl UnlessExpr {
    pub fn condition(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn then_block(&self) -> Option<Block> {
        child(&self.0)
    }
    pub fn else_branch(&self) -> Option<ElseBranch> {
        child(&self.0)
    }
}

/// Regular, virtual (`@`) or exported (`@@`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceForm {
    Regular,
    Virtual,
    Exported,
}

ast_node!(
    /// `type { title: attrs; ... }`, with `@`/`@@` forms and `class { }`.
    ResourceExpr, RESOURCE_EXPR
);
impl ResourceExpr {
    pub fn form(&self) -> ResourceForm {
        match first_significant_token(&self.0).map(|t| t.kind()) {
            Some(AT) => ResourceForm::Virtual,
            Some(ATAT) => ResourceForm::Exported,
            _ => ResourceForm::Regular,
        }
    }
    /// The type: a name (`file`, `class`), a reference or `Resource[x]`.
    pub fn type_expr(&self) -> Option<Expr> {
        child(&self.0)
    }
    /// The lower-case type name for plain `name { }` and `class { }`.
    pub fn type_name(&self) -> Option<String> {
        match self.type_expr()? {
            Expr::QualifiedName(n) => Some(n.name()),
            Expr::TypeReference(r) => Some(r.name().to_lowercase()),
            _ => None,
        }
    }
    pub fn bodies(&self) -> impl Iterator<Item = ResourceBody> {
        children(&self.0)
    }
}

ast_node!(
    /// `title: attrs` of a resource expression.
    ResourceBody, RESOURCE_BODY
);
impl ResourceBody {
    pub fn title(&self) -> Option<Expr> {
        expr_before(&self.0, COLON)
    }
    /// `default: ...`: not a resource, but attributes for every other body
    /// of the expression.
    pub fn is_default(&self) -> bool {
        matches!(
            self.title(),
            Some(Expr::Literal(l)) if l.value() == Some(LiteralValue::Default)
        )
    }
    pub fn attributes(&self) -> impl Iterator<Item = Attribute> {
        children(&self.0)
    }
}

ast_node!(
    /// `name => value`, `name +> value` or `* => hash`.
    Attribute, ATTRIBUTE
);
impl Attribute {
    pub fn name_token(&self) -> Option<SyntaxToken> {
        first_significant_token(&self.0)
    }
    pub fn name(&self) -> Option<String> {
        self.name_token().map(|t| t.text().to_string())
    }
    /// `* => hash`.
    pub fn is_splat(&self) -> bool {
        self.name_token().is_some_and(|t| t.kind() == STAR)
    }
    /// `+>` (append) rather than `=>`.
    pub fn is_append(&self) -> bool {
        token(&self.0, PLUS_ARROW).is_some()
    }
    pub fn value(&self) -> Option<Expr> {
        child(&self.0)
    }
}

ast_node!(
    /// `Type { attrs }`.
    ResourceDefaults, RESOURCE_DEFAULTS
);
impl ResourceDefaults {
    pub fn type_expr(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn attributes(&self) -> impl Iterator<Item = Attribute> {
        children(&self.0)
    }
}

ast_node!(
    /// `Type['title'] { attrs }`.
    ResourceOverride, RESOURCE_OVERRIDE
);
impl ResourceOverride {
    pub fn target(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn attributes(&self) -> impl Iterator<Item = Attribute> {
        children(&self.0)
    }
}

ast_node!(
    /// `Type <| query |> { attrs }`.
    Collector, COLLECTOR
);
impl Collector {
    pub fn type_expr(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn query(&self) -> Option<CollectQuery> {
        child(&self.0)
    }
    pub fn attributes(&self) -> impl Iterator<Item = Attribute> {
        children(&self.0)
    }
}

ast_node!(
    /// `<| expr |>` or `<<| expr |>>`.
    CollectQuery, COLLECT_QUERY
);
impl CollectQuery {
    pub fn is_exported(&self) -> bool {
        token(&self.0, LLCOLLECT).is_some()
    }
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
}

ast_node!(
    /// `private` or `attr` used as a value.
    ReservedWord, RESERVED_WORD
);

ast_node!(
    /// Template text.
    RenderString, RENDER_STRING
);
impl RenderString {
    /// The text Puppet renders: every piece of template text in it (pieces
    /// split by template comments form one string).
    pub fn text(&self) -> String {
        significant_tokens(&self.0)
            .filter(|t| t.kind() == EPP_TEXT)
            .map(|t| t.text().to_string())
            .collect()
    }
}

ast_node!(
    /// `<%= expr %>`.
    RenderExpr, RENDER_EXPR
);
impl RenderExpr {
    pub fn expr(&self) -> Option<Expr> {
        child(&self.0)
    }
    pub fn block(&self) -> Option<Block> {
        child(&self.0)
    }
}
