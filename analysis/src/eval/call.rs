//! Function calls: dispatch to Puppet-language functions defined in the
//! source, the pure built-ins, or calls to types (`Integer('1')`); lambdas
//! and parameter binding with type checks.

use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::SyntaxNode;

use super::{Evaluator, Flow};
use crate::types::{infer_set, Type};
use crate::values::Value;

/// Parameters as needed for binding.
struct ParamSpec {
    name: String,
    type_expr: Option<Expr>,
    default: Option<Expr>,
    rest: bool,
}

fn param_specs(list: Option<ast::ParamList>) -> Vec<ParamSpec> {
    list.map(|l| {
        l.params()
            .map(|p| ParamSpec {
                name: p.name().unwrap_or_default(),
                type_expr: p.type_expr(),
                default: p.default_value(),
                rest: p.captures_rest(),
            })
            .collect()
    })
    .unwrap_or_default()
}

/// The number of parameters a lambda declares.
pub(crate) fn lambda_arity(l: &ast::Lambda) -> usize {
    l.params().map(|p| p.params().count()).unwrap_or(0)
}

impl Evaluator {
    pub(crate) fn eval_call(&mut self, c: &ast::CallExpr) -> Result<Value, Flow> {
        let node = c.syntax();
        let callee = c.callee();
        let args = self.eval_list(c.args().into_iter())?;
        let lambda = c.lambda();
        match callee {
            Some(Expr::QualifiedName(n)) => {
                self.call_function(&n.name(), args, lambda.as_ref(), node)
            }
            Some(other) => match self.eval(&other)? {
                Value::Type(t) => self.new_instance(&t, args, lambda.as_ref(), node),
                Value::Unknown(_) => Ok(Value::Unknown(Type::Any)),
                v => Err(self.error(node, format!("{} is not callable", v.a_label()))),
            },
            None => Err(Flow::Unsupported("incomplete call".into())),
        }
    }

    pub(crate) fn eval_method_call(
        &mut self,
        m: &ast::MethodCallExpr,
        receiver: Value,
    ) -> Result<Value, Flow> {
        let node = m.syntax();
        let Some(name) = m.name() else {
            return Err(Flow::Unsupported("incomplete method call".into()));
        };
        let mut args = vec![receiver];
        args.extend(self.eval_list(m.args().into_iter())?);
        let lambda = m.lambda();
        self.call_function(&name, args, lambda.as_ref(), node)
    }

    pub(crate) fn eval_statement_call(&mut self, s: &ast::StatementCall) -> Result<Value, Flow> {
        let Some(name) = s.name() else {
            return Err(Flow::Unsupported("incomplete call".into()));
        };
        let args = self.eval_list(s.args())?;
        self.call_function(&name, args, None, s.syntax())
    }

    /// Calls a function by name: a function defined in the source, else a
    /// pure built-in, else an unknown value (the function is not knowable).
    pub(crate) fn call_function(
        &mut self,
        name: &str,
        args: Vec<Value>,
        lambda: Option<&ast::Lambda>,
        node: &SyntaxNode,
    ) -> Result<Value, Flow> {
        let key = name.trim_start_matches("::").to_ascii_lowercase();
        let n_args = args.len();
        if let Some(def) = self.functions.get(&key).cloned() {
            return self.call_user_function(&def, args, node);
        }
        if let Some(r) = self.call_builtin(&key, args, lambda, node) {
            return r;
        }
        if self.closed_world && !PUPPET_FUNCTIONS.contains(&key.as_str()) {
            return Err(self.error(node, format!("Unknown function: '{}'", name)));
        }
        Ok(Value::Unknown(self.return_type_of(&key, n_args)))
    }

    fn call_user_function(
        &mut self,
        def: &ast::FunctionDef,
        args: Vec<Value>,
        node: &SyntaxNode,
    ) -> Result<Value, Flow> {
        let fname = def.name().unwrap_or_default();
        let params = param_specs(def.params());
        let saved = self.scopes.push(false);
        let r = (|| {
            self.bind_params(&fname, &params, args, node)?;
            let v = match self.eval_block(def.body()) {
                Ok(v) | Err(Flow::Return(v)) | Err(Flow::Next(v)) => v,
                Err(e) => return Err(e),
            };
            if let Some(rt) = def.return_type().and_then(|r| r.type_expr()) {
                self.check_return(&rt, &v, node)?;
            }
            Ok(v)
        })();
        self.scopes.pop(saved);
        r
    }

    fn check_return(&mut self, rt: &Expr, v: &Value, node: &SyntaxNode) -> Result<(), Flow> {
        if let Value::Type(t) = self.eval(rt)? {
            let ts = self.ts();
            let ok = ts.instance_of(&t, v);
            drop(ts);
            if ok == Some(false) {
                return Err(self.error(
                    node,
                    format!(
                        "value returned from function expects a value of type {}, got {}",
                        t,
                        infer_set(v)
                    ),
                ));
            }
        }
        Ok(())
    }

    fn bind_params(
        &mut self,
        fname: &str,
        params: &[ParamSpec],
        args: Vec<Value>,
        node: &SyntaxNode,
    ) -> Result<(), Flow> {
        let has_rest = params.last().is_some_and(|p| p.rest);
        let fixed = if has_rest {
            params.len() - 1
        } else {
            params.len()
        };
        if args.len() > fixed && !has_rest {
            return Err(self.error(
                node,
                format!(
                    "'{}' expects {} argument{}, got {}",
                    fname,
                    fixed,
                    if fixed == 1 { "" } else { "s" },
                    args.len()
                ),
            ));
        }
        let mut args = args.into_iter();
        for p in params {
            let value = if p.rest {
                let mut rest: Vec<Value> = args.by_ref().collect();
                if rest.is_empty() {
                    if let Some(d) = &p.default {
                        match self.eval(d)? {
                            Value::Array(a) => rest = a,
                            v => rest.push(v),
                        }
                    }
                }
                if let Some(te) = &p.type_expr {
                    // `Array[T, min, max] *$r` types each rest argument as T
                    // and bounds their count
                    let t = match self.eval(te)? {
                        Value::Type(t) => t,
                        _ => continue,
                    };
                    let (elem, size) = match t {
                        Type::Array(e, size) => (*e, size),
                        other => (other, None),
                    };
                    if let Some(r) = size {
                        let n = rest.len() as i128;
                        if n < r.lo() || n > r.hi() {
                            return Err(self.error(
                                node,
                                format!(
                                    "'{}' expects between {} and {} arguments for parameter '{}', got {}",
                                    fname,
                                    r.lo(),
                                    r.hi(),
                                    p.name,
                                    rest.len()
                                ),
                            ));
                        }
                    }
                    for v in &rest {
                        self.check_param_type(fname, &p.name, &elem, v, node)?;
                    }
                }
                self.scopes.set(&p.name, Value::Array(rest));
                continue;
            } else if let Some(v) = args.next() {
                v
            } else if let Some(d) = &p.default {
                self.eval(d)?
            } else {
                return Err(self.error(
                    node,
                    format!("'{}' expects a value for parameter '{}'", fname, p.name),
                ));
            };
            if let Some(te) = &p.type_expr {
                self.check_param(fname, &p.name, te, &value, node)?;
            }
            self.scopes.set(&p.name, value);
        }
        Ok(())
    }

    fn check_param(
        &mut self,
        fname: &str,
        pname: &str,
        te: &Expr,
        v: &Value,
        node: &SyntaxNode,
    ) -> Result<(), Flow> {
        let Value::Type(t) = self.eval(te)? else {
            return Ok(());
        };
        self.check_param_type(fname, pname, &t, v, node)
    }

    fn check_param_type(
        &mut self,
        fname: &str,
        pname: &str,
        t: &Type,
        v: &Value,
        node: &SyntaxNode,
    ) -> Result<(), Flow> {
        let ts = self.ts();
        let ok = ts.instance_of(t, v);
        drop(ts);
        if ok == Some(false) {
            return Err(self.error(
                node,
                format!(
                    "'{}' parameter '{}' expects a value of type {}, got {}",
                    fname,
                    pname,
                    t,
                    infer_set(v)
                ),
            ));
        }
        Ok(())
    }

    /// Calls a lambda with positional arguments in a scope that sees the
    /// enclosing one; `next(v)` ends the body with `v`.
    pub(crate) fn call_lambda(
        &mut self,
        l: &ast::Lambda,
        args: Vec<Value>,
        node: &SyntaxNode,
    ) -> Result<Value, Flow> {
        self.step()?;
        self.enter()?;
        let params = param_specs(l.params());
        let saved = self.scopes.push(true);
        let r = (|| {
            self.bind_params("lambda", &params, args, node)?;
            let v = match self.eval_block(l.body()) {
                Ok(v) | Err(Flow::Next(v)) => v,
                Err(e) => return Err(e),
            };
            if let Some(rt) = l.return_type().and_then(|r| r.type_expr()) {
                self.check_return(&rt, &v, node)?;
            }
            Ok(v)
        })();
        self.scopes.pop(saved);
        self.leave();
        r
    }
}

/// The functions Puppet 7 itself provides; with no modules (see
/// [`Evaluator::set_closed_world`]) any other name is an unknown function.
const PUPPET_FUNCTIONS: &[&str] = &[
    "abs",
    "alert",
    "all",
    "annotate",
    "any",
    "assert_type",
    "binary_file",
    "break",
    "call",
    "camelcase",
    "capitalize",
    "ceiling",
    "chomp",
    "chop",
    "compare",
    "contain",
    "convert_to",
    "create_resources",
    "crit",
    "debug",
    "defined",
    "dig",
    "digest",
    "downcase",
    "each",
    "emerg",
    "empty",
    "epp",
    "err",
    "eyaml_lookup_key",
    "fail",
    "file",
    "filter",
    "find_file",
    "find_template",
    "flatten",
    "floor",
    "fqdn_rand",
    "generate",
    "get",
    "getvar",
    "group_by",
    "hiera",
    "hiera_array",
    "hiera_hash",
    "hiera_include",
    "hocon_data",
    "import",
    "include",
    "index",
    "info",
    "inline_epp",
    "inline_template",
    "join",
    "json_data",
    "keys",
    "length",
    "lest",
    "lookup",
    "lstrip",
    "map",
    "match",
    "max",
    "md5",
    "min",
    "module_directory",
    "new",
    "next",
    "notice",
    "partition",
    "realize",
    "reduce",
    "regsubst",
    "require",
    "return",
    "reverse_each",
    "round",
    "rstrip",
    "scanf",
    "sha1",
    "sha256",
    "shellquote",
    "size",
    "slice",
    "sort",
    "split",
    "sprintf",
    "step",
    "strftime",
    "strip",
    "tag",
    "tagged",
    "template",
    "then",
    "tree_each",
    "type",
    "unique",
    "unwrap",
    "upcase",
    "values",
    "versioncmp",
    "warning",
    "with",
    "yaml_data",
];
