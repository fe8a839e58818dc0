//! The inference walk over one item's lowered body: statements in flow
//! order, branches narrowed and joined, constants through the evaluator.
//! What a name refers to comes from the resolver ([`ItemScopes`]); the
//! walk only keeps what each local variable holds at each point.

use super::context::TypeContext;
use super::narrow::{exclude, narrow, truthy, union};
use super::ops;
use super::validation;
use super::{FinalVars, Inferred, ItemTypes};
use crate::eval::Evaluator;
use crate::hir::body::{Body, Expr, ExprId, InlineTemplate, LambdaId, Literal, Name, Param};
use crate::model::{IntRange, Type, Value};
use crate::resolve::scope::{DefSite, ItemScopes, Target};
use puppet_syntax::ast::{BinaryOp, UnaryOp};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Deeper expressions are not inferred (the evaluator has its own limits;
/// this keeps the walk's own recursion bounded on pathological input).
const MAX_DEPTH: usize = 64;

/// How a reference that leaves the item is typed: by the caller, who
/// knows the workspace (other classes' variables, top-scope variables).
pub(super) trait Outside {
    /// The type of `$class::name` (or an inherited variable).
    fn class_variable(&self, class: &str, name: &str) -> Inferred;
    /// The type of a top-scope variable assigned somewhere.
    fn global(&self, name: &str) -> Option<Inferred>;
    /// The type of a custom fact a module of the workspace adds.
    fn module_fact(&self, name: &str) -> Option<Type>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    /// The item's own scope.
    Body,
    /// A lambda: sees the scope it is written in.
    Lambda,
    /// One branch of an `if`/`case`/selector: not a scope of its own in
    /// Puppet; collects its assignments so they can be joined afterwards.
    Branch,
}

#[derive(Debug)]
struct Frame {
    kind: FrameKind,
    vars: HashMap<Name, Inferred>,
    /// Narrowed types of variables of enclosing frames, in this branch.
    narrowed: HashMap<Name, Type>,
}

impl Frame {
    fn new(kind: FrameKind) -> Frame {
        Frame {
            kind,
            vars: HashMap::new(),
            narrowed: HashMap::new(),
        }
    }
}

/// Narrowings a condition implies: variable name to its type.
type Narrowings = Vec<(Name, Type)>;

pub(super) struct Walker<'a> {
    ev: Evaluator,
    body: &'a Arc<Body>,
    scopes: &'a ItemScopes,
    outside: &'a dyn Outside,
    frames: Vec<Frame>,
    out: ItemTypes,
    depth: usize,
}

impl<'a> Walker<'a> {
    pub(super) fn new(
        ctx: &TypeContext,
        body: &'a Arc<Body>,
        scopes: &'a ItemScopes,
        outside: &'a dyn Outside,
        functions: &[(String, Arc<Body>)],
    ) -> Walker<'a> {
        let mut ev = ctx.evaluator();
        for (name, body) in functions {
            ev.add_function(name, body.clone());
        }
        Walker {
            ev,
            body,
            scopes,
            outside,
            frames: vec![Frame::new(FrameKind::Body)],
            out: ItemTypes::new(body),
            depth: 0,
        }
    }

    /// Walks the body: every expression's type, and the item scope's
    /// variables after its last statement (what other items read).
    pub(super) fn run(mut self) -> (ItemTypes, FinalVars) {
        let body = self.body.clone();
        if matches!(
            body.kind,
            crate::hir::body::BodyKind::Definition(
                crate::hir::DefKind::Class | crate::hir::DefKind::DefinedType
            )
        ) {
            for name in ["title", "name"] {
                self.bind(
                    crate::hir::body::name(name),
                    Inferred::of_type(Type::string()),
                );
            }
        }
        self.params(&body.params, &[], None);
        for &m in &body.matchers {
            self.expr(m);
        }
        if let Some(rt) = body.return_type {
            self.expr(rt);
        }
        for &s in &body.body {
            self.expr(s);
        }
        let frame = self.frames.swap_remove(0);
        (self.out, frame.vars.into_iter().collect())
    }

    // ---- variables -------------------------------------------------------

    fn lookup(&self, name: Name) -> Option<Inferred> {
        for frame in self.frames.iter().rev() {
            if let Some(t) = frame.narrowed.get(&name) {
                return Some(Inferred::of_type(t.clone()));
            }
            if let Some(v) = frame.vars.get(&name) {
                return Some(v.clone());
            }
            if frame.kind == FrameKind::Body {
                return None;
            }
        }
        None
    }

    /// Narrows variables for the rest of the innermost frame.
    fn narrow_here(&mut self, narrowings: impl IntoIterator<Item = (Name, Type)>) {
        self.frames
            .last_mut()
            .expect("the body frame is never popped")
            .narrowed
            .extend(narrowings);
    }

    fn bind(&mut self, name: Name, value: Inferred) {
        let frame = self
            .frames
            .last_mut()
            .expect("the body frame is never popped");
        frame.narrowed.remove(&name);
        frame.vars.insert(name, value);
    }

    /// What a variable reference holds: per the resolver, a local of the
    /// walk, a variable of another class or of the top scope, a fact or a
    /// built-in.
    fn variable(&mut self, id: ExprId, name: Name) -> Inferred {
        if let Some(found) = self.lookup(name) {
            return found;
        }
        let bare = name.trim_start_matches("::");
        let target = self.scopes.reference(id).map(|r| r.target.clone());
        match target {
            Some(Target::Inherited { class } | Target::Qualified { class }) => {
                let leaf = bare.rsplit("::").next().unwrap_or(bare);
                return self.outside.class_variable(&class, leaf);
            }
            Some(Target::Global | Target::TopScope(_)) => {
                if let Some(global) = self.outside.global(bare) {
                    return global;
                }
            }
            _ => {}
        }
        if is_numeric(bare) {
            return Inferred::any();
        }
        if !bare.contains("::") {
            // A legacy top-scope fact (`$::osfamily`), or a module's own.
            if let Some(t) = self.fact_type(bare) {
                return Inferred::of_type(t);
            }
        }
        match bare {
            "trusted" => Inferred::of_type(trusted_type()),
            "facts" | "server_facts" | "settings" => self.evaluate(id),
            "title" | "name" | "module_name" | "caller_module_name" | "environment" => {
                Inferred::of_type(Type::string())
            }
            _ => Inferred::any(),
        }
    }

    /// The type of the fact at a dotted path: Facter's, or one a module
    /// adds (`lib/facter`).
    /// On a Puppet that no longer receives legacy facts (Puppet 8), a
    /// legacy fact is undef.
    fn fact_type(&self, path: &str) -> Option<Type> {
        let builtins = crate::builtins::builtins_for(self.ev.target.version);
        let top = path.split('.').next().unwrap_or(path);
        if !self.ev.target.has_legacy_facts()
            && builtins.fact(top).is_some_and(|f| f.legacy)
            && self.outside.module_fact(top).is_none()
        {
            return Some(Type::Undef);
        }
        builtins
            .facts
            .type_of(path)
            .or_else(|| self.outside.module_fact(path))
    }

    /// Binds an assignment target (a variable or an array of them).
    fn assign_target(&mut self, target: ExprId, value: &Inferred) {
        let body = self.body.clone();
        match &body[target] {
            Expr::Variable(name) => {
                self.record(target, value.clone());
                self.bind(*name, value.clone());
            }
            Expr::Array(items) => {
                for (i, &item) in items.iter().enumerate() {
                    let element = match &value.value {
                        Some(Value::Array(values)) => values
                            .get(i)
                            .cloned()
                            .map_or_else(Inferred::any, Inferred::of_value),
                        _ => match &value.ty {
                            Type::Tuple(types, _) => {
                                Inferred::of_type(types.get(i).cloned().unwrap_or(Type::Any))
                            }
                            Type::Array(t, _) => Inferred::of_type((**t).clone()),
                            _ => Inferred::any(),
                        },
                    };
                    self.assign_target(item, &element);
                }
            }
            _ => {
                self.expr(target);
            }
        }
    }

    fn record(&mut self, id: ExprId, value: Inferred) {
        self.out.set(id, value);
    }

    /// Binds declared parameters: their declared type (evaluated), else
    /// what the caller is known to pass (`passed`, by position), else
    /// `Any`; defaults are inferred as expressions.
    fn params(&mut self, params: &[Param], passed: &[Type], lambda: Option<LambdaId>) {
        for (i, param) in params.iter().enumerate() {
            let declared = param.ty.and_then(|t| match self.expr(t).value {
                Some(Value::Type(t)) => Some(t),
                _ => None,
            });
            if let Some(default) = param.default {
                self.expr(default);
            }
            let mut ty = declared
                .or_else(|| passed.get(i).cloned())
                .unwrap_or(Type::Any);
            if param.rest {
                ty = Type::array_of(ty);
            }
            let value = Inferred::of_type(ty);
            let site = match lambda {
                Some(l) => DefSite::LambdaParam(l, i as u32),
                None => DefSite::Param(i as u32),
            };
            self.out.defs.insert(site, value.clone());
            self.bind(param.name, value);
        }
    }

    // ---- expressions -----------------------------------------------------

    /// Infers an expression (and everything in it), recording the result.
    pub(super) fn expr(&mut self, e: ExprId) -> Inferred {
        if self.depth >= MAX_DEPTH {
            return Inferred::any();
        }
        self.depth += 1;
        let result = self.expr_inner(e);
        self.depth -= 1;
        self.record(e, result.clone());
        result
    }

    fn exprs(&mut self, ids: &[ExprId]) {
        for &id in ids {
            self.expr(id);
        }
    }

    fn expr_inner(&mut self, e: ExprId) -> Inferred {
        let body = self.body.clone();
        match &body[e] {
            Expr::Assign { target, value, .. } => {
                let value = self.expr(*value);
                self.assign_target(*target, &value);
                value
            }
            Expr::Variable(name) => self.variable(e, *name),
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
            } => {
                let c = self.expr(*condition);
                let (when_true, when_false) = self.narrowings(*condition);
                let taken = constant_truth(Some(&c)).map(|t| if t { 1 } else { 0 });
                let branches = vec![
                    Branch::block(then.clone(), when_false),
                    Branch::optional(otherwise.clone(), when_true),
                ];
                self.join(branches, taken)
            }
            Expr::Case { subject, options } => self.case_expr(*subject, options),
            Expr::Selector { subject, entries } => self.selector(e, *subject, entries),
            Expr::Definition { .. } => Inferred::of_value(Value::Undef),
            Expr::Apply { args, body: block } => {
                self.exprs(args);
                self.frames.push(Frame::new(FrameKind::Lambda));
                self.exprs(block);
                self.frames.pop();
                Inferred::any()
            }
            Expr::Call { .. } | Expr::MethodCall { .. } | Expr::CallValue { .. } => self.call(e),
            Expr::Access { target, keys } => self.access(e, *target, keys),
            Expr::Resource { .. }
            | Expr::ResourceDefaults { .. }
            | Expr::ResourceOverride { .. }
            | Expr::Collector { .. }
            | Expr::Relationship { .. } => {
                self.exprs(&body.children(e));
                Inferred::any()
            }
            Expr::Binary { op, lhs, rhs } => self.binary(e, *op, *lhs, *rhs),
            Expr::RenderExpr(_) | Expr::RenderString(_) | Expr::RenderBlock(_) => {
                self.exprs(&body.children(e));
                Inferred::of_type(Type::string())
            }
            Expr::Hostname(_) | Expr::Missing => Inferred::any(),
            _ => {
                self.exprs(&body.children(e));
                self.evaluate(e)
            }
        }
    }

    fn access(&mut self, e: ExprId, target: ExprId, keys: &[ExprId]) -> Inferred {
        self.expr(target);
        self.exprs(keys);
        if let Some(t) = self.fact_path(e).and_then(|p| self.fact_type(&p)) {
            return Inferred::of_type(t);
        }
        let evaluated = self.evaluate(e);
        if evaluated.value.is_some() || evaluated.ty != Type::Any {
            return evaluated;
        }
        let target = self.out.get(target).cloned();
        let keys: Vec<Option<Value>> = keys
            .iter()
            .map(|&k| self.out.get(k).and_then(|i| i.value.clone()))
            .collect();
        let ts = self.ev.ts();
        target
            .and_then(|t| ops::access(&ts, &t.ty, &keys))
            .map_or(evaluated, Inferred::of_type)
    }

    fn binary(&mut self, e: ExprId, op: BinaryOp, lhs: ExprId, rhs: ExprId) -> Inferred {
        self.expr(lhs);
        self.expr(rhs);
        let evaluated = self.evaluate(e);
        if evaluated.value.is_some() {
            return evaluated;
        }
        let operand = |side: ExprId| self.out.get(side).map(|i| i.ty.clone());
        let (Some(l), Some(r)) = (operand(lhs), operand(rhs)) else {
            return evaluated;
        };
        let ts = self.ev.ts();
        ops::arithmetic(&ts, op, &l, &r).map_or(evaluated, Inferred::of_type)
    }

    /// Evaluates an expression with the variables it reads bound to what
    /// the walk knows of them.
    fn evaluate(&mut self, e: ExprId) -> Inferred {
        let body = self.body.clone();
        let mut names: BTreeMap<Name, ExprId> = BTreeMap::new();
        let mut stack = vec![e];
        while let Some(id) = stack.pop() {
            if let Expr::Variable(name) = &body[id] {
                if is_numeric(name.trim_start_matches("::")) {
                    // The evaluator's match variables are not the walk's.
                    return Inferred::any();
                }
                names.entry(*name).or_insert(id);
            }
            stack.extend(body.children(id));
            if let Some(l) = body.lambda_of(id) {
                stack.extend(body[l].body.iter().copied());
            }
        }
        let bindings: Vec<(String, bool, Value)> = names
            .into_iter()
            .filter_map(|(name, at)| {
                let bare = name.trim_start_matches("::");
                // Left unbound, the evaluator knows these.
                if matches!(bare, "facts" | "server_facts" | "settings")
                    && self.lookup(name).is_none()
                {
                    return None;
                }
                let value = match self.out.get(at) {
                    Some(known) => known.to_value(),
                    None => match self.lookup(name) {
                        Some(known) => known.to_value(),
                        None => return None,
                    },
                };
                Some((bare.to_string(), name.starts_with("::"), value))
            })
            .collect();
        let saved = self.ev.scopes.push(false);
        for (name, top, value) in bindings {
            if top {
                self.ev.scopes.set_top(&name, value);
            } else {
                self.ev.set_variable(&name, value);
            }
        }
        self.ev.reset_budget();
        let outcome = self.ev.eval_expression(self.body, e);
        self.ev.scopes.pop(saved);
        self.ev.scopes.clear_top();
        match outcome.value {
            Some(v) if outcome.error.is_none() && outcome.unsupported.is_none() => {
                Inferred::of_value(v)
            }
            _ => Inferred::any(),
        }
    }

    // ---- calls and lambdas -----------------------------------------------

    fn call(&mut self, e: ExprId) -> Inferred {
        let body = self.body.clone();
        let (name, lambda, mut args): (Option<Name>, Option<LambdaId>, Vec<Inferred>) =
            match &body[e] {
                Expr::Call {
                    function,
                    args,
                    lambda,
                    ..
                } => (
                    Some(*function),
                    *lambda,
                    args.iter().map(|&a| self.expr(a)).collect(),
                ),
                Expr::MethodCall {
                    receiver,
                    function,
                    args,
                    lambda,
                } => {
                    let mut all = vec![self.expr(*receiver)];
                    all.extend(args.iter().map(|&a| self.expr(a)));
                    (Some(*function), *lambda, all)
                }
                Expr::CallValue {
                    callee,
                    args,
                    lambda,
                } => {
                    self.expr(*callee);
                    (None, *lambda, args.iter().map(|&a| self.expr(a)).collect())
                }
                _ => return Inferred::any(),
            };
        let result = self.evaluate(e);
        if let Expr::Call {
            function,
            args: arg_exprs,
            ..
        } = &body[e]
        {
            self.narrow_by_validation(function, arg_exprs, &args, lambda.is_some());
            if let Some(template) = body.inline_template(e) {
                self.inline_template(template, arg_exprs);
            }
        }
        let Some(l) = lambda else {
            if result.value.is_none() && result.ty == Type::Any {
                if let Some(t) = name.and_then(|n| self.picked(&n, &args)) {
                    return Inferred::of_type(t);
                }
            }
            return result;
        };
        let name = name.map(|n| n.to_ascii_lowercase()).unwrap_or_default();
        let types = self.lambda_param_types(&name, &args, l);
        let lambda_result = if name == "reduce" {
            self.reduce_lambda(l, types)
        } else {
            self.lambda(l, &types)
        };
        if result.value.is_some() || result.ty != Type::Any {
            return result;
        }
        args.truncate(2);
        self.iteration_result(&name, &args, &lambda_result)
            .map_or(result, Inferred::of_type)
    }

    /// After a validation call (`validate_bool($x)`, `assert_type(T, $x)`)
    /// the variables it checked have the types it accepts, for the rest of
    /// the block.
    fn narrow_by_validation(
        &mut self,
        function: &str,
        arg_exprs: &[ExprId],
        args: &[Inferred],
        has_block: bool,
    ) {
        let values: Vec<Option<Value>> = args.iter().map(|a| a.value.clone()).collect();
        let ev = &mut self.ev;
        let mut parse = |text: &str| super::context::evaluate_type(ev, text);
        let proven = validation::proven(function, &values, has_block, &mut parse);
        for (index, proven) in proven {
            let Some(&arg) = arg_exprs.get(index) else {
                continue;
            };
            let Expr::Variable(name) = &self.body[arg] else {
                continue;
            };
            let Some(current) = args.get(index) else {
                continue;
            };
            if current.value.is_some() {
                continue;
            }
            let ts = self.ev.ts();
            let narrowed = narrow(&ts, &current.ty, &proven);
            drop(ts);
            self.narrow_here([(*name, narrowed)]);
        }
    }

    /// What stdlib's `pick` (the first argument not undef or empty, else
    /// failure) and `pick_default` (the same, else its last argument)
    /// return.
    fn picked(&self, function: &str, args: &[Inferred]) -> Option<Type> {
        let ts = self.ev.ts();
        let (candidates, fallback) = match function.to_ascii_lowercase().as_str() {
            "pick" => (args, None),
            "pick_default" => {
                let (last, rest) = args.split_last()?;
                (rest, Some(last.ty.clone()))
            }
            _ => return None,
        };
        candidates
            .iter()
            .map(|a| truthy(&ts, &a.ty))
            .chain(fallback)
            .reduce(|a, b| union(&ts, &a, &b))
    }

    /// What an iteration function returns, from its subject's type and
    /// what its lambda returns.
    fn iteration_result(&self, function: &str, args: &[Inferred], body: &Inferred) -> Option<Type> {
        let ts = self.ev.ts();
        let subject = args.first().map(|a| ops::resolved(&ts, &a.ty));
        let element = subject
            .as_ref()
            .and_then(|t| ts.iterable_element_type(t))
            .flatten();
        Some(match function {
            "map" => Type::array_of(body.ty.clone()),
            "flat_map" => Type::array(),
            "filter" | "each" | "reverse_each" | "step" => match subject? {
                Type::Array(e, _) => Type::array_of(*e),
                Type::Hash(k, v, _) => Type::hash_of(*k, *v),
                other if function == "each" => other,
                _ => return None,
            },
            "any" | "all" => Type::boolean(),
            "reduce" => {
                let memo = match args.get(1) {
                    Some(initial) => initial.ty.clone(),
                    // The first element, or undef for an empty subject.
                    None => Type::optional(element?),
                };
                union(&ts, &memo, &body.ty)
            }
            "then" | "with" => body.ty.clone(),
            "sort" | "unique" => Type::array_of(element?),
            "group_by" => Type::hash_of(body.ty.clone(), Type::array_of(element?)),
            "partition" => {
                let a = Type::array_of(element?);
                Type::Tuple(vec![a.clone(), a], Some(IntRange::exact(2)))
            }
            _ => return None,
        })
    }

    /// Walks a lambda body with its parameters bound: declared types
    /// first, else what the called function passes.
    fn lambda(&mut self, l: LambdaId, passed: &[Type]) -> Inferred {
        let body = self.body.clone();
        let lambda = &body[l];
        self.frames.push(Frame::new(FrameKind::Lambda));
        self.params(&lambda.params, passed, Some(l));
        if let Some(rt) = lambda.return_type {
            self.expr(rt);
        }
        let mut result = Inferred::of_value(Value::Undef);
        for &s in &lambda.body {
            result = self.expr(s);
        }
        self.frames.pop();
        result
    }

    /// The template of an `inline_epp()` call, walked like a lambda over the
    /// calling scope: its parameters as declared, or without a header the
    /// keys of the hash written out bound to their values.
    fn inline_template(&mut self, template: &InlineTemplate, args: &[ExprId]) {
        let body = self.body.clone();
        let lambda = &body[template.lambda];
        self.frames.push(Frame::new(FrameKind::Lambda));
        if template.has_params {
            self.params(&lambda.params, &[], Some(template.lambda));
        } else if let Some(Expr::Hash { entries, .. }) = args.get(1).map(|&hash| &body[hash]) {
            for (key, value) in entries {
                if let Some(key) = body.static_string(*key) {
                    let value = self.out.get(*value).cloned().unwrap_or_else(Inferred::any);
                    self.bind(crate::hir::body::name(key), value);
                }
            }
        }
        self.exprs(&lambda.body);
        self.frames.pop();
    }

    /// Walks a `reduce` block with a memo type that holds every memo the
    /// iteration can see: the first memo joined with what the block
    /// returns, until that stops growing (integer ranges that keep growing
    /// are generalized first, then given up as `Any`). The last walk, whose
    /// memo is the fixed point, is the one recorded.
    fn reduce_lambda(&mut self, l: LambdaId, mut params: Vec<Type>) -> Inferred {
        let Some(first) = params.first().cloned() else {
            return self.lambda(l, &params);
        };
        const ROUNDS: usize = 4;
        for round in 0..=ROUNDS {
            let result = self.lambda(l, &params);
            let ts = self.ev.ts();
            let joined = union(&ts, &first, &result.ty);
            if ts.assignable(&params[0], &joined) {
                return result;
            }
            params[0] = match round {
                r if r + 2 < ROUNDS => union(&ts, &params[0], &joined),
                r if r + 2 == ROUNDS => {
                    crate::types::normalize::generalize(&union(&ts, &params[0], &joined))
                }
                _ => Type::Any,
            };
        }
        self.lambda(l, &params)
    }

    /// What an iteration function passes to its lambda's parameters.
    fn lambda_param_types(&mut self, function: &str, args: &[Inferred], l: LambdaId) -> Vec<Type> {
        // the argument count the function's signature passes, else one per parameter
        let arity = crate::eval::LambdaArity::of(self.body, l);
        let n = crate::eval::chosen_block_count(self.ev.target.version, function, arity)
            .unwrap_or(self.body[l].params.len());
        let ts = self.ev.ts();
        let subject = args.first().map(|a| match &a.value {
            Some(v) => crate::types::infer::infer(v),
            None => ops::resolved(&ts, &a.ty),
        });
        let element = subject
            .as_ref()
            .and_then(|t| ts.iterable_element_type(t))
            .flatten();
        let elem = element.clone().unwrap_or(Type::Any);
        match function {
            "each" | "map" | "filter" | "reverse_each" | "any" | "all" | "partition" | "index"
            | "find" | "unique" | "group_by" | "flat_map" | "filter_map" => {
                if n >= 2 {
                    index_and_element(subject.as_ref(), element)
                } else {
                    vec![elem]
                }
            }
            "step" => vec![elem],
            // The memo's first value; `reduce_lambda` widens it to a
            // fixed point of the block.
            "reduce" => vec![args.get(1).map_or(elem.clone(), |a| a.ty.clone()), elem],
            "slice" => {
                if n <= 1 {
                    vec![Type::array_of(elem)]
                } else {
                    vec![elem; n]
                }
            }
            "max" | "min" | "sort" => vec![elem.clone(), elem],
            "with" => args.iter().map(|a| a.ty.clone()).collect(),
            "then" => args
                .first()
                .map(|a| vec![truthy(&ts, &a.ty)])
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    // ---- branches --------------------------------------------------------

    fn if_expr(
        &mut self,
        condition: ExprId,
        then: &[ExprId],
        elsifs: &[(ExprId, Vec<ExprId>)],
        otherwise: Option<&[ExprId]>,
    ) -> Inferred {
        let c = self.expr(condition);
        let (when_true, when_false) = self.narrowings(condition);
        let mut branches = vec![Branch::block(then.to_vec(), when_true)];
        let mut taken = match constant_truth(Some(&c)) {
            Some(true) => Some(0),
            _ => None,
        };
        let undecided = constant_truth(Some(&c)).is_none();
        for (condition, block) in elsifs {
            branches.push(Branch::elsif(*condition, block.clone()));
        }
        let else_narrowing = if elsifs.is_empty() {
            when_false
        } else {
            Vec::new()
        };
        branches.push(Branch::optional(
            otherwise.map(<[ExprId]>::to_vec),
            else_narrowing,
        ));
        if taken.is_none() && !undecided && elsifs.is_empty() {
            taken = Some(1);
        }
        self.join(branches, taken)
    }

    fn case_expr(&mut self, subject: ExprId, options: &[crate::hir::body::CaseOption]) -> Inferred {
        let body = self.body.clone();
        let s = self.expr(subject);
        let var = match &body[subject] {
            Expr::Variable(v) => Some(*v),
            _ => None,
        };
        let mut branches = Vec::new();
        let mut has_default = false;
        for option in options {
            let mut tests = Vec::new();
            let mut all_narrow = true;
            for &value in &option.values {
                let v = self.expr(value);
                if matches!(body[value], Expr::Literal(Literal::Default)) {
                    has_default = true;
                    all_narrow = false;
                    continue;
                }
                match option_test(&body, value, &v) {
                    Some(t) => tests.push(t),
                    None => all_narrow = false,
                }
            }
            let narrowings = match var {
                Some(name) if all_narrow && !tests.is_empty() => {
                    let ts = self.ev.ts();
                    let test = tests
                        .iter()
                        .skip(1)
                        .fold(tests[0].clone(), |acc, t| union(&ts, &acc, t));
                    vec![(name, narrow(&ts, &s.ty, &test))]
                }
                _ => Vec::new(),
            };
            branches.push(Branch::block(option.body.clone(), narrowings));
        }
        if !has_default {
            branches.push(Branch::absent());
        }
        self.join(branches, None)
    }

    fn selector(&mut self, e: ExprId, subject: ExprId, entries: &[(ExprId, ExprId)]) -> Inferred {
        let body = self.body.clone();
        let s = self.expr(subject);
        let var = match &body[subject] {
            Expr::Variable(v) => Some(*v),
            _ => None,
        };
        let mut values = Vec::new();
        for &(matcher, value) in entries {
            let test = self.expr(matcher);
            let narrowings = match (var, option_test(&body, matcher, &test)) {
                (Some(name), Some(t)) => {
                    let ts = self.ev.ts();
                    vec![(name, narrow(&ts, &s.ty, &t))]
                }
                _ => Vec::new(),
            };
            self.frames.push(Frame::new(FrameKind::Branch));
            self.narrow_here(narrowings);
            values.push(self.expr(value));
            self.frames.pop();
        }
        let evaluated = self.evaluate(e);
        if evaluated.value.is_some() || values.is_empty() {
            return evaluated;
        }
        let ts = self.ev.ts();
        let ty = values
            .iter()
            .skip(1)
            .fold(values[0].ty.clone(), |acc, v| union(&ts, &acc, &v.ty));
        Inferred::of_type(ty)
    }

    /// Runs each branch with its narrowings, then joins what the branches
    /// assigned (a variable assigned in only some branches may be undef)
    /// and their values. `taken` is the branch a constant condition selects.
    ///
    /// A branch that always fails (`fail(...)` last) never reaches what
    /// follows: only the others are joined, and when one branch alone
    /// continues, what its condition implies holds after the join (the
    /// guard `unless $x =~ Integer { fail('...') }` makes `$x` an Integer).
    fn join(&mut self, branches: Vec<Branch>, taken: Option<usize>) -> Inferred {
        let mut results: Vec<(Inferred, HashMap<Name, Inferred>)> = Vec::new();
        let mut continuing: Vec<(usize, Narrowings)> = Vec::new();
        for (i, branch) in branches.iter().enumerate() {
            self.frames.push(Frame::new(FrameKind::Branch));
            let mut narrowings = branch.narrowings.clone();
            if let Some(condition) = branch.condition {
                self.expr(condition);
                narrowings.extend(self.narrowings(condition).0);
            }
            self.narrow_here(narrowings.iter().cloned());
            let mut value = Inferred::of_value(Value::Undef);
            if let Some(block) = &branch.block {
                for &s in block {
                    value = self.expr(s);
                }
            }
            let frame = self.frames.pop().expect("pushed");
            if !branch.block.as_deref().is_some_and(|b| self.fails(b)) {
                continuing.push((i, narrowings));
            }
            results.push((value, frame.vars));
        }
        if let Some(t) = taken.filter(|&t| t < results.len()) {
            let (value, vars) = results.swap_remove(t);
            for (name, v) in vars {
                self.bind(name, v);
            }
            return value;
        }
        if !continuing.is_empty() && continuing.len() < results.len() {
            let mut kept = Vec::new();
            for (i, result) in results.into_iter().enumerate() {
                if continuing.iter().any(|(c, _)| *c == i) {
                    kept.push(result);
                }
            }
            results = kept;
            if let [(_, narrowings)] = continuing.as_slice() {
                let assigned = &results[0].1;
                self.narrow_here(
                    narrowings
                        .iter()
                        .filter(|(name, _)| !assigned.contains_key(name))
                        .cloned(),
                );
            }
        }
        let ts = self.ev.ts();
        let join_all = |items: Vec<&Inferred>| -> Inferred {
            let first = items[0];
            if items
                .iter()
                .all(|i| i.value.is_some() && i.value == first.value)
            {
                return first.clone();
            }
            let ty = items
                .iter()
                .skip(1)
                .fold(first.ty.clone(), |acc, i| union(&ts, &acc, &i.ty));
            Inferred::of_type(ty)
        };
        let undef = Inferred::of_value(Value::Undef);
        let mut assigned: BTreeMap<Name, ()> = BTreeMap::new();
        for (_, vars) in &results {
            for name in vars.keys() {
                assigned.insert(*name, ());
            }
        }
        let joined_vars: Vec<(Name, Inferred)> = assigned
            .keys()
            .map(|name| {
                let items: Vec<&Inferred> = results
                    .iter()
                    .map(|(_, vars)| vars.get(name).unwrap_or(&undef))
                    .collect();
                (*name, join_all(items))
            })
            .collect();
        let value = join_all(results.iter().map(|(v, _)| v).collect());
        drop(ts);
        for (name, v) in joined_vars {
            self.bind(name, v);
        }
        value
    }

    /// True when a block always ends in a failure (`fail(...)` last).
    fn fails(&self, block: &[ExprId]) -> bool {
        block.last().is_some_and(|&last| match &self.body[last] {
            Expr::Call { function, .. } => function.eq_ignore_ascii_case("fail"),
            _ => false,
        })
    }

    /// What a condition implies for the variables it tests, when it holds
    /// and when it fails.
    fn narrowings(&mut self, cond: ExprId) -> (Narrowings, Narrowings) {
        let body = self.body.clone();
        match &body[cond] {
            Expr::Unary {
                op: UnaryOp::Not,
                operand,
            } => {
                let (t, f) = self.narrowings(*operand);
                (f, t)
            }
            Expr::Variable(name) => {
                let Some(current) = self.lookup(*name) else {
                    return Default::default();
                };
                let ts = self.ev.ts();
                (vec![(*name, truthy(&ts, &current.ty))], Vec::new())
            }
            Expr::Binary { op, lhs, rhs } => match op {
                BinaryOp::And => {
                    let (mut t1, _) = self.narrowings(*lhs);
                    let (t2, _) = self.narrowings(*rhs);
                    t1.extend(t2);
                    (t1, Vec::new())
                }
                BinaryOp::Or => {
                    let (_, mut f1) = self.narrowings(*lhs);
                    let (_, f2) = self.narrowings(*rhs);
                    f1.extend(f2);
                    (Vec::new(), f1)
                }
                BinaryOp::Match | BinaryOp::NotMatch => {
                    let Expr::Variable(name) = &body[*lhs] else {
                        return Default::default();
                    };
                    let Some(current) = self.lookup(*name) else {
                        return Default::default();
                    };
                    if current.value.is_some() {
                        return Default::default();
                    }
                    let Some(test) = self
                        .out
                        .get(*rhs)
                        .cloned()
                        .and_then(|t| option_test(&body, *rhs, &t))
                    else {
                        return Default::default();
                    };
                    let ts = self.ev.ts();
                    let mut yes = vec![(*name, narrow(&ts, &current.ty, &test))];
                    if *op == BinaryOp::Match && matches!(body[*rhs], Expr::Regex(_)) {
                        yes.extend(match_variables());
                    }
                    let no = vec![(*name, exclude(&ts, &current.ty, &test))];
                    if *op == BinaryOp::Match {
                        (yes, no)
                    } else {
                        (no, yes)
                    }
                }
                BinaryOp::NotEq | BinaryOp::Eq
                    if matches!(body[*rhs], Expr::Literal(Literal::Undef)) =>
                {
                    let Expr::Variable(name) = &body[*lhs] else {
                        return Default::default();
                    };
                    let Some(current) = self.lookup(*name) else {
                        return Default::default();
                    };
                    let ts = self.ev.ts();
                    let defined = vec![(*name, truthy(&ts, &current.ty))];
                    if *op == BinaryOp::NotEq {
                        (defined, Vec::new())
                    } else {
                        (Vec::new(), defined)
                    }
                }
                _ => Default::default(),
            },
            _ => Default::default(),
        }
    }

    /// `$facts['os']['family']` as the fact path `os.family`.
    fn fact_path(&self, e: ExprId) -> Option<String> {
        let body = self.body;
        let mut keys = Vec::new();
        let mut current = e;
        loop {
            match &body[current] {
                Expr::Access { target, keys: k } => {
                    let [key] = k.as_slice() else { return None };
                    keys.push(body.static_string(*key)?.to_string());
                    current = *target;
                }
                Expr::Variable(name) => {
                    if name.trim_start_matches("::") != "facts" {
                        return None;
                    }
                    keys.reverse();
                    return Some(keys.join("."));
                }
                _ => return None,
            }
        }
    }
}

/// `$0` (the whole match) and the groups, after a successful match.
fn match_variables() -> Narrowings {
    let mut out = vec![(crate::hir::body::name("0"), Type::string())];
    for i in 1..10 {
        out.push((
            crate::hir::body::name(&i.to_string()),
            Type::optional(Type::string()),
        ));
    }
    out
}

/// `$trusted`: what Puppet's server puts in it.
pub(super) fn trusted_type() -> Type {
    use crate::model::StructElement;
    let member = |name: &str, value: Type| StructElement {
        key: Type::string_value(name),
        value,
    };
    // Only with `trusted_external_command` set.
    let optional_member = |name: &str, value: Type| StructElement {
        key: Type::optional(Type::string_value(name)),
        value,
    };
    Type::Struct(vec![
        member(
            "authenticated",
            Type::Enum(crate::model::EnumType::new(
                vec!["remote".into(), "local".into(), "false".into()],
                false,
            )),
        ),
        member("certname", Type::string()),
        // `undef` for a certname without a dot.
        member("domain", Type::optional(Type::string())),
        member("extensions", Type::hash_of(Type::string(), Type::Any)),
        optional_member("external", Type::hash_of(Type::string(), Type::Any)),
        member("hostname", Type::string()),
    ])
}

/// One branch of a conditional.
struct Branch {
    /// `None` for a missing `else`/`default`: the branch yields undef.
    block: Option<Vec<ExprId>>,
    narrowings: Narrowings,
    /// An `elsif`'s condition, walked inside the branch.
    condition: Option<ExprId>,
}

impl Branch {
    fn block(block: Vec<ExprId>, narrowings: Narrowings) -> Branch {
        Branch {
            block: Some(block),
            narrowings,
            condition: None,
        }
    }

    fn optional(block: Option<Vec<ExprId>>, narrowings: Narrowings) -> Branch {
        Branch {
            block,
            narrowings,
            condition: None,
        }
    }

    fn elsif(condition: ExprId, block: Vec<ExprId>) -> Branch {
        Branch {
            block: Some(block),
            narrowings: Vec::new(),
            condition: Some(condition),
        }
    }

    fn absent() -> Branch {
        Branch {
            block: None,
            narrowings: Vec::new(),
            condition: None,
        }
    }
}

/// The type a case option or selector matcher tests: a type, or `String`
/// for a regexp.
fn option_test(body: &Body, matcher: ExprId, value: &Inferred) -> Option<Type> {
    match &value.value {
        Some(Value::Type(t)) => Some(t.clone()),
        Some(Value::Regexp(_)) => Some(Type::string()),
        _ if matches!(body[matcher], Expr::Regex(_)) => Some(Type::string()),
        _ => None,
    }
}

fn is_numeric(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

fn constant_truth(c: Option<&Inferred>) -> Option<bool> {
    c?.value.as_ref().map(Value::is_truthy)
}

/// What an iteration passes to a two-parameter block: a hash's key and
/// value, or a sequence's index and element. `Any` for both when the
/// subject may be either.
fn index_and_element(subject: Option<&Type>, element: Option<Type>) -> Vec<Type> {
    let any = || vec![Type::Any, Type::Any];
    match subject {
        Some(Type::Hash(k, v, _)) => vec![(**k).clone(), (**v).clone()],
        Some(Type::Struct(_)) => match element {
            Some(Type::Tuple(kv, _)) if kv.len() == 2 => kv,
            _ => any(),
        },
        Some(Type::Array(..) | Type::Tuple(..) | Type::Iterator(_)) => vec![
            Type::Integer(IntRange::new(Some(0), None)),
            element.unwrap_or(Type::Any),
        ],
        _ => any(),
    }
}
