//! Evaluation of expressions: literals, strings, collections, operators,
//! variables and assignment, type references and conditionals.

use puppet_syntax::ast::{
    self, AssignOp, AstNode, BinaryOp, Expr, LiteralValue, Number, NumberError, StringPart, UnaryOp,
};
use puppet_syntax::SyntaxNode;

use super::scope::Lookup;
use super::{Evaluator, Flow};
use crate::ops::{self, ArithOp, CompareOp, MatchData, OpError};
use crate::types::{AliasResolver, Type};
use crate::values::format::to_interpolated;
use crate::values::{OrderedHash, Regexp, Value};

/// Variables whose values come from the node, never knowable statically.
const NODE_VARIABLES: &[&str] = &["facts", "trusted", "server_facts"];

impl Evaluator {
    /// Evaluates one expression in the current scope.
    pub(crate) fn eval(&mut self, e: &Expr) -> Result<Value, Flow> {
        self.step()?;
        self.enter()?;
        let r = self.eval_inner(e);
        self.leave();
        r
    }

    /// Evaluates statements in order; the value is the last one's (`undef`
    /// when there are none).
    pub(crate) fn eval_statements(
        &mut self,
        stmts: impl Iterator<Item = Expr>,
    ) -> Result<Value, Flow> {
        let mut last = Value::Undef;
        for s in stmts {
            last = self.eval(&s)?;
        }
        Ok(last)
    }

    pub(crate) fn eval_block(&mut self, b: Option<ast::Block>) -> Result<Value, Flow> {
        match b {
            Some(b) => self.eval_statements(b.statements()),
            None => Ok(Value::Undef),
        }
    }

    pub(crate) fn op_error(&self, node: &SyntaxNode, e: OpError) -> Flow {
        match e {
            OpError::Error(m) => self.error(node, m),
            OpError::Unsupported(m) => Flow::Unsupported(m),
        }
    }

    fn eval_inner(&mut self, e: &Expr) -> Result<Value, Flow> {
        let node = e.syntax();
        match e {
            Expr::Literal(l) => self.eval_literal(l),
            Expr::QualifiedName(n) => Ok(Value::String(n.name())),
            Expr::BareWord(w) => Ok(Value::String(w.text())),
            Expr::ReservedWord(w) => Ok(Value::String(
                w.syntax().text().to_string().trim().to_string(),
            )),
            Expr::TypeReference(r) => self.type_reference(&r.name(), node),
            Expr::VariableExpr(v) => self.variable(&v.name(), node),
            Expr::SqStringExpr(s) => Ok(Value::String(s.value())),
            Expr::DqStringExpr(s) => {
                let raw: String = s
                    .syntax()
                    .children_with_tokens()
                    .filter_map(|c| c.into_token())
                    .map(|t| t.text().to_string())
                    .collect();
                if invalid_unicode_escape(&raw) {
                    return Err(self.error(node, "invalid byte sequence in UTF-8"));
                }
                let parts: Vec<_> = s
                    .parts()
                    .into_iter()
                    .map(|p| match p {
                        StringPart::Text(t) => (Some(t), None),
                        StringPart::Interpolation(i) => (None, Some(i)),
                    })
                    .collect();
                self.interpolate(parts)
            }
            Expr::HeredocExpr(h) => self.heredoc(h),
            Expr::RegexExpr(r) => Ok(Value::Regexp(Regexp::new(&r.pattern()))),
            Expr::ArrayExpr(a) => {
                let v = self.eval_list(a.elements())?;
                Ok(Value::Array(v))
            }
            Expr::HashExpr(h) => {
                let mut out = OrderedHash::new();
                for entry in h.entries() {
                    let k = self.eval_opt(entry.key())?;
                    let v = self.eval_opt(entry.value())?;
                    out.insert(k, v);
                }
                self.check_size(out.len() as u128)?;
                Ok(Value::Hash(out))
            }
            Expr::ParenExpr(p) => self.eval_opt(p.expr()),
            Expr::BinaryExpr(b) => self.binary(b),
            Expr::UnaryExpr(u) => {
                let v = self.eval_opt(u.operand())?;
                match u.op() {
                    Some(UnaryOp::Not) => Ok(match v {
                        Value::Unknown(_) => Value::Unknown(Type::boolean()),
                        v => Value::Boolean(!v.is_truthy()),
                    }),
                    Some(UnaryOp::Neg) => {
                        let r = ops::unary_minus(&v).map_err(|e| self.op_error(node, e))?;
                        self.warnings.extend(r.warnings);
                        Ok(r.value)
                    }
                    Some(UnaryOp::Splat) => Ok(match unfold(v) {
                        Ok(items) => Value::Array(items),
                        Err(unknown) => unknown,
                    }),
                    None => Ok(v),
                }
            }
            Expr::AssignmentExpr(a) => self.assignment(a),
            Expr::AccessExpr(a) => {
                let target = self.eval_opt(a.target())?;
                self.access(target, a)
            }
            Expr::CallExpr(c) => self.eval_call(c),
            Expr::MethodCallExpr(m) => {
                let recv = self.eval_opt(m.receiver())?;
                self.eval_method_call(m, recv)
            }
            Expr::StatementCall(s) => self.eval_statement_call(s),
            Expr::SelectorExpr(s) => self.selector(s),
            Expr::CaseExpr(c) => self.case(c),
            Expr::IfExpr(i) => self.if_expr(i),
            Expr::UnlessExpr(u) => self.unless_expr(u),
            Expr::ClassDef(_)
            | Expr::DefineDef(_)
            | Expr::NodeDef(_)
            | Expr::FunctionDef(_)
            | Expr::PlanDef(_)
            | Expr::TypeAlias(_)
            | Expr::TypeDef(_) => Ok(Value::Undef),
            Expr::ApplyExpr(_)
            | Expr::RelationshipExpr(_)
            | Expr::ResourceExpr(_)
            | Expr::ResourceDefaults(_)
            | Expr::ResourceOverride(_)
            | Expr::Collector(_) => Ok(Value::Unknown(Type::Any)),
            Expr::RenderString(r) => Ok(Value::String(r.text())),
            Expr::RenderExpr(_) | Expr::Hostname(_) => Ok(Value::Unknown(Type::Any)),
        }
    }

    pub(crate) fn eval_opt(&mut self, e: Option<Expr>) -> Result<Value, Flow> {
        match e {
            Some(e) => self.eval(&e),
            None => Err(Flow::Unsupported("incomplete expression".into())),
        }
    }

    /// Evaluates list elements (array literal, arguments): `*x` unfolds
    /// (see [`unfold`]), bare `k => v` entries form a hash.
    pub(crate) fn eval_list(
        &mut self,
        items: impl Iterator<Item = Expr>,
    ) -> Result<Vec<Value>, Flow> {
        self.eval_list_with(items, true)
    }

    /// Evaluates access keys: like [`Evaluator::eval_list`], but a `*x` key
    /// stays one (array) key, as Puppet evaluates each key on its own.
    pub(crate) fn eval_keys(
        &mut self,
        items: impl Iterator<Item = Expr>,
    ) -> Result<Vec<Value>, Flow> {
        self.eval_list_with(items, false)
    }

    fn eval_list_with(
        &mut self,
        items: impl Iterator<Item = Expr>,
        unfold_splats: bool,
    ) -> Result<Vec<Value>, Flow> {
        let mut out = Vec::new();
        for item in items {
            let mut inner = item.clone();
            while let Expr::ParenExpr(p) = &inner {
                match p.expr() {
                    Some(e) => inner = e,
                    None => break,
                }
            }
            if let (Expr::UnaryExpr(u), true) = (&inner, unfold_splats) {
                if u.op() == Some(UnaryOp::Splat) {
                    match unfold(self.eval_opt(u.operand())?) {
                        Ok(items) => out.extend(items),
                        Err(unknown) => out.push(unknown),
                    }
                    self.check_size(out.len() as u128)?;
                    continue;
                }
            }
            out.push(self.eval(&item)?);
            self.check_size(out.len() as u128)?;
        }
        Ok(out)
    }

    fn eval_literal(&mut self, l: &ast::Literal) -> Result<Value, Flow> {
        let node = l.syntax();
        match l.value() {
            Some(LiteralValue::Number(Ok(Number::Integer(i)))) => Ok(Value::Integer(i)),
            Some(LiteralValue::Number(Ok(Number::Float(f)))) => Ok(Value::Float(f)),
            Some(LiteralValue::Number(Err(NumberError::Overflow))) => Err(self.error(
                node,
                "A Literal Integer resulted in a value outside of Puppet Integer max range",
            )),
            Some(LiteralValue::Number(Err(NumberError::Invalid))) => {
                Err(self.error(node, format!("'{}' is not a valid number", node.text())))
            }
            Some(LiteralValue::Boolean(b)) => Ok(Value::Boolean(b)),
            Some(LiteralValue::Undef) => Ok(Value::Undef),
            Some(LiteralValue::Default) => Ok(Value::Default),
            Some(LiteralValue::Keyword(k)) => Ok(Value::String(k)),
            None => Err(Flow::Unsupported("incomplete literal".into())),
        }
    }

    /// The value of a type name: a built-in type, an alias defined in the
    /// source, or a known resource type.
    pub(crate) fn type_reference(&mut self, name: &str, node: &SyntaxNode) -> Result<Value, Flow> {
        let name = name.trim_start_matches("::");
        if self.is_alias(name) {
            let canonical = self
                .alias_canonical(name)
                .unwrap_or_else(|| name.to_string());
            // an alias that only leads back to itself (`type Loop = Loop`)
            // has no real type
            let mut seen = vec![canonical.to_ascii_lowercase()];
            let mut current = self.aliases.resolve(&canonical);
            while let Some(Type::Alias(next)) = current {
                let key = next.to_ascii_lowercase();
                if seen.contains(&key) {
                    return Err(self.error(
                        node,
                        format!(
                            "Type alias '{}' cannot be resolved to a real type",
                            canonical
                        ),
                    ));
                }
                seen.push(key);
                current = self.aliases.resolve(&next);
            }
            return Ok(Value::Type(Type::Alias(canonical)));
        }
        if let Some(t) = Type::from_name(name) {
            return Ok(Value::Type(t));
        }
        let lower = name.to_ascii_lowercase();
        if self.resource_types.contains(&lower) {
            return Ok(Value::Type(Type::Resource(
                Some(capitalize_segments(name)),
                None,
            )));
        }
        Err(self.error(node, format!("Resource type not found: {}", name)))
    }

    fn variable(&mut self, name: &str, node: &SyntaxNode) -> Result<Value, Flow> {
        if name.starts_with(|c: char| c.is_ascii_digit())
            && (!name.bytes().all(|b| b.is_ascii_digit())
                || (name.len() > 1 && name.starts_with('0')))
        {
            return Err(self.error(
                node,
                format!("Illegal numeric variable name, The given name '{}' must be a decimal value if it starts with a digit 0-9", name),
            ));
        }
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
            return match name.parse::<usize>() {
                Ok(n) => Ok(self.scopes.match_var(n)),
                Err(_) => Ok(Value::Undef),
            };
        }
        match self.scopes.get(name) {
            Lookup::Found(v) => Ok(v),
            Lookup::Missing => {
                let bare = name.trim_start_matches("::");
                if NODE_VARIABLES.contains(&bare) {
                    return Ok(Value::Unknown(Type::hash_of(Type::string(), Type::Any)));
                }
                if bare.contains("::") {
                    self.warn(format!("Could not look up qualified variable '{}'", name));
                    return Ok(Value::Undef);
                }
                let _ = node;
                self.warn(format!("Unknown variable: '{}'.", name));
                Ok(Value::Undef)
            }
        }
    }

    /// Builds an interpolated string from text pieces and interpolations.
    pub(crate) fn interpolate(
        &mut self,
        parts: Vec<(Option<String>, Option<ast::Interpolation>)>,
    ) -> Result<Value, Flow> {
        let mut out = String::new();
        let mut unknown = false;
        for part in parts {
            match part {
                (Some(t), _) => out.push_str(&t),
                (None, Some(i)) => {
                    let v = self.interpolation(&i)?;
                    if v.is_unknown() {
                        unknown = true;
                    } else {
                        out.push_str(&to_interpolated(&v));
                    }
                }
                (None, None) => {}
            }
        }
        if unknown {
            return Ok(Value::Unknown(Type::string()));
        }
        Ok(Value::String(out))
    }

    fn interpolation(&mut self, i: &ast::Interpolation) -> Result<Value, Flow> {
        if let Some(tok) = i.variable_token() {
            let name = tok.text().trim_start_matches('$').to_string();

            if name.len() > 1 && name.starts_with('0') && name.bytes().all(|b| b.is_ascii_digit()) {
                return Err(self.error(
                    i.syntax(),
                    format!("Illegal numeric variable name, The given name '{}' must be a decimal value if it starts with a digit 0-9", name),
                ));
            }
            return self.variable(&name, i.syntax());
        }
        match i.expr() {
            Some(e) => self.interp_expr(&e),
            None => Ok(Value::String(String::new())),
        }
    }

    /// `${...}`: a bare name or number at the root of the expression (also as
    /// the target of `[]` or a method call) stands for a variable.
    fn interp_expr(&mut self, e: &Expr) -> Result<Value, Flow> {
        match e {
            // `${true}` / `${false}`: Puppet fails on a boolean where it
            // wants a variable name
            Expr::VariableExpr(v)
                if v.syntax().first_token().is_some_and(|t| {
                    matches!(
                        t.kind(),
                        puppet_syntax::SyntaxKind::TRUE_KW | puppet_syntax::SyntaxKind::FALSE_KW
                    )
                }) =>
            {
                Err(self.error(
                    e.syntax(),
                    "a boolean cannot be used as a variable name in an interpolation",
                ))
            }
            Expr::QualifiedName(n) => self.variable(&n.name(), e.syntax()),
            Expr::Literal(l) => match l.value() {
                Some(LiteralValue::Number(_)) => {
                    let text = l.syntax().text().to_string();
                    let text = text.trim();
                    if text.bytes().all(|b| b.is_ascii_digit())
                        && (text.len() == 1 || !text.starts_with('0'))
                    {
                        self.variable(text, e.syntax())
                    } else {
                        Err(self.error(
                            e.syntax(),
                            format!("Illegal numeric variable name, The given name '{}' must be a decimal value if it starts with a digit 0-9", text),
                        ))
                    }
                }
                Some(LiteralValue::Boolean(_)) => Err(self.error(
                    e.syntax(),
                    "a boolean cannot be used as a variable name in an interpolation",
                )),
                _ => self.eval(e),
            },
            Expr::AccessExpr(a) => {
                let target = match a.target() {
                    Some(t) => self.interp_expr(&t)?,
                    None => return Err(Flow::Unsupported("incomplete expression".into())),
                };
                self.access(target, a)
            }
            Expr::MethodCallExpr(m) => {
                let recv = match m.receiver() {
                    Some(t) => self.interp_expr(&t)?,
                    None => return Err(Flow::Unsupported("incomplete expression".into())),
                };
                self.eval_method_call(m, recv)
            }
            _ => self.eval(e),
        }
    }

    fn heredoc(&mut self, h: &ast::HeredocExpr) -> Result<Value, Flow> {
        let (Some(info), Some(body)) = (h.info(), h.body()) else {
            return Err(Flow::Unsupported("incomplete heredoc".into()));
        };
        let end_line = body
            .end_token()
            .map(|t| t.text().to_string())
            .unwrap_or_default();
        let raw = body.raw_parts();
        let pieces: Vec<Option<&str>> = raw.iter().map(|(t, _)| t.as_deref()).collect();
        let texts = ast::heredoc_text(&info, &end_line, &pieces);
        let parts = texts
            .into_iter()
            .zip(raw.iter().map(|(_, i)| i.clone()))
            .collect();
        self.interpolate(parts)
    }

    fn binary(&mut self, b: &ast::BinaryExpr) -> Result<Value, Flow> {
        let node = b.syntax();
        let Some(op) = b.op() else {
            return Err(Flow::Unsupported("incomplete expression".into()));
        };
        match op {
            BinaryOp::And | BinaryOp::Or => {
                let l = self.eval_opt(b.lhs())?;
                if let Value::Unknown(_) = l {
                    let _ = self.eval_opt(b.rhs())?;
                    return Ok(Value::Unknown(Type::boolean()));
                }
                let lt = l.is_truthy();
                if (op == BinaryOp::And && !lt) || (op == BinaryOp::Or && lt) {
                    return Ok(Value::Boolean(lt));
                }
                let r = self.eval_opt(b.rhs())?;
                if let Value::Unknown(_) = r {
                    return Ok(Value::Unknown(Type::boolean()));
                }
                return Ok(Value::Boolean(r.is_truthy()));
            }
            _ => {}
        }
        let l = self.eval_opt(b.lhs())?;
        let r = self.eval_opt(b.rhs())?;
        self.binary_values(op, &l, &r, node)
    }

    pub(crate) fn binary_values(
        &mut self,
        op: BinaryOp,
        l: &Value,
        r: &Value,
        node: &SyntaxNode,
    ) -> Result<Value, Flow> {
        let arith = match op {
            BinaryOp::Add => Some(ArithOp::Add),
            BinaryOp::Sub => Some(ArithOp::Sub),
            BinaryOp::Mul => Some(ArithOp::Mul),
            BinaryOp::Div => Some(ArithOp::Div),
            BinaryOp::Mod => Some(ArithOp::Mod),
            BinaryOp::Shl => Some(ArithOp::Shl),
            BinaryOp::Shr => Some(ArithOp::Shr),
            _ => None,
        };
        if let Some(aop) = arith {
            let res = ops::binary(aop, l, r).map_err(|e| self.op_error(node, e))?;
            self.warnings.extend(res.warnings);
            if let Value::Array(a) = &res.value {
                self.check_size(a.len() as u128)?;
            }
            if let Value::String(s) = &res.value {
                self.check_size(s.len() as u128 / 64)?;
            }
            return Ok(res.value);
        }
        let cmp = match op {
            BinaryOp::Eq => Some(CompareOp::Eq),
            BinaryOp::NotEq => Some(CompareOp::Ne),
            BinaryOp::Lt => Some(CompareOp::Lt),
            BinaryOp::LtEq => Some(CompareOp::Le),
            BinaryOp::Gt => Some(CompareOp::Gt),
            BinaryOp::GtEq => Some(CompareOp::Ge),
            _ => None,
        };
        if let Some(cop) = cmp {
            let ts = self.ts();
            let res = ops::compare_op(cop, l, r, &ts);
            drop(ts);
            return res.map_err(|e| self.op_error(node, e));
        }
        let (outcome, negate) = match op {
            BinaryOp::Match | BinaryOp::NotMatch => {
                let ts = self.ts();
                let res = ops::match_op(l, r, &ts);
                drop(ts);
                (
                    res.map_err(|e| self.op_error(node, e))?,
                    op == BinaryOp::NotMatch,
                )
            }
            _ => {
                let ts = self.ts();
                let res = ops::in_op(l, r, &ts);
                drop(ts);
                (res.map_err(|e| self.op_error(node, e))?, false)
            }
        };
        if let MatchData::Set(groups) = outcome.data {
            self.scopes.set_matches(groups);
        }
        Ok(match outcome.matched {
            Some(m) => Value::Boolean(m != negate),
            None => Value::Unknown(Type::boolean()),
        })
    }

    pub(crate) fn access(&mut self, target: Value, a: &ast::AccessExpr) -> Result<Value, Flow> {
        let keys = self.eval_keys(a.args().into_iter())?;
        let node = a.syntax();
        if let Value::Type(Type::Alias(name)) = &target {
            return Err(self.error(
                node,
                format!("{}[] is not applicable to a type alias", name),
            ));
        }
        let res = ops::access(&target, &keys).map_err(|e| self.op_error(node, e))?;
        self.warnings.extend(res.warnings);
        Ok(res.value)
    }

    fn assignment(&mut self, a: &ast::AssignmentExpr) -> Result<Value, Flow> {
        let node = a.syntax();
        if a.op() != Some(AssignOp::Assign) {
            return Err(self.error(node, "The operator '+=' is no longer supported"));
        }
        let value = self.eval_opt(a.rhs())?;
        let Some(lhs) = a.lhs() else {
            return Err(Flow::Unsupported("incomplete assignment".into()));
        };
        self.assign_to(&lhs, value.clone(), node)?;
        Ok(value)
    }

    fn assign_to(&mut self, lhs: &Expr, value: Value, node: &SyntaxNode) -> Result<(), Flow> {
        match lhs {
            Expr::VariableExpr(v) => self.assign_var(&v.name(), value, node),
            Expr::ArrayExpr(arr) => {
                let targets: Vec<Expr> = arr.elements().collect();
                match value {
                    Value::Array(values) => {
                        if values.len() != targets.len() {
                            return Err(self.error(
                                node,
                                format!(
                                    "Mismatched number of assignable entries and values, expected {}, got {}",
                                    targets.len(),
                                    values.len()
                                ),
                            ));
                        }
                        for (t, v) in targets.iter().zip(values) {
                            self.assign_to(t, v, node)?;
                        }
                        Ok(())
                    }
                    Value::Hash(h) => {
                        for t in &targets {
                            let Expr::VariableExpr(v) = t else {
                                return Err(self
                                    .error(node, "Illegal assignment of a Hash to nested array"));
                            };
                            let name = v.name();
                            let Some(val) = h.get(&Value::String(name.clone())).cloned() else {
                                return Err(self.error(
                                    node,
                                    format!("No value for required variable '${}' in hash", name),
                                ));
                            };
                            self.assign_var(&name, val, node)?;
                        }
                        Ok(())
                    }
                    Value::Unknown(_) => {
                        for t in &targets {
                            self.assign_to(t, Value::Unknown(Type::Any), node)?;
                        }
                        Ok(())
                    }
                    other if targets.len() == 1 => self.assign_to(&targets[0], other, node),
                    other => Err(self.error(
                        node,
                        format!(
                            "Multiple assignment: the value must be an Array or Hash, got {}",
                            other.a_label()
                        ),
                    )),
                }
            }
            _ => Err(self.error(
                node,
                "Illegal attempt to assign to a non-variable expression",
            )),
        }
    }

    fn assign_var(&mut self, name: &str, value: Value, node: &SyntaxNode) -> Result<(), Flow> {
        if name.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.error(
                node,
                format!(
                    "Illegal attempt to assign to the numeric match result variable '${}'",
                    name
                ),
            ));
        }
        if name.contains("::") {
            return Err(self.error(
                node,
                format!(
                    "Illegal attempt to assign to '{}'. Cannot assign to variables in other namespaces",
                    name
                ),
            ));
        }
        if NODE_VARIABLES.contains(&name) {
            return Err(self.error(
                node,
                format!("Attempt to assign to a reserved variable name: '{}'", name),
            ));
        }
        if self.scopes.is_local(name) {
            return Err(self.error(node, format!("Cannot reassign variable '${}'", name)));
        }
        self.scopes.set(name, value);
        Ok(())
    }

    fn if_expr(&mut self, i: &ast::IfExpr) -> Result<Value, Flow> {
        self.scopes.push_ephemeral();
        let r = self.if_inner(i);
        self.scopes.pop_ephemeral();
        r
    }

    fn if_inner(&mut self, i: &ast::IfExpr) -> Result<Value, Flow> {
        let c = self.eval_opt(i.condition())?;
        if let Value::Unknown(_) = c {
            return Ok(Value::Unknown(Type::Any));
        }
        if c.is_truthy() {
            return self.eval_block(i.then_block());
        }
        for branch in i.elsif_branches() {
            let c = self.eval_opt(branch.condition())?;
            if let Value::Unknown(_) = c {
                return Ok(Value::Unknown(Type::Any));
            }
            if c.is_truthy() {
                return self.eval_block(branch.block());
            }
        }
        match i.else_branch() {
            Some(e) => self.eval_block(e.block()),
            None => Ok(Value::Undef),
        }
    }

    fn unless_expr(&mut self, u: &ast::UnlessExpr) -> Result<Value, Flow> {
        self.scopes.push_ephemeral();
        let r = (|| {
            let c = self.eval_opt(u.condition())?;
            if let Value::Unknown(_) = c {
                return Ok(Value::Unknown(Type::Any));
            }
            if !c.is_truthy() {
                return self.eval_block(u.then_block());
            }
            match u.else_branch() {
                Some(e) => self.eval_block(e.block()),
                None => Ok(Value::Undef),
            }
        })();
        self.scopes.pop_ephemeral();
        r
    }

    fn alias_canonical(&self, name: &str) -> Option<String> {
        self.alias_display
            .iter()
            .find(|n| n.eq_ignore_ascii_case(name))
            .cloned()
    }
}

/// Whether double-quoted source text has a `\u` escape naming something
/// that is not a Unicode scalar value (`\u{110000}`, `\uD800`); Puppet
/// then fails with an encoding error. Longer brace forms are not escapes.
pub(crate) fn invalid_unicode_escape(raw: &str) -> bool {
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

/// The elements `*v` unfolds to: an array's elements, a hash's `[key,
/// value]` pairs, an iterator's elements, nothing for `undef`, else the value
/// itself. An unknown value is returned as the error.
pub(crate) fn unfold(v: Value) -> Result<Vec<Value>, Value> {
    match v {
        Value::Array(a) => Ok(a),
        Value::Hash(h) => Ok(h
            .iter()
            .map(|(k, v)| Value::Array(vec![k.clone(), v.clone()]))
            .collect()),
        Value::Iterator(it) => Ok(it.elements),
        Value::Undef => Ok(Vec::new()),
        Value::Unknown(t) => Err(Value::Unknown(t)),
        other => Ok(vec![other]),
    }
}

/// `apache::vhost` -> `Apache::Vhost`.
pub(crate) fn capitalize_segments(name: &str) -> String {
    name.split("::")
        .map(|seg| {
            let mut c = seg.chars();
            match c.next() {
                Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("::")
}
