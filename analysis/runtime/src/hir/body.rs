//! The lowered body of an item: its expressions in an arena, without
//! positions and without syntax trivia. Inference, the evaluator, the
//! resolver and the checks all read this one model; where an expression
//! is in the text is kept apart, in the [`BodySourceMap`], so that an edit
//! that keeps a body equal (a comment, spacing, or anything in another
//! item) recomputes nothing that depends on it.
//!
//! Lowering decides once what the syntax means (an interpolated `${x}` is
//! the variable `$x`, a heredoc's text with its margin and escapes, an
//! unfolded hash argument), so that its readers need not.

use crate::hir::DefKind;
use puppet_syntax::ast::{AssignOp, BinaryOp, RelationshipOp, ResourceForm, UnaryOp};
use puppet_syntax::TextRange;

/// An interned name: cheap to copy, compare and hash (by address), ordered
/// by its text. Names live as long as the process; the pool grows with the
/// distinct names of the code base, not with its size.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name(internment::Intern<str>);

/// Interns a name.
pub fn name(text: &str) -> Name {
    Name(internment::Intern::from(text))
}

impl Name {
    pub fn as_str(&self) -> &'static str {
        self.0.as_ref()
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

/// An expression of a [`Body`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExprId(u32);

impl ExprId {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn from_index(index: usize) -> ExprId {
        ExprId(index as u32)
    }
}

/// A lambda of a [`Body`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LambdaId(u32);

impl LambdaId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A float literal, compared by its bits (so that bodies can be compared).
#[derive(Debug, Clone, Copy)]
pub struct FloatLit(pub f64);

impl PartialEq for FloatLit {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for FloatLit {}

impl std::hash::Hash for FloatLit {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

/// A literal value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Literal {
    Integer(i64),
    Float(FloatLit),
    Boolean(bool),
    Undef,
    Default,
    /// A quoted string without interpolation, a bare word, a reserved word
    /// or a keyword used as a value (`type`).
    String(String),
}

/// A piece of an interpolated string or heredoc.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StringPart {
    /// Text with escapes (and a heredoc's margin) already applied.
    Text(String),
    Expr(ExprId),
}

/// A block of statements.
pub type Block = Vec<ExprId>;

/// A declared parameter (of a definition, lambda or template).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Param {
    pub name: Name,
    pub ty: Option<ExprId>,
    pub default: Option<ExprId>,
    /// `*$rest`: takes the remaining arguments.
    pub rest: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Lambda {
    pub params: Vec<Param>,
    pub return_type: Option<ExprId>,
    pub body: Block,
}

/// The template of an `inline_epp()` call whose text is written out (see
/// [`crate::hir::inline_template`]): Puppet renders it as a lambda closing
/// over the calling scope, so it is lowered as one, not attached to the
/// call (it is no block the call passes).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InlineTemplate {
    /// The `inline_epp()` call.
    pub call: ExprId,
    /// The template's parameters and statements.
    pub lambda: LambdaId,
    /// The template has a parameter header (`<%- |$x| -%>`, maybe empty):
    /// the hash passed is then matched against its parameters.
    pub has_params: bool,
}

/// `name => value`, `name +> value` or `* => hash` of a resource body,
/// default, override or collector.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Attribute {
    /// `None` for `* => hash`.
    pub name: Option<Name>,
    /// `+>`.
    pub append: bool,
    pub value: ExprId,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ResourceBody {
    pub title: ExprId,
    pub attributes: Vec<Attribute>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CaseOption {
    pub values: Vec<ExprId>,
    pub body: Block,
}

/// How a call is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallStyle {
    /// `f(args)`.
    Parens,
    /// `include a, b`.
    Statement,
}

/// An expression.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A part of the syntax is missing (the tree has an error there).
    Missing,
    /// A construct Puppet rejects when it evaluates it, with its message
    /// (`${true}`, an illegal numeric variable, an integer out of range).
    Error(String),
    Literal(Literal),
    /// A lower-case name standing as a value (`file`, `ntp::config`): a
    /// string, but also how resource types, classes and functions are
    /// named.
    Name(Name),
    /// A double-quoted string or heredoc.
    String(Vec<StringPart>),
    Regex(String),
    /// A type name as written (`Integer`, `Apache::Vhost`), without a
    /// leading `::`.
    TypeRef(Name),
    /// `$x`, without `$`; `$::x` keeps its `::`.
    Variable(Name),
    Array(Vec<ExprId>),
    Hash {
        entries: Vec<(ExprId, ExprId)>,
        /// Written without braces among arguments or array elements.
        unfolded: bool,
    },
    Unary {
        op: UnaryOp,
        operand: ExprId,
    },
    Binary {
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    Assign {
        op: AssignOp,
        /// A `Variable`, or an `Array` of them.
        target: ExprId,
        value: ExprId,
    },
    Access {
        target: ExprId,
        keys: Vec<ExprId>,
    },
    /// A call of a named function.
    Call {
        function: Name,
        args: Vec<ExprId>,
        lambda: Option<LambdaId>,
        style: CallStyle,
    },
    /// A call of an expression's value (`Integer('1')`).
    CallValue {
        callee: ExprId,
        args: Vec<ExprId>,
        lambda: Option<LambdaId>,
    },
    MethodCall {
        receiver: ExprId,
        function: Name,
        args: Vec<ExprId>,
        lambda: Option<LambdaId>,
    },
    If {
        condition: ExprId,
        then: Block,
        elsifs: Vec<(ExprId, Block)>,
        otherwise: Option<Block>,
    },
    Unless {
        condition: ExprId,
        then: Block,
        otherwise: Option<Block>,
    },
    Case {
        subject: ExprId,
        options: Vec<CaseOption>,
    },
    Selector {
        subject: ExprId,
        entries: Vec<(ExprId, ExprId)>,
    },
    Resource {
        form: ResourceForm,
        /// The type: a `Name`, `TypeRef`, or computed.
        type_expr: ExprId,
        bodies: Vec<ResourceBody>,
    },
    ResourceDefaults {
        type_expr: ExprId,
        attributes: Vec<Attribute>,
    },
    ResourceOverride {
        target: ExprId,
        attributes: Vec<Attribute>,
    },
    Collector {
        type_expr: ExprId,
        exported: bool,
        query: Option<ExprId>,
        attributes: Vec<Attribute>,
    },
    Relationship {
        op: RelationshipOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    /// A definition nested in this body (a class in a class); it is an
    /// item of its own.
    Definition {
        kind: DefKind,
        name: Name,
    },
    /// Template text.
    RenderString(String),
    /// `<%= expr %>`.
    RenderExpr(ExprId),
    /// `<%= { statements } %>`.
    RenderBlock(Block),
    /// Bolt's `apply(targets) { ... }`.
    Apply {
        args: Vec<ExprId>,
        body: Block,
    },
    /// A node definition's matcher (`www.example.com`, a regexp or string).
    Hostname(String),
}

/// What kind of body it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BodyKind {
    /// A manifest's top level.
    Manifest,
    /// An EPP template; `has_params` when it declares its parameters.
    Template {
        has_params: bool,
    },
    Definition(DefKind),
}

/// The lowered body of an item.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Body {
    pub kind: BodyKind,
    exprs: Vec<Expr>,
    lambdas: Vec<Lambda>,
    /// The item's parameters (definitions, templates).
    pub params: Vec<Param>,
    /// A function's or plan's declared return type; a type alias's value.
    pub return_type: Option<ExprId>,
    /// A node's matchers.
    pub matchers: Vec<ExprId>,
    /// The statements.
    pub body: Block,
    /// The templates of `inline_epp()` calls, by call (in call order).
    inline_templates: Vec<InlineTemplate>,
}

impl std::ops::Index<ExprId> for Body {
    type Output = Expr;
    fn index(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }
}

impl std::ops::Index<LambdaId> for Body {
    type Output = Lambda;
    fn index(&self, id: LambdaId) -> &Lambda {
        &self.lambdas[id.index()]
    }
}

impl Body {
    pub fn new(kind: BodyKind) -> Body {
        Body {
            kind,
            exprs: Vec::new(),
            lambdas: Vec::new(),
            params: Vec::new(),
            return_type: None,
            matchers: Vec::new(),
            body: Vec::new(),
            inline_templates: Vec::new(),
        }
    }

    /// Gives back the arenas' spare room once lowering is done: bodies
    /// are kept for the whole workspace.
    pub fn shrink_to_fit(&mut self) {
        self.exprs.shrink_to_fit();
        self.lambdas.shrink_to_fit();
        self.inline_templates.shrink_to_fit();
    }

    pub fn alloc(&mut self, expr: Expr) -> ExprId {
        self.exprs.push(expr);
        ExprId((self.exprs.len() - 1) as u32)
    }

    pub fn alloc_lambda(&mut self, lambda: Lambda) -> LambdaId {
        self.lambdas.push(lambda);
        LambdaId((self.lambdas.len() - 1) as u32)
    }

    /// Every expression, in allocation order (children before parents).
    pub fn exprs(&self) -> impl Iterator<Item = (ExprId, &Expr)> {
        self.exprs
            .iter()
            .enumerate()
            .map(|(i, e)| (ExprId(i as u32), e))
    }

    pub fn lambdas(&self) -> impl Iterator<Item = (LambdaId, &Lambda)> {
        self.lambdas
            .iter()
            .enumerate()
            .map(|(i, l)| (LambdaId(i as u32), l))
    }

    pub fn len(&self) -> usize {
        self.exprs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.exprs.is_empty()
    }

    /// Records the template of an `inline_epp()` call, allocated after
    /// every call before it.
    pub fn add_inline_template(&mut self, template: InlineTemplate) {
        debug_assert!(self
            .inline_templates
            .last()
            .is_none_or(|t| t.call < template.call));
        self.inline_templates.push(template);
    }

    /// The template an `inline_epp()` call renders, when its text is
    /// written out.
    pub fn inline_template(&self, call: ExprId) -> Option<&InlineTemplate> {
        let found = self
            .inline_templates
            .binary_search_by_key(&call, |t| t.call)
            .ok()?;
        self.inline_templates.get(found)
    }

    /// The string a literal-like expression stands for (names, quoted
    /// strings without interpolation, bare words): class names, titles,
    /// template paths, hash keys.
    pub fn static_string(&self, id: ExprId) -> Option<&str> {
        match &self[id] {
            Expr::Name(n) => Some(n.as_str()),
            Expr::Literal(Literal::String(s)) => Some(s),
            Expr::String(parts) => match parts.as_slice() {
                [] => Some(""),
                [StringPart::Text(t)] => Some(t),
                _ => None,
            },
            _ => None,
        }
    }

    /// The direct sub-expressions of an expression, in evaluation order
    /// (lambda bodies are not included, nor the templates of `inline_epp()`
    /// calls; see [`Body::lambdas`] and [`Body::inline_template`]).
    pub fn children(&self, id: ExprId) -> Vec<ExprId> {
        let mut out = Vec::new();
        let attributes = |out: &mut Vec<ExprId>, attributes: &[Attribute]| {
            out.extend(attributes.iter().map(|a| a.value));
        };
        match &self[id] {
            Expr::Missing
            | Expr::Error(_)
            | Expr::Literal(_)
            | Expr::Name(_)
            | Expr::Regex(_)
            | Expr::TypeRef(_)
            | Expr::Variable(_)
            | Expr::Definition { .. }
            | Expr::RenderString(_)
            | Expr::Hostname(_) => {}
            Expr::String(parts) => out.extend(parts.iter().filter_map(|p| match p {
                StringPart::Expr(e) => Some(*e),
                StringPart::Text(_) => None,
            })),
            Expr::Array(items) => out.extend(items),
            Expr::Hash { entries, .. } => {
                for (k, v) in entries {
                    out.push(*k);
                    out.push(*v);
                }
            }
            Expr::Unary { operand, .. } => out.push(*operand),
            Expr::Binary { lhs, rhs, .. } | Expr::Relationship { lhs, rhs, .. } => {
                out.push(*lhs);
                out.push(*rhs);
            }
            Expr::Assign { target, value, .. } => {
                out.push(*value);
                out.push(*target);
            }
            Expr::Access { target, keys } => {
                out.push(*target);
                out.extend(keys);
            }
            Expr::Call { args, .. } => out.extend(args),
            Expr::CallValue { callee, args, .. } => {
                out.push(*callee);
                out.extend(args);
            }
            Expr::MethodCall { receiver, args, .. } => {
                out.push(*receiver);
                out.extend(args);
            }
            Expr::If {
                condition,
                then,
                elsifs,
                otherwise,
            } => {
                out.push(*condition);
                out.extend(then);
                for (c, b) in elsifs {
                    out.push(*c);
                    out.extend(b);
                }
                out.extend(otherwise.iter().flatten());
            }
            Expr::Unless {
                condition,
                then,
                otherwise,
            } => {
                out.push(*condition);
                out.extend(then);
                out.extend(otherwise.iter().flatten());
            }
            Expr::Case { subject, options } => {
                out.push(*subject);
                for option in options {
                    out.extend(&option.values);
                    out.extend(&option.body);
                }
            }
            Expr::Selector { subject, entries } => {
                out.push(*subject);
                for (m, v) in entries {
                    out.push(*m);
                    out.push(*v);
                }
            }
            Expr::Resource {
                type_expr, bodies, ..
            } => {
                out.push(*type_expr);
                for body in bodies {
                    out.push(body.title);
                    attributes(&mut out, &body.attributes);
                }
            }
            Expr::ResourceDefaults {
                type_expr,
                attributes: attrs,
            } => {
                out.push(*type_expr);
                attributes(&mut out, attrs);
            }
            Expr::ResourceOverride {
                target,
                attributes: attrs,
            } => {
                out.push(*target);
                attributes(&mut out, attrs);
            }
            Expr::Collector {
                type_expr,
                query,
                attributes: attrs,
                ..
            } => {
                out.push(*type_expr);
                out.extend(query);
                attributes(&mut out, attrs);
            }
            Expr::RenderExpr(e) => out.push(*e),
            Expr::RenderBlock(block) => out.extend(block),
            Expr::Apply { args, body } => {
                out.extend(args);
                out.extend(body);
            }
        }
        out
    }

    /// The lambda an expression passes (calls).
    /// Whether `id` is a call of `fail()`, which always stops the
    /// compilation.
    pub fn is_fail_call(&self, id: ExprId) -> bool {
        matches!(&self[id], Expr::Call { function, .. } if function.as_str() == "fail")
    }

    pub fn lambda_of(&self, id: ExprId) -> Option<LambdaId> {
        match &self[id] {
            Expr::Call { lambda, .. }
            | Expr::CallValue { lambda, .. }
            | Expr::MethodCall { lambda, .. } => *lambda,
            _ => None,
        }
    }
}

/// A range within one segment of an item's content (see
/// [`crate::hir::items::ItemContent`]): relative to the segment's start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SegmentRange {
    pub segment: u32,
    pub range: TextRange,
}

impl SegmentRange {
    pub fn new(segment: u32, range: TextRange) -> SegmentRange {
        SegmentRange { segment, range }
    }

    pub fn contains_range(&self, other: SegmentRange) -> bool {
        self.segment == other.segment && self.range.contains_range(other.range)
    }
}

/// Where a body's expressions, lambdas and parameters are, by segment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BodySourceMap {
    exprs: Vec<SegmentRange>,
    lambdas: Vec<SegmentRange>,
    /// The variable token of each of the body's own parameters.
    params: Vec<SegmentRange>,
    /// The variable tokens of each lambda's parameters.
    lambda_params: Vec<Vec<SegmentRange>>,
    /// Expressions sorted by position (longest first at equal starts),
    /// for lookups.
    by_start: Vec<ExprId>,
}

impl BodySourceMap {
    pub fn record(&mut self, id: ExprId, range: SegmentRange) {
        let i = id.index();
        if self.exprs.len() <= i {
            self.exprs.resize(i + 1, SegmentRange::default());
        }
        self.exprs[i] = range;
    }

    pub fn record_lambda(&mut self, id: LambdaId, range: SegmentRange, params: Vec<SegmentRange>) {
        let i = id.index();
        if self.lambdas.len() <= i {
            self.lambdas.resize(i + 1, SegmentRange::default());
            self.lambda_params.resize(i + 1, Vec::new());
        }
        self.lambdas[i] = range;
        self.lambda_params[i] = params;
    }

    pub fn record_params(&mut self, params: Vec<SegmentRange>) {
        self.params = params;
    }

    pub fn finish(&mut self) {
        self.exprs.shrink_to_fit();
        let mut ids: Vec<ExprId> = (0..self.exprs.len() as u32).map(ExprId).collect();
        ids.sort_by_key(|id| {
            let r = self.exprs[id.index()];
            (r.segment, r.range.start(), std::cmp::Reverse(r.range.end()))
        });
        self.by_start = ids;
    }

    pub fn expr_range(&self, id: ExprId) -> SegmentRange {
        self.exprs.get(id.index()).copied().unwrap_or_default()
    }

    pub fn lambda_range(&self, id: LambdaId) -> SegmentRange {
        self.lambdas.get(id.index()).copied().unwrap_or_default()
    }

    /// The variable token of the body's `i`-th parameter.
    pub fn param_range(&self, i: usize) -> Option<SegmentRange> {
        self.params.get(i).copied()
    }

    /// The variable token of parameter `i` of a lambda.
    pub fn lambda_param_range(&self, lambda: LambdaId, i: usize) -> Option<SegmentRange> {
        self.lambda_params.get(lambda.index())?.get(i).copied()
    }

    /// The expression with exactly this range (the outermost one when
    /// several share it).
    pub fn expr_at_range(&self, range: SegmentRange) -> Option<ExprId> {
        let key = |id: &ExprId| {
            let r = self.exprs[id.index()];
            (r.segment, r.range.start())
        };
        let start = self
            .by_start
            .partition_point(|id| key(id) < (range.segment, range.range.start()));
        self.by_start[start..]
            .iter()
            .take_while(|id| key(id) == (range.segment, range.range.start()))
            .find(|id| self.exprs[id.index()] == range)
            .copied()
    }

    /// The innermost expression whose range contains `range`.
    pub fn innermost_containing(&self, range: SegmentRange) -> Option<ExprId> {
        let end = self.by_start.partition_point(|id| {
            let r = self.exprs[id.index()];
            (r.segment, r.range.start()) <= (range.segment, range.range.start())
        });
        self.by_start[..end]
            .iter()
            .filter(|id| self.exprs[id.index()].contains_range(range))
            .min_by_key(|id| self.exprs[id.index()].range.len())
            .copied()
    }
}
