//! The inference walk: statements in flow order, scopes as Puppet has
//! them, branches narrowed and joined, constants through the evaluator.

use super::context::TypeContext;
use super::narrow::{exclude, narrow, truthy, union};
use super::ops;
use super::{FileTypes, Inferred};
use crate::eval::Evaluator;
use crate::types::{IntRange, Type};
use crate::values::Value;
use puppet_syntax::ast::{self, AstNode, BinaryOp, Expr, UnaryOp};
use puppet_syntax::{SyntaxKind, SyntaxNode, TextRange, TextSize};
use std::collections::{BTreeMap, HashMap};

/// Deeper expressions are not inferred (the evaluator has its own limits;
/// this keeps the walk's own recursion bounded on pathological input).
const MAX_DEPTH: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    /// The top scope.
    Top,
    /// A class, define, function, plan or node body: sees the top scope only.
    Isolated,
    /// A lambda: sees the scope it is written in.
    Lambda,
    /// One branch of an `if`/`case`/selector: not a scope of its own in
    /// Puppet; collects its assignments so they can be joined afterwards.
    Branch,
}

#[derive(Debug)]
struct Frame {
    kind: FrameKind,
    vars: HashMap<String, Inferred>,
    /// Narrowed types of variables of enclosing frames, in this branch.
    narrowed: HashMap<String, Type>,
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
type Narrowings = Vec<(String, Type)>;

pub(super) struct Walker {
    ev: Evaluator,
    frames: Vec<Frame>,
    out: FileTypes,
    depth: usize,
    /// Statements starting after this offset are not walked (what comes
    /// later in flow order cannot change what is asked about).
    limit: Option<TextSize>,
}

impl Walker {
    pub(super) fn new(ctx: &TypeContext) -> Walker {
        Walker {
            ev: ctx.evaluator(),
            frames: vec![Frame::new(FrameKind::Top)],
            out: FileTypes::default(),
            depth: 0,
            limit: None,
        }
    }

    /// Infers only what `range` needs: the top-level statements it
    /// touches, and before them the top-level code that is not a
    /// definition (it may assign top-scope variables). Definitions are
    /// isolated scopes, so the others need not be walked.
    pub(super) fn run_range(mut self, file: &ast::SourceFile, range: TextRange) -> FileTypes {
        self.limit = Some(statement_end(file.syntax(), range));
        let _ = self.ev.load_definitions(file);
        if let Some(params) = file.epp_params().and_then(|p| p.params()) {
            self.params(&params, &[]);
        }
        for statement in file.statements() {
            let r = statement.syntax().text_range();
            if r.start() > range.end() {
                break;
            }
            let touches = r.intersect(range).is_some() || r.contains_range(range);
            let definition = matches!(
                statement,
                Expr::ClassDef(_)
                    | Expr::DefineDef(_)
                    | Expr::FunctionDef(_)
                    | Expr::PlanDef(_)
                    | Expr::NodeDef(_)
                    | Expr::TypeAlias(_)
                    | Expr::TypeDef(_)
            );
            if touches || !definition {
                self.expr(&statement);
            }
        }
        self.out
            .definitions
            .sort_by_key(|(range, _)| (range.start(), range.end()));
        self.out
    }

    pub(super) fn run(mut self, file: &ast::SourceFile) -> FileTypes {
        // Functions and aliases of the file itself are known everywhere in it.
        let _ = self.ev.load_definitions(file);
        if let Some(params) = file.epp_params().and_then(|p| p.params()) {
            self.params(&params, &[]);
        }
        for statement in file.statements() {
            self.expr(&statement);
        }
        self.out
            .definitions
            .sort_by_key(|(range, _)| (range.start(), range.end()));
        self.out
    }

    // ---- variables -------------------------------------------------------

    fn lookup(&self, name: &str) -> Option<Inferred> {
        if let Some(bare) = name.strip_prefix("::") {
            return self.frames[0].vars.get(bare).cloned();
        }
        let mut i = self.frames.len() - 1;
        loop {
            let frame = &self.frames[i];
            if let Some(t) = frame.narrowed.get(name) {
                return Some(Inferred::of_type(t.clone()));
            }
            if let Some(v) = frame.vars.get(name) {
                return Some(v.clone());
            }
            match frame.kind {
                FrameKind::Top => return None,
                FrameKind::Isolated => i = 0,
                FrameKind::Lambda | FrameKind::Branch => i -= 1,
            }
        }
    }

    fn bind(&mut self, name: &str, value: Inferred) {
        let frame = self
            .frames
            .last_mut()
            .expect("the top frame is never popped");
        frame.narrowed.remove(name);
        frame.vars.insert(name.to_string(), value);
    }

    /// What a variable reference holds, when the walk cannot ask the
    /// evaluator: facts by name, match variables, or unknown.
    fn variable(&mut self, v: &ast::VariableExpr) -> Inferred {
        let name = v.name();
        if let Some(found) = self.lookup(&name) {
            return found;
        }
        let bare = name.trim_start_matches("::");
        if is_numeric(bare) {
            return Inferred::any();
        }
        if let Some(t) = crate::builtins::builtins().facts.type_of(bare) {
            // A legacy top-scope fact (`$::osfamily`).
            if !bare.contains("::") {
                return Inferred::of_type(t);
            }
        }
        match bare {
            "trusted" => Inferred::of_type(trusted_type()),
            "facts" | "server_facts" | "settings" => self.evaluate(&Expr::VariableExpr(v.clone())),
            "title" | "name" | "module_name" | "caller_module_name" | "environment" => {
                Inferred::of_type(Type::string())
            }
            _ => Inferred::any(),
        }
    }

    /// Binds an assignment target (a variable or an array of them).
    fn assign_target(&mut self, target: &Expr, value: &Inferred) {
        match target {
            Expr::VariableExpr(v) => {
                self.record_definition(v.syntax(), value.clone());
                self.bind(&v.name(), value.clone());
            }
            Expr::ArrayExpr(a) => {
                let items: Vec<Expr> = a.elements().collect();
                for (i, item) in items.iter().enumerate() {
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
            _ => {}
        }
    }

    fn record(&mut self, node: &SyntaxNode, value: Inferred) {
        self.out.exprs.insert(node.text_range(), value);
    }

    fn record_definition(&mut self, node: &SyntaxNode, value: Inferred) {
        self.record_definition_range(node.text_range(), value);
    }

    /// A variable definition (assignment target, parameter token).
    fn record_definition_range(&mut self, range: TextRange, value: Inferred) {
        self.out.definitions.push((range, value.clone()));
        self.out.exprs.insert(range, value);
    }

    /// Binds declared parameters: their declared type (evaluated), else
    /// what the caller is known to pass (`passed`, by position), else
    /// `Any`; defaults are inferred as expressions.
    fn params(&mut self, params: &ast::ParamList, passed: &[Type]) {
        for (i, param) in params.params().enumerate() {
            let declared = param.type_expr().and_then(|t| match self.expr(&t).value {
                Some(Value::Type(t)) => Some(t),
                _ => None,
            });
            if let Some(default) = param.default_value() {
                self.expr(&default);
            }
            let mut ty = declared
                .or_else(|| passed.get(i).cloned())
                .unwrap_or(Type::Any);
            if param.captures_rest() {
                ty = Type::array_of(ty);
            }
            let Some(name) = param.name() else { continue };
            let value = Inferred::of_type(ty);
            if let Some(token) = param.variable_token() {
                self.record_definition_range(token.text_range(), value.clone());
            }
            self.bind(&name, value);
        }
    }

    // ---- expressions -----------------------------------------------------

    /// Infers an expression (and everything in it), recording the result.
    pub(super) fn expr(&mut self, e: &Expr) -> Inferred {
        if self.depth >= MAX_DEPTH {
            return Inferred::any();
        }
        self.depth += 1;
        let result = self.expr_inner(e);
        self.depth -= 1;
        self.record(e.syntax(), result.clone());
        result
    }

    #[inline(never)]
    fn expr_inner(&mut self, e: &Expr) -> Inferred {
        match e {
            Expr::AssignmentExpr(a) => {
                let value = a.rhs().map_or_else(Inferred::any, |r| self.expr(&r));
                if let Some(lhs) = a.lhs() {
                    self.assign_target(&lhs, &value);
                }
                value
            }
            Expr::VariableExpr(v) => self.variable(v),
            Expr::IfExpr(i) => self.if_expr(i),
            Expr::UnlessExpr(u) => {
                let cond = u.condition();
                let c = cond.as_ref().map(|c| self.expr(c));
                let (when_true, when_false) = match &cond {
                    Some(c) => self.narrowings(c),
                    None => (Vec::new(), Vec::new()),
                };
                let taken = constant_truth(c.as_ref()).map(|t| if t { 1 } else { 0 });
                let branches = vec![
                    Branch::block(u.then_block(), when_false),
                    Branch::block(u.else_branch().and_then(|e| e.block()), when_true),
                ];
                self.join(branches, taken)
            }
            Expr::CaseExpr(c) => self.case_expr(c),
            Expr::SelectorExpr(s) => self.selector(s),
            Expr::ClassDef(_)
            | Expr::DefineDef(_)
            | Expr::FunctionDef(_)
            | Expr::PlanDef(_)
            | Expr::NodeDef(_) => {
                self.definition(e.syntax());
                Inferred::of_value(Value::Undef)
            }
            Expr::ApplyExpr(a) => {
                self.children(a.syntax());
                Inferred::any()
            }
            Expr::CallExpr(_) | Expr::MethodCallExpr(_) => self.call(e),
            Expr::AccessExpr(a) => self.access(e, a),
            Expr::ResourceExpr(_)
            | Expr::ResourceDefaults(_)
            | Expr::ResourceOverride(_)
            | Expr::Collector(_)
            | Expr::RelationshipExpr(_) => {
                self.children(e.syntax());
                Inferred::any()
            }
            Expr::TypeAlias(a) => {
                if let Some(v) = a.value() {
                    self.expr(&v);
                }
                Inferred::of_value(Value::Undef)
            }
            Expr::TypeDef(_) | Expr::Hostname(_) => Inferred::any(),
            Expr::BinaryExpr(b) => self.binary(e, b),
            Expr::RenderExpr(_) | Expr::RenderString(_) => {
                self.children(e.syntax());
                Inferred::of_type(Type::string())
            }
            _ => {
                self.children(e.syntax());
                self.evaluate(e)
            }
        }
    }

    #[inline(never)]
    fn access(&mut self, e: &Expr, a: &ast::AccessExpr) -> Inferred {
        self.children(a.syntax());
        if let Some(t) = fact_path(a).and_then(|p| crate::builtins::builtins().facts.type_of(&p)) {
            return Inferred::of_type(t);
        }
        let evaluated = self.evaluate(e);
        if evaluated.value.is_some() || evaluated.ty != Type::Any {
            return evaluated;
        }
        let target = a
            .target()
            .and_then(|t| self.out.get(t.syntax().text_range()).cloned());
        let keys: Vec<Option<Value>> = a
            .args()
            .iter()
            .map(|k| {
                self.out
                    .get(k.syntax().text_range())
                    .and_then(|i| i.value.clone())
            })
            .collect();
        let ts = self.ev.ts();
        target
            .and_then(|t| ops::access(&ts, &t.ty, &keys))
            .map_or(evaluated, Inferred::of_type)
    }

    #[inline(never)]
    fn binary(&mut self, e: &Expr, b: &ast::BinaryExpr) -> Inferred {
        self.children(b.syntax());
        let evaluated = self.evaluate(e);
        if evaluated.value.is_some() {
            return evaluated;
        }
        let operand = |side: Option<Expr>| {
            side.and_then(|x| self.out.get(x.syntax().text_range()).map(|i| i.ty.clone()))
        };
        let (Some(op), Some(l), Some(r)) = (b.op(), operand(b.lhs()), operand(b.rhs())) else {
            return evaluated;
        };
        let ts = self.ev.ts();
        ops::arithmetic(&ts, op, &l, &r).map_or(evaluated, Inferred::of_type)
    }

    /// Walks the expressions below `node` (not lambdas: calls bind their
    /// parameters; not blocks' scopes: statements in flow order).
    fn children(&mut self, node: &SyntaxNode) {
        for child in node.children() {
            if let Some(e) = Expr::cast(child.clone()) {
                self.expr(&e);
            } else if child.kind() == SyntaxKind::LAMBDA {
                // Bound by `call`, or (in odd places) walked with unknowns.
                if let Some(l) = ast::Lambda::cast(child) {
                    self.lambda(&l, &[]);
                }
            } else {
                self.children(&child);
            }
        }
    }

    fn block(&mut self, block: Option<ast::Block>) -> Inferred {
        let mut last = Inferred::of_value(Value::Undef);
        if let Some(b) = block {
            for statement in b.statements() {
                if self
                    .limit
                    .is_some_and(|limit| statement.syntax().text_range().start() > limit)
                {
                    break;
                }
                last = self.expr(&statement);
            }
        }
        last
    }

    /// A class, define, function, plan or node: an isolated scope with
    /// its parameters bound to their declared types.
    fn definition(&mut self, node: &SyntaxNode) {
        self.frames.push(Frame::new(FrameKind::Isolated));
        let kind = node.kind();
        if matches!(kind, SyntaxKind::CLASS_DEF | SyntaxKind::DEFINE_DEF) {
            for name in ["title", "name"] {
                self.bind(name, Inferred::of_type(Type::string()));
            }
        }
        if let Some(params) = node.children().find_map(ast::ParamList::cast) {
            self.params(&params, &[]);
        }
        if let Some(node_def) = ast::NodeDef::cast(node.clone()) {
            for m in node_def.matchers() {
                self.expr(&m);
            }
        }
        let body = node.children().find_map(ast::Block::cast);
        if let Some(r) = node.children().find_map(ast::ReturnType::cast) {
            if let Some(t) = r.type_expr() {
                self.expr(&t);
            }
        }
        self.block(body);
        self.frames.pop();
    }

    /// Evaluates an expression with the variables it reads bound to what
    /// the walk knows of them.
    #[inline(never)]
    fn evaluate(&mut self, e: &Expr) -> Inferred {
        let mut names = Vec::new();
        let mut reads_match_variable = false;
        for n in e.syntax().descendants() {
            let name = match n.kind() {
                SyntaxKind::VARIABLE_EXPR => ast::VariableExpr::cast(n).map(|v| v.name()),
                SyntaxKind::INTERPOLATION => ast::Interpolation::cast(n).and_then(|i| {
                    i.variable_token()
                        .map(|t| t.text().trim_start_matches('$').to_string())
                        .or_else(|| match i.expr()? {
                            Expr::QualifiedName(q) => Some(q.name()),
                            _ => None,
                        })
                }),
                SyntaxKind::QUALIFIED_NAME
                    if n.ancestors().any(|a| a.kind() == SyntaxKind::INTERPOLATION) =>
                {
                    ast::QualifiedName::cast(n).map(|q| q.name())
                }
                _ => None,
            };
            if let Some(name) = name {
                if is_numeric(name.trim_start_matches("::")) {
                    reads_match_variable = true;
                } else {
                    names.push(name);
                }
            }
        }
        if reads_match_variable {
            // The evaluator's match variables are not the walk's.
            return Inferred::any();
        }
        names.sort();
        names.dedup();
        let bindings: Vec<(String, Value)> = names
            .into_iter()
            .filter_map(|name| {
                let value = match self.lookup(&name) {
                    Some(known) => known.to_value(),
                    None => {
                        let bare = name.trim_start_matches("::");
                        // Left unbound, the evaluator knows these.
                        if matches!(bare, "facts" | "server_facts" | "settings") {
                            return None;
                        }
                        if bare == "trusted" {
                            return Some(("trusted".to_string(), Value::Unknown(trusted_type())));
                        }
                        Value::Unknown(match crate::builtins::builtins().facts.type_of(bare) {
                            Some(t) if !bare.contains("::") => t,
                            _ => Type::Any,
                        })
                    }
                };
                Some((name.trim_start_matches("::").to_string(), value))
            })
            .collect();
        let saved = self.ev.scopes.push(false);
        for (name, value) in bindings {
            self.ev.set_variable(&name, value);
        }
        self.ev.reset_budget();
        let outcome = self.ev.eval_expression(e);
        self.ev.scopes.pop(saved);
        match outcome.value {
            Some(v) if outcome.error.is_none() && outcome.unsupported.is_none() => {
                Inferred::of_value(v)
            }
            _ => Inferred::any(),
        }
    }

    // ---- calls and lambdas -----------------------------------------------

    fn call(&mut self, e: &Expr) -> Inferred {
        let (name, lambda, receiver) = match e {
            Expr::CallExpr(c) => {
                if let Some(callee) = c.callee() {
                    if !matches!(callee, Expr::QualifiedName(_)) {
                        self.expr(&callee);
                    }
                }
                (c.function_name(), c.lambda(), None)
            }
            Expr::MethodCallExpr(m) => {
                let recv = m.receiver().map(|r| self.expr(&r));
                (m.name(), m.lambda(), recv)
            }
            _ => return Inferred::any(),
        };
        let arg_exprs: Vec<Expr> = match e {
            Expr::CallExpr(c) => c.args(),
            Expr::MethodCallExpr(m) => m.args(),
            _ => Vec::new(),
        };
        let mut args: Vec<Inferred> = receiver.into_iter().collect();
        for a in &arg_exprs {
            args.push(self.expr(a));
        }
        let result = self.evaluate(e);
        let Some(l) = lambda else { return result };
        let name = name.unwrap_or_default().to_ascii_lowercase();
        let types = self.lambda_param_types(&name, &args, &l);
        let body = self.lambda(&l, &types);
        if result.value.is_some() || result.ty != Type::Any {
            return result;
        }
        self.iteration_result(&name, &args, &body)
            .map_or(result, Inferred::of_type)
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
                let memo = args.get(1).map_or(Type::Any, |a| a.ty.clone());
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
    fn lambda(&mut self, l: &ast::Lambda, passed: &[Type]) -> Inferred {
        self.frames.push(Frame::new(FrameKind::Lambda));
        if let Some(params) = l.params() {
            self.params(&params, passed);
        }
        let result = self.block(l.body());
        self.frames.pop();
        result
    }

    /// What an iteration function passes to its lambda's parameters.
    fn lambda_param_types(
        &mut self,
        function: &str,
        args: &[Inferred],
        l: &ast::Lambda,
    ) -> Vec<Type> {
        let n = crate::eval::lambda_arity(l);
        let subject = args.first().map(|a| match &a.value {
            Some(v) => crate::types::infer::infer(v),
            None => a.ty.clone(),
        });
        let ts = self.ev.ts();
        let element = subject
            .as_ref()
            .and_then(|t| ts.iterable_element_type(t))
            .flatten();
        let pair = |element: &Option<Type>| -> Option<(Type, Type)> {
            match element {
                Some(Type::Tuple(kv, Some(size)))
                    if kv.len() == 2 && *size == IntRange::exact(2) =>
                {
                    Some((kv[0].clone(), kv[1].clone()))
                }
                _ => None,
            }
        };
        let is_hash = subject
            .as_ref()
            .is_some_and(|t| matches!(t, Type::Hash(..) | Type::Struct(_)));
        let elem = element.clone().unwrap_or(Type::Any);
        match function {
            "each" | "map" | "filter" | "reverse_each" | "any" | "all" | "partition" | "index"
            | "find" | "unique" | "group_by" | "flat_map" | "filter_map" => {
                if n >= 2 {
                    match pair(&element) {
                        Some((k, v)) if is_hash => vec![k, v],
                        _ => vec![Type::Integer(IntRange::new(Some(0), None)), elem],
                    }
                } else {
                    vec![elem]
                }
            }
            "step" => vec![elem],
            "reduce" => {
                let memo = args.get(1).map_or(elem.clone(), |a| a.ty.clone());
                vec![union(&ts, &memo, &Type::Any), elem]
            }
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

    fn if_expr(&mut self, i: &ast::IfExpr) -> Inferred {
        let cond = i.condition();
        let c = cond.as_ref().map(|c| self.expr(c));
        let (when_true, when_false) = match &cond {
            Some(c) => self.narrowings(c),
            None => (Vec::new(), Vec::new()),
        };
        let mut branches = vec![Branch::block(i.then_block(), when_true)];
        let mut taken = match constant_truth(c.as_ref()) {
            Some(true) => Some(0),
            _ => None,
        };
        let elsifs: Vec<ast::ElsifBranch> = i.elsif_branches().collect();
        let undecided = constant_truth(c.as_ref()).is_none();
        for elsif in &elsifs {
            branches.push(Branch::elsif(elsif.clone()));
        }
        let else_narrowing = if elsifs.is_empty() {
            when_false
        } else {
            Vec::new()
        };
        let else_block = i.else_branch().and_then(|e| e.block());
        let has_else = i.else_branch().is_some();
        branches.push(Branch {
            block: else_block,
            narrowings: else_narrowing,
            elsif: None,
            present: has_else,
        });
        if taken.is_none() && !undecided && elsifs.is_empty() {
            taken = Some(1);
        }
        self.join(branches, taken)
    }

    fn case_expr(&mut self, c: &ast::CaseExpr) -> Inferred {
        let subject = c.subject();
        let s = subject.as_ref().map(|s| self.expr(s));
        let var = match &subject {
            Some(Expr::VariableExpr(v)) => Some(v.name()),
            _ => None,
        };
        let mut branches = Vec::new();
        let mut has_default = false;
        for option in c.options() {
            let mut tests = Vec::new();
            let mut all_narrow = true;
            for value in option.values() {
                let v = self.expr(&value);
                if is_default(&value) {
                    has_default = true;
                    all_narrow = false;
                    continue;
                }
                match option_test(&value, &v) {
                    Some(t) => tests.push(t),
                    None => all_narrow = false,
                }
            }
            let narrowings = match (&var, &s) {
                (Some(name), Some(current)) if all_narrow && !tests.is_empty() => {
                    let ts = self.ev.ts();
                    let test = tests
                        .iter()
                        .skip(1)
                        .fold(tests[0].clone(), |acc, t| union(&ts, &acc, t));
                    vec![(name.clone(), narrow(&ts, &current.ty, &test))]
                }
                _ => Vec::new(),
            };
            branches.push(Branch::block(option.body(), narrowings));
        }
        if !has_default {
            branches.push(Branch::absent());
        }
        self.join(branches, None)
    }

    fn selector(&mut self, sel: &ast::SelectorExpr) -> Inferred {
        let subject = sel.subject();
        let s = subject.as_ref().map(|s| self.expr(s));
        let mut values = Vec::new();
        for entry in sel.entries() {
            let narrowings = match (entry.matcher(), &subject, &s) {
                (Some(m), Some(Expr::VariableExpr(v)), Some(current)) => {
                    let test = self.expr(&m);
                    match option_test(&m, &test) {
                        Some(t) => {
                            let ts = self.ev.ts();
                            vec![(v.name(), narrow(&ts, &current.ty, &t))]
                        }
                        None => Vec::new(),
                    }
                }
                (Some(m), _, _) => {
                    self.expr(&m);
                    Vec::new()
                }
                _ => Vec::new(),
            };
            if let Some(value) = entry.value() {
                self.frames.push(Frame::new(FrameKind::Branch));
                self.frames
                    .last_mut()
                    .expect("pushed")
                    .narrowed
                    .extend(narrowings);
                values.push(self.expr(&value));
                self.frames.pop();
            }
        }
        let evaluated = self.evaluate(&Expr::SelectorExpr(sel.clone()));
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
    fn join(&mut self, branches: Vec<Branch>, taken: Option<usize>) -> Inferred {
        let mut results: Vec<(Inferred, HashMap<String, Inferred>)> = Vec::new();
        for branch in &branches {
            self.frames.push(Frame::new(FrameKind::Branch));
            let mut narrowings = branch.narrowings.clone();
            let mut value = Inferred::of_value(Value::Undef);
            if let Some(elsif) = &branch.elsif {
                if let Some(c) = elsif.condition() {
                    self.expr(&c);
                    narrowings.extend(self.narrowings(&c).0);
                }
                self.frames
                    .last_mut()
                    .expect("pushed")
                    .narrowed
                    .extend(narrowings);
                value = self.block(elsif.block());
            } else {
                self.frames
                    .last_mut()
                    .expect("pushed")
                    .narrowed
                    .extend(narrowings);
                if branch.present {
                    value = self.block(branch.block.clone());
                }
            }
            let frame = self.frames.pop().expect("pushed");
            results.push((value, frame.vars));
        }
        if let Some(t) = taken.filter(|&t| t < results.len()) {
            let (value, vars) = results.swap_remove(t);
            for (name, v) in vars {
                self.bind(&name, v);
            }
            return value;
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
        let mut assigned: BTreeMap<&String, Vec<&Inferred>> = BTreeMap::new();
        for (_, vars) in &results {
            for name in vars.keys() {
                assigned.entry(name).or_default();
            }
        }
        let joined_vars: Vec<(String, Inferred)> = assigned
            .keys()
            .map(|name| {
                let items: Vec<&Inferred> = results
                    .iter()
                    .map(|(_, vars)| vars.get(*name).unwrap_or(&undef))
                    .collect();
                ((*name).clone(), join_all(items))
            })
            .collect();
        let value = join_all(results.iter().map(|(v, _)| v).collect());
        drop(ts);
        for (name, v) in joined_vars {
            self.bind(&name, v);
        }
        value
    }

    /// What a condition implies for the variables it tests, when it holds
    /// and when it fails.
    fn narrowings(&mut self, cond: &Expr) -> (Narrowings, Narrowings) {
        match cond {
            Expr::ParenExpr(p) => p
                .expr()
                .map_or_else(Default::default, |e| self.narrowings(&e)),
            Expr::UnaryExpr(u) if u.op() == Some(UnaryOp::Not) => {
                let (t, f) = u
                    .operand()
                    .map_or_else(Default::default, |e| self.narrowings(&e));
                (f, t)
            }
            Expr::VariableExpr(v) => {
                let name = v.name();
                let Some(current) = self.lookup(&name) else {
                    return Default::default();
                };
                let ts = self.ev.ts();
                (vec![(name, truthy(&ts, &current.ty))], Vec::new())
            }
            Expr::BinaryExpr(b) => {
                let (Some(op), Some(lhs), Some(rhs)) = (b.op(), b.lhs(), b.rhs()) else {
                    return Default::default();
                };
                match op {
                    BinaryOp::And => {
                        let (mut t1, _) = self.narrowings(&lhs);
                        let (t2, _) = self.narrowings(&rhs);
                        t1.extend(t2);
                        (t1, Vec::new())
                    }
                    BinaryOp::Or => {
                        let (_, mut f1) = self.narrowings(&lhs);
                        let (_, f2) = self.narrowings(&rhs);
                        f1.extend(f2);
                        (Vec::new(), f1)
                    }
                    BinaryOp::Match | BinaryOp::NotMatch => {
                        let Expr::VariableExpr(v) = &lhs else {
                            return Default::default();
                        };
                        let name = v.name();
                        let Some(current) = self.lookup(&name) else {
                            return Default::default();
                        };
                        if current.value.is_some() {
                            return Default::default();
                        }
                        let Some(test) = self
                            .out
                            .get(rhs.syntax().text_range())
                            .cloned()
                            .and_then(|t| option_test(&rhs, &t))
                        else {
                            return Default::default();
                        };
                        let ts = self.ev.ts();
                        let mut yes = vec![(name.clone(), narrow(&ts, &current.ty, &test))];
                        if op == BinaryOp::Match && matches!(rhs, Expr::RegexExpr(_)) {
                            yes.extend(match_variables());
                        }
                        let no = vec![(name, exclude(&ts, &current.ty, &test))];
                        if op == BinaryOp::Match {
                            (yes, no)
                        } else {
                            (no, yes)
                        }
                    }
                    BinaryOp::NotEq | BinaryOp::Eq if is_undef_literal(&rhs) => {
                        let Expr::VariableExpr(v) = &lhs else {
                            return Default::default();
                        };
                        let name = v.name();
                        let Some(current) = self.lookup(&name) else {
                            return Default::default();
                        };
                        let ts = self.ev.ts();
                        let defined = vec![(name, truthy(&ts, &current.ty))];
                        if op == BinaryOp::NotEq {
                            (defined, Vec::new())
                        } else {
                            (Vec::new(), defined)
                        }
                    }
                    _ => Default::default(),
                }
            }
            _ => Default::default(),
        }
    }
}

/// The end of the innermost statement containing `range`: later
/// statements need not be walked, but all of that statement must (an
/// assignment's value may be a whole `if`).
fn statement_end(root: &SyntaxNode, range: TextRange) -> TextSize {
    puppet_syntax::covering_node(root, range)
        .into_iter()
        .flat_map(|n| n.ancestors())
        .find(|n| {
            n.parent()
                .is_some_and(|p| matches!(p.kind(), SyntaxKind::BLOCK | SyntaxKind::SOURCE_FILE))
        })
        .map_or(range.end(), |statement| {
            statement.text_range().end().max(range.end())
        })
}

/// `$0` (the whole match) and the groups, after a successful match.
fn match_variables() -> Narrowings {
    let mut out = vec![("0".to_string(), Type::string())];
    for i in 1..10 {
        out.push((i.to_string(), Type::optional(Type::string())));
    }
    out
}

/// `$trusted`: what Puppet's server puts in it.
fn trusted_type() -> Type {
    use crate::types::StructElement;
    let member = |name: &str, value: Type| StructElement {
        key: Type::string_value(name),
        value,
    };
    Type::Struct(vec![
        member(
            "authenticated",
            Type::Enum(crate::types::EnumType::new(
                vec!["remote".into(), "local".into(), "false".into()],
                false,
            )),
        ),
        member("certname", Type::string()),
        member("domain", Type::string()),
        member("extensions", Type::hash_of(Type::string(), Type::Any)),
        member("external", Type::hash_of(Type::string(), Type::Any)),
        member("hostname", Type::string()),
    ])
}

/// One branch of a conditional.
struct Branch {
    block: Option<ast::Block>,
    narrowings: Narrowings,
    /// An `elsif`: its condition is walked inside the branch.
    elsif: Option<ast::ElsifBranch>,
    /// False for a missing `else`/`default`: the branch yields undef.
    present: bool,
}

impl Branch {
    fn block(block: Option<ast::Block>, narrowings: Narrowings) -> Branch {
        Branch {
            block,
            narrowings,
            elsif: None,
            present: true,
        }
    }

    fn elsif(elsif: ast::ElsifBranch) -> Branch {
        Branch {
            block: None,
            narrowings: Vec::new(),
            elsif: Some(elsif),
            present: true,
        }
    }

    fn absent() -> Branch {
        Branch {
            block: None,
            narrowings: Vec::new(),
            elsif: None,
            present: false,
        }
    }
}

/// The type a case option or selector matcher tests: a type, or `String`
/// for a regexp.
fn option_test(matcher: &Expr, value: &Inferred) -> Option<Type> {
    match &value.value {
        Some(Value::Type(t)) => Some(t.clone()),
        Some(Value::Regexp(_)) => Some(Type::string()),
        _ if matches!(matcher, Expr::RegexExpr(_)) => Some(Type::string()),
        _ => None,
    }
}

fn is_default(e: &Expr) -> bool {
    e.syntax()
        .first_token()
        .is_some_and(|t| t.kind() == SyntaxKind::DEFAULT_KW)
}

fn is_undef_literal(e: &Expr) -> bool {
    e.syntax()
        .first_token()
        .is_some_and(|t| t.kind() == SyntaxKind::UNDEF_KW)
}

fn is_numeric(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

fn constant_truth(c: Option<&Inferred>) -> Option<bool> {
    c?.value.as_ref().map(Value::is_truthy)
}

/// `$facts['os']['family']` as the fact path `os.family`.
fn fact_path(a: &ast::AccessExpr) -> Option<String> {
    let mut keys = Vec::new();
    let mut current = Expr::AccessExpr(a.clone());
    loop {
        match current {
            Expr::AccessExpr(acc) => {
                let args = acc.args();
                let [key] = args.as_slice() else { return None };
                keys.push(key.static_string()?);
                current = acc.target()?;
            }
            Expr::VariableExpr(v) => {
                let name = v.name();
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
