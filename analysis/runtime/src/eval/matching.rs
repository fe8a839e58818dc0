//! Case and selector matching: an option matches its subject by regexp,
//! type, version range, element-wise for arrays and key-wise for hashes
//! (`default` matching anything inside them), else by Puppet's `==`.

use puppet_syntax::ast::UnaryOp;

use crate::hir::body::{CaseOption, Expr, ExprId};

use super::{Evaluator, Flow};
use crate::model::{Type, Value};
use crate::ops::{equals, matching::range_includes};

/// The result of matching: known, or not decidable statically.
enum M {
    Yes,
    No,
    Unknown,
}

impl Evaluator {
    /// Evaluates option values, unfolding `*array` splats.
    fn option_values(&mut self, values: &[ExprId]) -> Result<Vec<Value>, Flow> {
        let mut out = Vec::new();
        let body = self.body.clone();
        for &v in values {
            if let Expr::Unary {
                op: UnaryOp::Splat,
                operand,
            } = &body[v]
            {
                match self.eval(*operand)? {
                    Value::Array(a) => out.extend(a),
                    other => out.push(other),
                }
                continue;
            }
            out.push(self.eval(v)?);
        }
        Ok(out)
    }

    fn case_match(&mut self, subject: &Value, matcher: &Value, at: ExprId) -> Result<M, Flow> {
        if subject.is_unknown() || matcher.is_unknown() {
            return Ok(M::Unknown);
        }
        Ok(match matcher {
            Value::Default => M::Yes,
            Value::Regexp(re) => match subject {
                Value::String(s) => match re.captures(s) {
                    Ok(Some(groups)) => {
                        self.scopes.set_matches(groups);
                        M::Yes
                    }
                    Ok(None) => M::No,
                    Err(crate::regexp::RegexError::Unsupported(m)) => {
                        return Err(Flow::Unsupported(m))
                    }
                    Err(crate::regexp::RegexError::Invalid(m)) => return Err(self.error(at, m)),
                },
                _ => M::No,
            },
            Value::Type(t) => {
                let ts = self.ts();
                let r = ts.instance(t, subject);
                drop(ts);
                if let Type::Alias(_) = t {
                    self.check_alias(t, at)?;
                }
                if r {
                    M::Yes
                } else {
                    M::No
                }
            }
            Value::SemVerRange(r) => {
                if range_includes(r, subject) {
                    M::Yes
                } else {
                    M::No
                }
            }
            Value::Array(ms) => match subject {
                Value::Array(ss) if ss.len() == ms.len() => {
                    for (s, m) in ss.iter().zip(ms) {
                        match self.case_match(s, m, at)? {
                            M::Yes => {}
                            other => return Ok(other),
                        }
                    }
                    M::Yes
                }
                _ => M::No,
            },
            Value::Hash(mh) => match subject {
                Value::Hash(sh) => {
                    // a key the subject lacks matches as undef
                    for (k, m) in mh.iter() {
                        let s = sh.get(k).unwrap_or(&Value::Undef);
                        match self.case_match(s, m, at)? {
                            M::Yes => {}
                            other => return Ok(other),
                        }
                    }
                    M::Yes
                }
                _ => M::No,
            },
            _ => {
                if equals(subject, matcher) {
                    M::Yes
                } else {
                    M::No
                }
            }
        })
    }

    pub fn check_alias(&self, _t: &Type, _at: ExprId) -> Result<(), Flow> {
        Ok(())
    }

    pub fn case(&mut self, subject: ExprId, options: &[CaseOption]) -> Result<Value, Flow> {
        self.scopes.push_ephemeral();
        let r = self.case_inner(subject, options);
        self.scopes.pop_ephemeral();
        r
    }

    fn case_inner(&mut self, subject: ExprId, options: &[CaseOption]) -> Result<Value, Flow> {
        let subject = self.eval(subject)?;
        let mut default_body = None;
        for option in options {
            let values = self.option_values(&option.values)?;
            let site = option.values.first().copied().unwrap_or_default();
            for v in &values {
                if let Value::Default = v {
                    default_body.get_or_insert(&option.body);
                    continue;
                }
                match self.case_match(&subject, v, site)? {
                    M::Yes => return self.eval_statements(&option.body),
                    M::No => {}
                    M::Unknown => return Ok(Value::Unknown(Type::Any)),
                }
            }
        }
        match default_body {
            Some(b) => self.eval_statements(b),
            None => Ok(Value::Undef),
        }
    }

    pub fn selector(
        &mut self,
        subject: ExprId,
        entries: &[(ExprId, ExprId)],
        at: ExprId,
    ) -> Result<Value, Flow> {
        self.scopes.push_ephemeral();
        let r = self.selector_inner(subject, entries, at);
        self.scopes.pop_ephemeral();
        r
    }

    fn selector_inner(
        &mut self,
        subject: ExprId,
        entries: &[(ExprId, ExprId)],
        at: ExprId,
    ) -> Result<Value, Flow> {
        let subject = self.eval(subject)?;
        let mut default_value = None;
        for &(matcher, value) in entries {
            let values = self.option_values(&[matcher])?;
            for v in &values {
                if let Value::Default = v {
                    default_value.get_or_insert(value);
                    continue;
                }
                match self.case_match(&subject, v, matcher)? {
                    M::Yes => return self.eval(value),
                    M::No => {}
                    M::Unknown => return Ok(Value::Unknown(Type::Any)),
                }
            }
        }
        match default_value {
            Some(v) => self.eval(v),
            None => Err(self.error(
                at,
                format!(
                    "No matching entry for selector parameter with value '{}'",
                    crate::values::format::to_interpolated(&subject)
                ),
            )),
        }
    }
}
