//! Lowering: an item's syntax tree to its [`Body`] and [`BodySourceMap`].
//!
//! The item's tree is a root of its own (offsets relative to the item), so
//! the body depends on nothing outside the item. Lowering never fails:
//! what the tree lacks becomes [`Expr::Missing`], and constructs Puppet
//! rejects when evaluated become [`Expr::Error`] with Puppet's message.

use super::body::{
    name, Attribute, Block, Body, BodyKind, BodySourceMap, CallStyle, CaseOption, Expr, ExprId,
    FloatLit, InlineTemplate, Lambda, LambdaId, Literal, Param, ResourceBody, SegmentRange,
    StringPart,
};
use super::inline_template::{inline_epp, INLINE_EPP, MAX_TEMPLATE_NESTING};
use super::items::{ItemContent, TopStatement};
use crate::hir::DefKind;
use puppet_syntax::ast::{self, AstNode, LiteralValue, Number, NumberError, TextOrigin};
use puppet_syntax::{SourceKind, SyntaxKind, SyntaxNode, TextRange, TextSize};

/// Nesting deeper than this is not lowered (it becomes `Missing`): the
/// evaluator stops far earlier, and this keeps the recursion within a
/// small stack on hostile input.
const MAX_DEPTH: u32 = 256;

/// Lowers an item's content: a definition's node, or a file's top level
/// (with nested definitions as [`Expr::Definition`] placeholders).
pub fn lower_item(content: &ItemContent) -> (Body, BodySourceMap) {
    let mut cx = Lowering::new(BodyKind::Manifest);
    match content {
        ItemContent::Definition(green) => {
            if let Some(expr) = ast::Expr::cast(green.syntax()) {
                cx.definition(&expr);
            }
        }
        ItemContent::TopLevel {
            source,
            params,
            statements,
        } => {
            let params = params
                .as_ref()
                .and_then(|green| ast::EppParams::cast(green.syntax()).and_then(|p| p.params()));
            if *source == SourceKind::Template {
                cx.body.kind = BodyKind::Template {
                    has_params: params.is_some(),
                };
            }
            if let Some(list) = params {
                cx.body_params(&list);
                cx.segment += 1;
            }
            let mut body = Vec::new();
            for statement in statements {
                match statement {
                    TopStatement::Code(green) => {
                        for expr in ast::children::<ast::Expr>(&green.syntax()) {
                            body.push(cx.expr(&expr));
                        }
                        cx.segment += 1;
                    }
                    TopStatement::Definition { kind, name } => {
                        let placeholder = Expr::Definition {
                            kind: *kind,
                            name: super::body::name(name),
                        };
                        body.push(cx.alloc_at(placeholder, NOWHERE));
                    }
                }
            }
            cx.body.body = body;
        }
    }
    cx.finish()
}

/// Where a placeholder for a definition is: in no segment.
const NOWHERE: TextRange = TextRange::empty(TextSize::new(0));

/// A whole text lowered outside the database: its top level and its
/// definitions (for the evaluator of a lone text).
pub struct LoweredFile {
    pub top: std::sync::Arc<Body>,
    pub definitions: Vec<LoweredDefinition>,
}

pub struct LoweredDefinition {
    pub kind: DefKind,
    /// As in the item tree (qualified and lower-cased, or as written for
    /// type aliases).
    pub name: String,
    pub body: std::sync::Arc<Body>,
}

pub fn lower_file(root: &SyntaxNode, source: SourceKind) -> LoweredFile {
    let mut items = super::items::collect_items(root, source).into_iter();
    let top = items
        .next()
        .map(|top| lower_item(&top.content).0)
        .unwrap_or_else(|| Body::new(BodyKind::Manifest));
    let definitions = items
        .filter_map(|item| {
            let super::items::ItemKind::Definition(kind) = item.kind else {
                return None;
            };
            Some(LoweredDefinition {
                kind,
                name: item.name.to_string(),
                body: std::sync::Arc::new(lower_item(&item.content).0),
            })
        })
        .collect();
    LoweredFile {
        top: std::sync::Arc::new(top),
        definitions,
    }
}

/// Lowers a lone expression (a type written as text, a test): its body
/// holds it as the only statement.
pub fn lower_expression(expr: &ast::Expr) -> (Body, BodySourceMap, ExprId) {
    let mut cx = Lowering::new(BodyKind::Manifest);
    let id = cx.expr(expr);
    cx.body.body = vec![id];
    let (body, map) = cx.finish();
    (body, map, id)
}

struct Lowering {
    body: Body,
    map: BodySourceMap,
    depth: u32,
    /// The segment whose tree is being lowered.
    segment: u32,
    /// While lowering `inline_epp()` templates: where each one's text is in
    /// the text around it, outermost first.
    origins: Vec<TextOrigin>,
}

impl Lowering {
    fn new(kind: BodyKind) -> Lowering {
        Lowering {
            body: Body::new(kind),
            map: BodySourceMap::default(),
            depth: 0,
            segment: 0,
            origins: Vec::new(),
        }
    }

    fn finish(mut self) -> (Body, BodySourceMap) {
        self.map.finish();
        self.body.shrink_to_fit();
        (self.body, self.map)
    }

    fn alloc(&mut self, expr: Expr, node: &SyntaxNode) -> ExprId {
        self.alloc_at(expr, node.text_range())
    }

    fn alloc_at(&mut self, expr: Expr, range: TextRange) -> ExprId {
        let id = self.body.alloc(expr);
        self.map.record(id, self.here(range));
        id
    }

    /// A range of the tree being lowered in its segment (through the
    /// texts of the templates being lowered).
    fn here(&self, range: TextRange) -> SegmentRange {
        let range = self
            .origins
            .iter()
            .rev()
            .fold(range, |range, origin| origin.source_range(range));
        SegmentRange::new(self.segment, range)
    }

    /// The body of a definition: parameters, return type, statements.
    fn definition(&mut self, expr: &ast::Expr) {
        let node = expr.syntax();
        let kind = match expr {
            ast::Expr::ClassDef(_) => DefKind::Class,
            ast::Expr::DefineDef(_) => DefKind::DefinedType,
            ast::Expr::FunctionDef(_) => DefKind::Function,
            ast::Expr::PlanDef(_) => DefKind::Plan,
            ast::Expr::TypeAlias(_) => DefKind::TypeAlias,
            ast::Expr::NodeDef(_) => DefKind::Node,
            _ => return,
        };
        self.body.kind = BodyKind::Definition(kind);
        if let Some(list) = node.children().find_map(ast::ParamList::cast) {
            self.body_params(&list);
        }
        match expr {
            ast::Expr::FunctionDef(f) => {
                self.body.return_type = f
                    .return_type()
                    .and_then(|r| r.type_expr())
                    .map(|t| self.expr(&t));
            }
            ast::Expr::TypeAlias(a) => {
                self.body.return_type = a.value().map(|v| self.expr(&v));
            }
            ast::Expr::NodeDef(n) => {
                self.body.matchers = n.matchers().map(|m| self.expr(&m)).collect();
            }
            _ => {}
        }
        if let Some(block) = node.children().find_map(ast::Block::cast) {
            self.body.body = self.statements(block.statements());
        }
    }

    fn body_params(&mut self, list: &ast::ParamList) {
        let (params, ranges) = self.params(list);
        self.body.params = params;
        self.map.record_params(ranges);
    }

    fn params(&mut self, list: &ast::ParamList) -> (Vec<Param>, Vec<SegmentRange>) {
        let mut params = Vec::new();
        let mut ranges = Vec::new();
        for p in list.params() {
            let Some(token) = p.variable_token() else {
                continue;
            };
            params.push(Param {
                name: name(token.text().trim_start_matches('$')),
                ty: p.type_expr().map(|t| self.expr(&t)),
                default: p.default_value().map(|d| self.expr(&d)),
                rest: p.captures_rest(),
            });
            ranges.push(self.here(token.text_range()));
        }
        (params, ranges)
    }

    fn statements(&mut self, statements: impl Iterator<Item = ast::Expr>) -> Block {
        statements.map(|s| self.expr(&s)).collect()
    }

    fn block(&mut self, block: Option<ast::Block>) -> Block {
        block.map_or_else(Vec::new, |b| self.statements(b.statements()))
    }

    fn opt(&mut self, expr: Option<ast::Expr>, parent: &SyntaxNode) -> ExprId {
        match expr {
            Some(e) => self.expr(&e),
            None => self.alloc_at(Expr::Missing, TextRange::empty(parent.text_range().end())),
        }
    }

    fn exprs(&mut self, exprs: impl IntoIterator<Item = ast::Expr>) -> Vec<ExprId> {
        exprs.into_iter().map(|e| self.expr(&e)).collect()
    }

    pub(super) fn expr(&mut self, e: &ast::Expr) -> ExprId {
        if self.depth >= MAX_DEPTH {
            return self.alloc(Expr::Missing, e.syntax());
        }
        self.depth += 1;
        let lowered = self.expr_inner(e);
        self.depth -= 1;
        lowered
    }

    fn expr_inner(&mut self, e: &ast::Expr) -> ExprId {
        use ast::Expr as A;
        let node = e.syntax();
        let lowered = match e {
            A::Literal(l) => literal(l),
            A::QualifiedName(n) => Expr::Name(name(&n.name())),
            A::BareWord(w) => Expr::Literal(Literal::String(w.text())),
            A::ReservedWord(w) => Expr::Literal(Literal::String(
                w.syntax().text().to_string().trim().to_string(),
            )),
            A::TypeReference(r) => Expr::TypeRef(name(&r.name())),
            A::VariableExpr(v) => Expr::Variable(name(&v.name())),
            A::SqStringExpr(s) => Expr::Literal(Literal::String(s.value())),
            A::DqStringExpr(s) => self.dq_string(s),
            A::HeredocExpr(h) => self.heredoc(h),
            A::RegexExpr(r) => Expr::Regex(r.pattern()),
            A::ArrayExpr(a) => Expr::Array(self.exprs(a.elements())),
            A::HashExpr(h) => {
                let entries = h
                    .entries()
                    .map(|entry| {
                        let k = self.opt(entry.key(), entry.syntax());
                        let v = self.opt(entry.value(), entry.syntax());
                        (k, v)
                    })
                    .collect();
                Expr::Hash {
                    entries,
                    unfolded: h.is_unfolded(),
                }
            }
            // Parentheses only group.
            A::ParenExpr(p) => return self.opt(p.expr(), node),
            A::BinaryExpr(b) => match b.op() {
                Some(op) => Expr::Binary {
                    op,
                    lhs: self.opt(b.lhs(), node),
                    rhs: self.opt(b.rhs(), node),
                },
                None => Expr::Missing,
            },
            A::UnaryExpr(u) => match u.op() {
                Some(op) => Expr::Unary {
                    op,
                    operand: self.opt(u.operand(), node),
                },
                None => Expr::Missing,
            },
            A::AssignmentExpr(a) => match a.op() {
                Some(op) => {
                    let value = self.opt(a.rhs(), node);
                    let target = self.opt(a.lhs(), node);
                    Expr::Assign { op, target, value }
                }
                None => Expr::Missing,
            },
            A::AccessExpr(a) => Expr::Access {
                target: self.opt(a.target(), node),
                keys: self.exprs(a.args()),
            },
            A::CallExpr(c) => {
                let (call, template) = self.call(c);
                let id = self.alloc(call, node);
                if let Some((lambda, has_params)) = template {
                    self.body.add_inline_template(InlineTemplate {
                        call: id,
                        lambda,
                        has_params,
                    });
                }
                return id;
            }
            A::MethodCallExpr(m) => match m.name() {
                Some(function) => {
                    let receiver = self.opt(m.receiver(), node);
                    let args = self.exprs(m.args());
                    let lambda = m.lambda().map(|l| self.lambda(&l));
                    Expr::MethodCall {
                        receiver,
                        function: name(&function),
                        args,
                        lambda,
                    }
                }
                None => Expr::Missing,
            },
            A::StatementCall(s) => match s.name() {
                Some(function) => Expr::Call {
                    function: name(&function),
                    args: self.exprs(s.args()),
                    lambda: None,
                    style: CallStyle::Statement,
                },
                None => Expr::Missing,
            },
            A::SelectorExpr(s) => Expr::Selector {
                subject: self.opt(s.subject(), node),
                entries: s
                    .entries()
                    .map(|entry| {
                        let m = self.opt(entry.matcher(), entry.syntax());
                        let v = self.opt(entry.value(), entry.syntax());
                        (m, v)
                    })
                    .collect(),
            },
            A::CaseExpr(c) => Expr::Case {
                subject: self.opt(c.subject(), node),
                options: c
                    .options()
                    .map(|o| CaseOption {
                        values: self.exprs(o.values()),
                        body: self.block(o.body()),
                    })
                    .collect(),
            },
            A::IfExpr(i) => Expr::If {
                condition: self.opt(i.condition(), node),
                then: self.block(i.then_block()),
                elsifs: i
                    .elsif_branches()
                    .map(|b| {
                        let c = self.opt(b.condition(), b.syntax());
                        (c, self.block(b.block()))
                    })
                    .collect(),
                otherwise: i.else_branch().map(|b| self.block(b.block())),
            },
            A::UnlessExpr(u) => Expr::Unless {
                condition: self.opt(u.condition(), node),
                then: self.block(u.then_block()),
                otherwise: u.else_branch().map(|b| self.block(b.block())),
            },
            A::ResourceExpr(r) => Expr::Resource {
                form: r.form(),
                type_expr: self.opt(r.type_expr(), node),
                bodies: r
                    .bodies()
                    .map(|b| ResourceBody {
                        title: self.opt(b.title(), b.syntax()),
                        attributes: self.attributes(b.attributes()),
                    })
                    .collect(),
            },
            A::ResourceDefaults(d) => Expr::ResourceDefaults {
                type_expr: self.opt(d.type_expr(), node),
                attributes: self.attributes(d.attributes()),
            },
            A::ResourceOverride(o) => Expr::ResourceOverride {
                target: self.opt(o.target(), node),
                attributes: self.attributes(o.attributes()),
            },
            A::Collector(c) => {
                let query = c.query();
                Expr::Collector {
                    type_expr: self.opt(c.type_expr(), node),
                    exported: query.as_ref().is_some_and(|q| q.is_exported()),
                    query: query.and_then(|q| q.expr()).map(|q| self.expr(&q)),
                    attributes: self.attributes(c.attributes()),
                }
            }
            A::RelationshipExpr(r) => match r.op() {
                Some(op) => Expr::Relationship {
                    op,
                    lhs: self.opt(r.lhs(), node),
                    rhs: self.opt(r.rhs(), node),
                },
                None => Expr::Missing,
            },
            A::ClassDef(d) => nested(DefKind::Class, d.name()),
            A::DefineDef(d) => nested(DefKind::DefinedType, d.name()),
            A::FunctionDef(d) => nested(DefKind::Function, d.name()),
            A::PlanDef(d) => nested(DefKind::Plan, d.name()),
            A::TypeAlias(a) => nested(DefKind::TypeAlias, a.name()),
            A::NodeDef(_) => nested(DefKind::Node, Some(String::new())),
            A::TypeDef(_) => Expr::Missing,
            A::ApplyExpr(a) => Expr::Apply {
                args: a
                    .args()
                    .map(|list| self.exprs(list.args()))
                    .unwrap_or_default(),
                body: self.block(a.body()),
            },
            A::RenderString(r) => Expr::RenderString(r.text()),
            A::RenderExpr(r) => match (r.block(), r.expr()) {
                (Some(block), _) => Expr::RenderBlock(self.statements(block.statements())),
                (None, expr) => Expr::RenderExpr(self.opt(expr, node)),
            },
            A::Hostname(h) => Expr::Hostname(h.text()),
        };
        self.alloc(lowered, node)
    }

    /// A call, and the template it renders if it is an `inline_epp()` of a
    /// written-out text (its lambda, and whether it has a parameter header).
    fn call(&mut self, c: &ast::CallExpr) -> (Expr, Option<(LambdaId, bool)>) {
        let node = c.syntax();
        let call = match c.callee() {
            Some(ast::Expr::QualifiedName(n)) => {
                let args = self.exprs(c.args());
                let lambda = c.lambda().map(|l| self.lambda(&l));
                let function = n.name();
                let template = if function == INLINE_EPP {
                    self.inline_template(c)
                } else {
                    None
                };
                let call = Expr::Call {
                    function: name(&function),
                    args,
                    lambda,
                    style: CallStyle::Parens,
                };
                return (call, template);
            }
            Some(other) => {
                let callee = self.expr(&other);
                let args = self.exprs(c.args());
                let lambda = c.lambda().map(|l| self.lambda(&l));
                Expr::CallValue {
                    callee,
                    args,
                    lambda,
                }
            }
            None => {
                let _ = node;
                Expr::Missing
            }
        };
        (call, None)
    }

    /// The template of an `inline_epp()` call whose text is written out,
    /// lowered as a lambda: its header's parameters and its statements,
    /// their positions in the text mapped to the tree. Not when the text
    /// does not parse (Puppet fails there, rendering nothing).
    fn inline_template(&mut self, c: &ast::CallExpr) -> Option<(LambdaId, bool)> {
        if self.origins.len() >= MAX_TEMPLATE_NESTING {
            return None;
        }
        let template = inline_epp(c)?;
        if template.has_syntax_errors() {
            return None;
        }
        let tree = template.parse.tree();
        let header = tree.epp_params().and_then(|p| p.params());
        let literal = self.here(template.literal.syntax().text_range());
        self.origins.push(template.origin);
        let (params, ranges) = header
            .as_ref()
            .map(|list| self.params(list))
            .unwrap_or_default();
        let body = self.statements(tree.statements());
        self.origins.pop();
        let id = self.body.alloc_lambda(Lambda {
            params,
            return_type: None,
            body,
        });
        self.map.record_lambda(id, literal, ranges);
        Some((id, header.is_some()))
    }

    fn lambda(&mut self, l: &ast::Lambda) -> super::body::LambdaId {
        let (params, ranges) = l
            .params()
            .map(|list| self.params(&list))
            .unwrap_or_default();
        let return_type = l
            .return_type()
            .and_then(|r| r.type_expr())
            .map(|t| self.expr(&t));
        let body = self.block(l.body());
        let id = self.body.alloc_lambda(Lambda {
            params,
            return_type,
            body,
        });
        let range = self.here(l.syntax().text_range());
        self.map.record_lambda(id, range, ranges);
        id
    }

    fn attributes(&mut self, attributes: impl Iterator<Item = ast::Attribute>) -> Vec<Attribute> {
        attributes
            .map(|a| {
                let value = self.opt(a.value(), a.syntax());
                Attribute {
                    name: (!a.is_splat())
                        .then(|| a.name())
                        .flatten()
                        .map(|n| name(&n)),
                    append: a.is_append(),
                    value,
                }
            })
            .collect()
    }

    /// `"text ${expr} $var"`.
    fn dq_string(&mut self, s: &ast::DqStringExpr) -> Expr {
        let raw: String = s
            .syntax()
            .children_with_tokens()
            .filter_map(|c| c.into_token())
            .map(|t| t.text().to_string())
            .collect();
        if invalid_unicode_escape(&raw) {
            return Expr::Error("invalid byte sequence in UTF-8".into());
        }
        let parts = s
            .parts()
            .into_iter()
            .map(|p| match p {
                ast::StringPart::Text(t) => StringPart::Text(t),
                ast::StringPart::Interpolation(i) => StringPart::Expr(self.interpolation(&i)),
            })
            .collect();
        Expr::String(parts)
    }

    fn heredoc(&mut self, h: &ast::HeredocExpr) -> Expr {
        let (Some(info), Some(body)) = (h.info(), h.body()) else {
            return Expr::Missing;
        };
        let end_line = body
            .end_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default();
        let raw = body.raw_parts();
        let pieces: Vec<Option<&str>> = raw.iter().map(|(t, _)| t.as_deref()).collect();
        let texts = ast::heredoc_text(&info, &end_line, &pieces);
        let mut parts = Vec::new();
        for (text, (_, interpolation)) in texts.into_iter().zip(raw.iter()) {
            match (text, interpolation) {
                (Some(t), _) => parts.push(StringPart::Text(t)),
                (None, Some(i)) => parts.push(StringPart::Expr(self.interpolation(i))),
                (None, None) => {}
            }
        }
        Expr::String(parts)
    }

    /// An interpolation: `$x` or `${expr}`, where a bare name or number at
    /// the root (also as the target of `[]` or a method call) is a variable.
    fn interpolation(&mut self, i: &ast::Interpolation) -> ExprId {
        let node = i.syntax();
        if let Some(token) = i.variable_token() {
            let var = token.text().trim_start_matches('$');
            let expr =
                if var.len() > 1 && var.starts_with('0') && var.bytes().all(|b| b.is_ascii_digit())
                {
                    Expr::Error(illegal_numeric(var))
                } else {
                    Expr::Variable(name(var))
                };
            return self.alloc_at(expr, token.text_range());
        }
        match i.expr() {
            Some(e) => self.interpolated(&e),
            None => self.alloc(Expr::Literal(Literal::String(String::new())), node),
        }
    }

    fn interpolated(&mut self, e: &ast::Expr) -> ExprId {
        let node = e.syntax();
        let boolean_name = || {
            Expr::Error("a boolean cannot be used as a variable name in an interpolation".into())
        };
        match e {
            ast::Expr::VariableExpr(v)
                if v.syntax().first_token().is_some_and(|t| {
                    matches!(t.kind(), SyntaxKind::TRUE_KW | SyntaxKind::FALSE_KW)
                }) =>
            {
                self.alloc(boolean_name(), node)
            }
            ast::Expr::QualifiedName(n) => self.alloc(Expr::Variable(name(&n.name())), node),
            ast::Expr::Literal(l) => match l.value() {
                Some(LiteralValue::Number(_)) => {
                    let text = l.syntax().text().to_string();
                    let text = text.trim();
                    let expr = if text.bytes().all(|b| b.is_ascii_digit())
                        && (text.len() == 1 || !text.starts_with('0'))
                    {
                        Expr::Variable(name(text))
                    } else {
                        Expr::Error(illegal_numeric(text))
                    };
                    self.alloc(expr, node)
                }
                Some(LiteralValue::Boolean(_)) => self.alloc(boolean_name(), node),
                _ => self.expr(e),
            },
            ast::Expr::AccessExpr(a) => {
                let target = match a.target() {
                    Some(t) => self.interpolated(&t),
                    None => {
                        self.alloc_at(Expr::Missing, TextRange::empty(node.text_range().start()))
                    }
                };
                let keys = self.exprs(a.args());
                self.alloc(Expr::Access { target, keys }, node)
            }
            ast::Expr::MethodCallExpr(m) => {
                let Some(function) = m.name() else {
                    return self.alloc(Expr::Missing, node);
                };
                let receiver = match m.receiver() {
                    Some(t) => self.interpolated(&t),
                    None => {
                        self.alloc_at(Expr::Missing, TextRange::empty(node.text_range().start()))
                    }
                };
                let args = self.exprs(m.args());
                let lambda = m.lambda().map(|l| self.lambda(&l));
                self.alloc(
                    Expr::MethodCall {
                        receiver,
                        function: name(&function),
                        args,
                        lambda,
                    },
                    node,
                )
            }
            _ => self.expr(e),
        }
    }
}

fn nested(kind: DefKind, written: Option<String>) -> Expr {
    Expr::Definition {
        kind,
        name: name(&written.unwrap_or_default().to_lowercase()),
    }
}

fn literal(l: &ast::Literal) -> Expr {
    match l.value() {
        Some(LiteralValue::Number(Ok(Number::Integer(i)))) => Expr::Literal(Literal::Integer(i)),
        Some(LiteralValue::Number(Ok(Number::Float(f)))) => {
            Expr::Literal(Literal::Float(FloatLit(f)))
        }
        Some(LiteralValue::Number(Err(NumberError::Overflow))) => Expr::Error(
            "A Literal Integer resulted in a value outside of Puppet Integer max range".into(),
        ),
        Some(LiteralValue::Number(Err(NumberError::Invalid))) => {
            Expr::Error(format!("'{}' is not a valid number", l.syntax().text()))
        }
        Some(LiteralValue::Boolean(b)) => Expr::Literal(Literal::Boolean(b)),
        Some(LiteralValue::Undef) => Expr::Literal(Literal::Undef),
        Some(LiteralValue::Default) => Expr::Literal(Literal::Default),
        Some(LiteralValue::Keyword(k)) => Expr::Literal(Literal::String(k)),
        None => Expr::Missing,
    }
}

fn illegal_numeric(name: &str) -> String {
    format!("Illegal numeric variable name, The given name '{name}' must be a decimal value if it starts with a digit 0-9")
}

/// Whether double-quoted source text has a `\u` escape naming something
/// that is not a Unicode scalar value (`\u{110000}`, `\uD800`); Puppet
/// then fails with an encoding error. Longer brace forms are not escapes.
pub fn invalid_unicode_escape(raw: &str) -> bool {
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        if b.get(i + 1) != Some(&b'u') {
            i += 2;
            continue;
        }
        let rest = &raw[i + 2..];
        let hex = if let Some(r) = rest.strip_prefix('{') {
            let n = r.bytes().take_while(u8::is_ascii_hexdigit).count();
            (1..=6).contains(&n) && r.as_bytes().get(n) == Some(&b'}')
        } else {
            rest.len() >= 4 && rest.as_bytes()[..4].iter().all(u8::is_ascii_hexdigit)
        }
        .then(|| {
            let digits: String = rest
                .trim_start_matches('{')
                .chars()
                .take_while(char::is_ascii_hexdigit)
                .take(if rest.starts_with('{') { 6 } else { 4 })
                .collect();
            u32::from_str_radix(&digits, 16).ok()
        })
        .flatten();
        if let Some(cp) = hex {
            if char::from_u32(cp).is_none() {
                return true;
            }
        }
        i += 2;
    }
    false
}
