//! Evaluation of expressions: literals, strings, collections, operators,
//! variables and assignment, type references and conditionals.

use puppet_syntax::ast::{AssignOp, BinaryOp, UnaryOp};

use super::scope::Lookup;
use super::{Evaluator, Flow};
use crate::hir::body::{Expr, ExprId, Literal, StringPart};
use crate::model::{OrderedHash, Type, Value};
use crate::ops::{self, ArithOp, CompareOp, MatchData, OpError};
use crate::regexp::Regexp;
use crate::types::AliasResolver;
use crate::values::format::to_interpolated;

/// Variables whose values come from the node, never knowable statically.
const NODE_VARIABLES: &[&str] = &["facts", "trusted", "server_facts"];

impl Evaluator {
    /// Evaluates one expression of the current body in the current scope.
    pub fn eval(&mut self, e: ExprId) -> Result<Value, Flow> {
        self.step()?;
        self.enter()?;
        let r = self.eval_inner(e);
        self.leave();
        r
    }

    /// Evaluates statements in order; the value is the last one's (`undef`
    /// when there are none).
    pub fn eval_statements(&mut self, stmts: &[ExprId]) -> Result<Value, Flow> {
        let mut last = Value::Undef;
        for &s in stmts {
            last = self.eval(s)?;
        }
        Ok(last)
    }

    pub fn op_error(&self, at: ExprId, e: OpError) -> Flow {
        match e {
            OpError::Error(m) => self.error(at, m),
            OpError::Unsupported(m) => Flow::Unsupported(m),
        }
    }

    fn eval_inner(&mut self, e: ExprId) -> Result<Value, Flow> {
        let body = self.body.clone();
        match &body[e] {
            Expr::Missing => Err(Flow::Unsupported("incomplete expression".into())),
            Expr::Error(message) => Err(self.error(e, message.clone())),
            Expr::Literal(l) => Ok(match l {
                Literal::Integer(i) => Value::Integer(*i),
                Literal::Float(f) => Value::Float(f.0),
                Literal::Boolean(b) => Value::Boolean(*b),
                Literal::Undef => Value::Undef,
                Literal::Default => Value::Default,
                Literal::String(s) => Value::String(s.clone()),
            }),
            Expr::Name(n) => Ok(Value::String(n.to_string())),
            Expr::TypeRef(name) => self.type_reference(name, e),
            Expr::Variable(name) => self.variable(name, e),
            Expr::String(parts) => self.interpolate(parts),
            Expr::Regex(pattern) => Ok(Value::Regexp(Regexp::new(pattern))),
            Expr::Array(items) => {
                let v = self.eval_list(items)?;
                Ok(Value::Array(v))
            }
            Expr::Hash { entries, .. } => {
                let mut out = OrderedHash::new();
                for &(k, v) in entries {
                    let k = self.eval(k)?;
                    let v = self.eval(v)?;
                    out.insert(k, v);
                }
                self.check_size(out.len() as u128)?;
                Ok(Value::Hash(out))
            }
            Expr::Binary { op, lhs, rhs } => self.binary(*op, *lhs, *rhs, e),
            Expr::Unary { op, operand } => {
                let v = self.eval(*operand)?;
                match op {
                    UnaryOp::Not => Ok(match v {
                        Value::Unknown(_) => Value::Unknown(Type::boolean()),
                        v => Value::Boolean(!v.is_truthy()),
                    }),
                    UnaryOp::Neg => {
                        let r = ops::unary_minus(&v, self.target.strict)
                            .map_err(|err| self.op_error(e, err))?;
                        self.warnings.extend(r.warnings);
                        Ok(r.value)
                    }
                    UnaryOp::Splat => Ok(match unfold(v) {
                        Ok(items) => Value::Array(items),
                        Err(unknown) => unknown,
                    }),
                }
            }
            Expr::Assign { op, target, value } => self.assignment(*op, *target, *value, e),
            Expr::Access { target, keys } => {
                let target = self.eval(*target)?;
                self.access(target, keys, e)
            }
            Expr::Call {
                function,
                args,
                lambda,
                ..
            } => {
                let args = self.eval_list(args)?;
                self.call_function(function, args, *lambda, e)
            }
            Expr::CallValue {
                callee,
                args,
                lambda,
            } => self.eval_call_value(*callee, args, *lambda, e),
            Expr::MethodCall {
                receiver,
                function,
                args,
                lambda,
            } => {
                let recv = self.eval(*receiver)?;
                let mut all = vec![recv];
                all.extend(self.eval_list(args)?);
                self.call_function(function, all, *lambda, e)
            }
            Expr::Selector { subject, entries } => self.selector(*subject, entries, e),
            Expr::Case { subject, options } => self.case(*subject, options),
            Expr::If {
                condition,
                then,
                elsifs,
                otherwise,
            } => self.if_expr(*condition, then, elsifs, otherwise.as_deref()),
            Expr::Unless {
                condition,
                then,
                otherwise,
            } => self.unless_expr(*condition, then, otherwise.as_deref()),
            Expr::Definition { .. } => Ok(Value::Undef),
            Expr::Apply { .. }
            | Expr::Relationship { .. }
            | Expr::Resource { .. }
            | Expr::ResourceDefaults { .. }
            | Expr::ResourceOverride { .. }
            | Expr::Collector { .. } => Ok(Value::Unknown(Type::Any)),
            Expr::RenderString(text) => Ok(Value::String(text.clone())),
            Expr::RenderExpr(_) | Expr::RenderBlock(_) | Expr::Hostname(_) => {
                Ok(Value::Unknown(Type::Any))
            }
        }
    }

    /// Evaluates list elements (array literal, arguments): `*x` unfolds
    /// (see [`unfold`]).
    pub fn eval_list(&mut self, items: &[ExprId]) -> Result<Vec<Value>, Flow> {
        self.eval_list_with(items, true)
    }

    /// Evaluates access keys: like [`Evaluator::eval_list`], but a `*x` key
    /// stays one (array) key, as Puppet evaluates each key on its own.
    pub fn eval_keys(&mut self, items: &[ExprId]) -> Result<Vec<Value>, Flow> {
        self.eval_list_with(items, false)
    }

    fn eval_list_with(
        &mut self,
        items: &[ExprId],
        unfold_splats: bool,
    ) -> Result<Vec<Value>, Flow> {
        let mut out = Vec::new();
        let body = self.body.clone();
        for &item in items {
            if let (
                Expr::Unary {
                    op: UnaryOp::Splat,
                    operand,
                },
                true,
            ) = (&body[item], unfold_splats)
            {
                match unfold(self.eval(*operand)?) {
                    Ok(items) => out.extend(items),
                    Err(unknown) => out.push(unknown),
                }
                self.check_size(out.len() as u128)?;
                continue;
            }
            out.push(self.eval(item)?);
            self.check_size(out.len() as u128)?;
        }
        Ok(out)
    }

    /// The value of a type name: a built-in type, an alias defined in the
    /// source, or a known resource type.
    pub fn type_reference(&mut self, name: &str, at: ExprId) -> Result<Value, Flow> {
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
                        at,
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
        Err(self.error(at, format!("Resource type not found: {}", name)))
    }

    fn variable(&mut self, name: &str, at: ExprId) -> Result<Value, Flow> {
        if name.starts_with(|c: char| c.is_ascii_digit())
            && (!name.bytes().all(|b| b.is_ascii_digit())
                || (name.len() > 1 && name.starts_with('0')))
        {
            return Err(self.error(
                at,
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
                if !self.closed_world {
                    // Set where this evaluation cannot see: a node, an ENC,
                    // a class evaluated elsewhere.
                    return Ok(Value::Unknown(Type::Any));
                }
                if bare.contains("::") {
                    self.warn(format!("Could not look up qualified variable '{}'", name));
                    return Ok(Value::Undef);
                }
                self.warn(format!("Unknown variable: '{}'.", name));
                Ok(Value::Undef)
            }
        }
    }

    /// Builds an interpolated string from text pieces and interpolations.
    fn interpolate(&mut self, parts: &[StringPart]) -> Result<Value, Flow> {
        let mut out = String::new();
        let mut unknown = false;
        for part in parts {
            match part {
                StringPart::Text(t) => out.push_str(t),
                StringPart::Expr(e) => {
                    let v = self.eval(*e)?;
                    if v.is_unknown() {
                        unknown = true;
                    } else {
                        out.push_str(&to_interpolated(&v));
                    }
                }
            }
        }
        if unknown {
            return Ok(Value::Unknown(Type::string()));
        }
        Ok(Value::String(out))
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
        at: ExprId,
    ) -> Result<Value, Flow> {
        if let BinaryOp::And | BinaryOp::Or = op {
            let l = self.eval(lhs)?;
            if let Value::Unknown(_) = l {
                let _ = self.eval(rhs)?;
                return Ok(Value::Unknown(Type::boolean()));
            }
            let lt = l.is_truthy();
            if (op == BinaryOp::And && !lt) || (op == BinaryOp::Or && lt) {
                return Ok(Value::Boolean(lt));
            }
            let r = self.eval(rhs)?;
            if let Value::Unknown(_) = r {
                return Ok(Value::Unknown(Type::boolean()));
            }
            return Ok(Value::Boolean(r.is_truthy()));
        }
        let l = self.eval(lhs)?;
        let r = self.eval(rhs)?;
        self.binary_values(op, &l, &r, at)
    }

    pub fn binary_values(
        &mut self,
        op: BinaryOp,
        l: &Value,
        r: &Value,
        at: ExprId,
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
            let res =
                ops::binary(aop, l, r, self.target.strict).map_err(|e| self.op_error(at, e))?;
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
            return res.map_err(|e| self.op_error(at, e));
        }
        let (outcome, negate) = match op {
            BinaryOp::Match | BinaryOp::NotMatch => {
                let ts = self.ts();
                let res = ops::match_op(l, r, &ts);
                drop(ts);
                (
                    res.map_err(|e| self.op_error(at, e))?,
                    op == BinaryOp::NotMatch,
                )
            }
            _ => {
                let ts = self.ts();
                let res = ops::in_op(l, r, &ts);
                drop(ts);
                (res.map_err(|e| self.op_error(at, e))?, false)
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

    pub fn access(&mut self, target: Value, keys: &[ExprId], at: ExprId) -> Result<Value, Flow> {
        let keys = self.eval_keys(keys)?;
        if let Value::Type(Type::Alias(name)) = &target {
            return Err(self.error(at, format!("{}[] is not applicable to a type alias", name)));
        }
        let res =
            ops::access(&target, &keys, self.target.strict).map_err(|e| self.op_error(at, e))?;
        self.warnings.extend(res.warnings);
        Ok(res.value)
    }

    fn assignment(
        &mut self,
        op: AssignOp,
        target: ExprId,
        value: ExprId,
        at: ExprId,
    ) -> Result<Value, Flow> {
        if op != AssignOp::Assign {
            return Err(self.error(at, "The operator '+=' is no longer supported"));
        }
        let value = self.eval(value)?;
        self.assign_to(target, value.clone(), at)?;
        Ok(value)
    }

    fn assign_to(&mut self, lhs: ExprId, value: Value, at: ExprId) -> Result<(), Flow> {
        let body = self.body.clone();
        match &body[lhs] {
            Expr::Variable(name) => self.assign_var(name, value, at),
            Expr::Missing => Err(Flow::Unsupported("incomplete assignment".into())),
            Expr::Array(targets) => match value {
                Value::Array(values) => {
                    if values.len() != targets.len() {
                        return Err(self.error(
                            at,
                            format!(
                                "Mismatched number of assignable entries and values, expected {}, got {}",
                                targets.len(),
                                values.len()
                            ),
                        ));
                    }
                    for (&t, v) in targets.iter().zip(values) {
                        self.assign_to(t, v, at)?;
                    }
                    Ok(())
                }
                Value::Hash(h) => {
                    for &t in targets {
                        let Expr::Variable(name) = &body[t] else {
                            return Err(
                                self.error(at, "Illegal assignment of a Hash to nested array")
                            );
                        };
                        let Some(val) = h.get(&Value::String(name.to_string())).cloned() else {
                            return Err(self.error(
                                at,
                                format!("No value for required variable '${}' in hash", name),
                            ));
                        };
                        self.assign_var(name, val, at)?;
                    }
                    Ok(())
                }
                Value::Unknown(_) => {
                    for &t in targets {
                        self.assign_to(t, Value::Unknown(Type::Any), at)?;
                    }
                    Ok(())
                }
                other if targets.len() == 1 => self.assign_to(targets[0], other, at),
                other => Err(self.error(
                    at,
                    format!(
                        "Multiple assignment: the value must be an Array or Hash, got {}",
                        other.a_label()
                    ),
                )),
            },
            _ => Err(self.error(at, "Illegal attempt to assign to a non-variable expression")),
        }
    }

    fn assign_var(&mut self, name: &str, value: Value, at: ExprId) -> Result<(), Flow> {
        if name.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.error(
                at,
                format!(
                    "Illegal attempt to assign to the numeric match result variable '${}'",
                    name
                ),
            ));
        }
        if name.contains("::") {
            return Err(self.error(
                at,
                format!(
                    "Illegal attempt to assign to '{}'. Cannot assign to variables in other namespaces",
                    name
                ),
            ));
        }
        if NODE_VARIABLES.contains(&name) {
            return Err(self.error(
                at,
                format!("Attempt to assign to a reserved variable name: '{}'", name),
            ));
        }
        if self.scopes.is_local(name) {
            return Err(self.error(at, format!("Cannot reassign variable '${}'", name)));
        }
        self.scopes.set(name, value);
        Ok(())
    }

    fn if_expr(
        &mut self,
        condition: ExprId,
        then: &[ExprId],
        elsifs: &[(ExprId, Vec<ExprId>)],
        otherwise: Option<&[ExprId]>,
    ) -> Result<Value, Flow> {
        self.scopes.push_ephemeral();
        let r = self.if_inner(condition, then, elsifs, otherwise);
        self.scopes.pop_ephemeral();
        r
    }

    fn if_inner(
        &mut self,
        condition: ExprId,
        then: &[ExprId],
        elsifs: &[(ExprId, Vec<ExprId>)],
        otherwise: Option<&[ExprId]>,
    ) -> Result<Value, Flow> {
        let c = self.eval(condition)?;
        if let Value::Unknown(_) = c {
            return Ok(Value::Unknown(Type::Any));
        }
        if c.is_truthy() {
            return self.eval_statements(then);
        }
        for (condition, block) in elsifs {
            let c = self.eval(*condition)?;
            if let Value::Unknown(_) = c {
                return Ok(Value::Unknown(Type::Any));
            }
            if c.is_truthy() {
                return self.eval_statements(block);
            }
        }
        match otherwise {
            Some(block) => self.eval_statements(block),
            None => Ok(Value::Undef),
        }
    }

    fn unless_expr(
        &mut self,
        condition: ExprId,
        then: &[ExprId],
        otherwise: Option<&[ExprId]>,
    ) -> Result<Value, Flow> {
        self.scopes.push_ephemeral();
        let r = (|| {
            let c = self.eval(condition)?;
            if let Value::Unknown(_) = c {
                return Ok(Value::Unknown(Type::Any));
            }
            if !c.is_truthy() {
                return self.eval_statements(then);
            }
            match otherwise {
                Some(block) => self.eval_statements(block),
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

/// The elements `*v` unfolds to: an array's elements, a hash's `[key,
/// value]` pairs, an iterator's elements, nothing for `undef`, else the value
/// itself. An unknown value is returned as the error.
pub fn unfold(v: Value) -> Result<Vec<Value>, Value> {
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
pub fn capitalize_segments(name: &str) -> String {
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
