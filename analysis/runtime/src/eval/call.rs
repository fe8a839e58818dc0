//! Function calls: dispatch to Puppet-language functions defined in the
//! source, the pure built-ins, or calls to types (`Integer('1')`); lambdas
//! and parameter binding with type checks.

use std::sync::Arc;

use super::{Evaluator, Flow};
use crate::hir::body::{Body, ExprId, LambdaId, Param};
use crate::model::{Type, Value};
use crate::types::infer_set;

impl Evaluator {
    /// `callee(args)` where the callee is not a name (`Integer('1')`).
    pub fn eval_call_value(
        &mut self,
        callee: ExprId,
        args: &[ExprId],
        lambda: Option<LambdaId>,
        at: ExprId,
    ) -> Result<Value, Flow> {
        let args = self.eval_list(args)?;
        match self.eval(callee)? {
            Value::Type(t) => self.new_instance(&t, args, lambda, at),
            Value::Unknown(_) => Ok(Value::Unknown(Type::Any)),
            v => Err(self.error(at, format!("{} is not callable", v.a_label()))),
        }
    }

    /// Calls a function by name: a function defined in the source, else a
    /// pure built-in, else an unknown value (the function is not knowable).
    pub fn call_function(
        &mut self,
        name: &str,
        args: Vec<Value>,
        lambda: Option<LambdaId>,
        at: ExprId,
    ) -> Result<Value, Flow> {
        let key = name.trim_start_matches("::").to_ascii_lowercase();
        let n_args = args.len();
        if let Some(def) = self.functions.get(&key).cloned() {
            return self.call_user_function(&key, &def, args, at);
        }
        if let Some(r) = self.call_builtin(&key, args, lambda, at) {
            return r;
        }
        if self.closed_world && !PUPPET_FUNCTIONS.contains(&key.as_str()) {
            return Err(self.error(at, format!("Unknown function: '{}'", name)));
        }
        Ok(Value::Unknown(self.return_type_of(&key, n_args)))
    }

    /// Runs a Puppet-language function's body in a fresh local scope (it
    /// sees only the top scope). Errors inside it are placed at the call.
    fn call_user_function(
        &mut self,
        fname: &str,
        def: &Arc<Body>,
        args: Vec<Value>,
        at: ExprId,
    ) -> Result<Value, Flow> {
        let caller = std::mem::replace(&mut self.body, def.clone());
        let saved = self.scopes.push(false);
        let r = (|| {
            self.bind_params(Callee::Function(fname), &def.params, args, at)?;
            let v = match self.eval_statements(&def.body) {
                Ok(v) | Err(Flow::Return(v)) | Err(Flow::Next(v)) => v,
                Err(e) => return Err(e),
            };
            if let Some(rt) = def.return_type {
                self.check_return(rt, &v)?;
            }
            Ok(v)
        })();
        self.scopes.pop(saved);
        self.body = caller;
        r.map_err(|flow| match flow {
            Flow::Error(mut e) => {
                e.at = Some(at);
                Flow::Error(e)
            }
            other => other,
        })
    }

    /// A declared return type (of the current body) must accept the value.
    fn check_return(&mut self, rt: ExprId, v: &Value) -> Result<(), Flow> {
        if let Value::Type(t) = self.eval(rt)? {
            let ts = self.ts();
            let ok = ts.instance_of(&t, v);
            drop(ts);
            if ok == Some(false) {
                return Err(self.error(
                    rt,
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

    /// Binds arguments to parameters (of the current body), checking
    /// counts and declared types. A lambda ignores extra arguments, as
    /// Puppet's closures do.
    fn bind_params(
        &mut self,
        callee: Callee,
        params: &[Param],
        args: Vec<Value>,
        at: ExprId,
    ) -> Result<(), Flow> {
        let fname = match callee {
            Callee::Function(name) => name,
            Callee::Lambda => "lambda",
        };
        let has_rest = params.last().is_some_and(|p| p.rest);
        let fixed = if has_rest {
            params.len() - 1
        } else {
            params.len()
        };
        if args.len() > fixed && !has_rest && matches!(callee, Callee::Function(_)) {
            return Err(self.error(
                at,
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
                    if let Some(d) = p.default {
                        match self.eval(d)? {
                            Value::Array(a) => rest = a,
                            v => rest.push(v),
                        }
                    }
                }
                if let Some(te) = p.ty {
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
                                at,
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
                        self.check_param_type(fname, &p.name, &elem, v, at)?;
                    }
                }
                self.scopes.set(&p.name, Value::Array(rest));
                continue;
            } else if let Some(v) = args.next() {
                v
            } else if let Some(d) = p.default {
                self.eval(d)?
            } else {
                return Err(self.error(
                    at,
                    match callee {
                        Callee::Function(_) => {
                            format!("'{}' expects a value for parameter '{}'", fname, p.name)
                        }
                        Callee::Lambda => {
                            format!("Parameter ${} is required but no value was given", p.name)
                        }
                    },
                ));
            };
            if let Some(te) = p.ty {
                if let Value::Type(t) = self.eval(te)? {
                    self.check_param_type(fname, &p.name, &t, &value, at)?;
                }
            }
            self.scopes.set(&p.name, value);
        }
        Ok(())
    }

    fn check_param_type(
        &mut self,
        fname: &str,
        pname: &str,
        t: &Type,
        v: &Value,
        at: ExprId,
    ) -> Result<(), Flow> {
        let ts = self.ts();
        let ok = ts.instance_of(t, v);
        drop(ts);
        if ok == Some(false) {
            return Err(self.error(
                at,
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

    /// Calls a lambda of the current body with positional arguments in a
    /// scope that sees the enclosing one; `next(v)` ends the body with `v`.
    /// Errors are placed at the call `at`.
    pub fn call_lambda(
        &mut self,
        l: LambdaId,
        args: Vec<Value>,
        at: ExprId,
    ) -> Result<Value, Flow> {
        self.step()?;
        self.enter()?;
        let body = self.body.clone();
        let lambda = &body[l];
        let saved = self.scopes.push(true);
        let r = (|| {
            self.bind_params(Callee::Lambda, &lambda.params, args, at)?;
            let v = match self.eval_statements(&lambda.body) {
                Ok(v) | Err(Flow::Next(v)) => v,
                Err(e) => return Err(e),
            };
            if let Some(rt) = lambda.return_type {
                self.check_return(rt, &v).map_err(|f| relocate(f, at))?;
            }
            Ok(v)
        })();
        self.scopes.pop(saved);
        self.leave();
        r
    }
}

/// What parameters are bound for.
#[derive(Clone, Copy)]
enum Callee<'a> {
    /// A Puppet-language function of this name.
    Function(&'a str),
    /// A lambda.
    Lambda,
}

/// An error placed at `at` instead.
fn relocate(flow: Flow, at: ExprId) -> Flow {
    match flow {
        Flow::Error(mut e) => {
            e.at = Some(at);
            Flow::Error(e)
        }
        other => other,
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
