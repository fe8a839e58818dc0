//! Constant arguments of a call against the function's overloads (its
//! signatures or `dispatch` blocks): Puppet fails a call when no overload
//! taking that many arguments accepts every argument's type.

use super::types::constant_value;
use super::workspace_types::WorkspaceTypes;
use super::Diagnostic;
use crate::builtins::{ParamKind, Signature};
use crate::model::{Type, Value};
use crate::ruby_plugins::RubyDispatch;
use crate::target::Target;
use crate::types::{NoAliases, TypeSystem};
use crate::values::format::to_programmatic;
use puppet_syntax::ast::{AstNode, Expr};
use puppet_syntax::Code;
use std::borrow::Cow;

/// A parameter as the argument check reads it.
struct ParamType<'t> {
    ty: Cow<'t, Type>,
    /// The type as Puppet prints it, when known (built-in signatures);
    /// otherwise described from `ty`.
    written: Option<&'t str>,
}

/// One way a function may be called: its parameters (the last one
/// repeated when `max` is unbounded) and how many arguments it takes.
pub(super) struct Overload<'t> {
    params: Vec<ParamType<'t>>,
    min: usize,
    max: Option<usize>,
}

impl<'t> Overload<'t> {
    /// A dispatch of a built-in (or stdlib) function.
    pub fn builtin(signature: &'t Signature) -> Self {
        Overload {
            params: signature
                .params
                .iter()
                .map(|p| ParamType {
                    ty: Cow::Borrowed(p.ty()),
                    written: Some(&p.type_text),
                })
                .collect(),
            min: signature.min_args,
            max: signature.max_args,
        }
    }

    /// A Puppet-language function of the workspace. An untyped or
    /// unresolvable parameter takes anything; a typed `*$rest` types each
    /// argument it takes (`Array[T] *$rest` is `T` per argument, as Puppet
    /// unpacks it).
    pub fn puppet(signature: &crate::hir::Signature, types: &WorkspaceTypes) -> Self {
        let params: Vec<ParamType> = signature
            .params
            .iter()
            .map(|p| {
                let ty = p.type_text.as_deref().and_then(|t| types.resolve(t));
                let ty = match ty {
                    Some(Type::Array(element, _)) if p.captures_rest => *element,
                    other => other.unwrap_or(Type::Any),
                };
                ParamType {
                    ty: Cow::Owned(ty),
                    written: None,
                }
            })
            .collect();
        let rest = signature.params.iter().any(|p| p.captures_rest);
        Overload {
            min: signature
                .params
                .iter()
                .take_while(|p| !p.has_default && !p.captures_rest)
                .count(),
            max: (!rest).then_some(params.len()),
            params,
        }
    }

    /// A `dispatch` block of a Ruby 4.x function of the workspace.
    pub fn ruby(dispatch: &RubyDispatch, types: &WorkspaceTypes) -> Self {
        let params: Vec<ParamType> = dispatch
            .params
            .iter()
            .map(|p| ParamType {
                ty: Cow::Owned(types.resolve(&p.type_text).unwrap_or(Type::Any)),
                written: None,
            })
            .collect();
        let kinds = || dispatch.params.iter().map(|p| p.kind);
        Overload {
            min: kinds().filter(|&k| k == ParamKind::Required).count(),
            max: (!kinds().any(|k| k == ParamKind::Repeated)).then_some(params.len()),
            params,
        }
    }

    fn accepts_arg_count(&self, n: usize) -> bool {
        n >= self.min && self.max.is_none_or(|m| n <= m)
    }
}

/// Constant arguments must fit some overload that takes that many
/// arguments; reported at the first argument no such overload accepts.
/// `types` resolves workspace types; built-in signatures need none.
pub(super) fn check_argument_types(
    name: &str,
    overloads: &[Overload],
    args: &[Expr],
    types: Option<&WorkspaceTypes>,
    target: Target,
    out: &mut Vec<Diagnostic>,
) {
    let values: Vec<Option<Value>> = args.iter().map(|a| constant_value(a, target)).collect();
    if values.iter().all(Option::is_none) {
        return;
    }
    let builtin = TypeSystem::new(&NoAliases);
    let rejects = |t: &Type, value: &Value| match types {
        Some(types) => types.rejects(t, value),
        None => builtin.instance_of(t, value) == Some(false),
    };
    // The first argument position every applicable overload rejects.
    let mut first_bad: Option<(usize, &ParamType)> = None;
    for overload in overloads.iter().filter(|o| o.accepts_arg_count(args.len())) {
        let rejected = values.iter().enumerate().find_map(|(i, value)| {
            let value = value.as_ref()?;
            let param = overload.params.get(i).or_else(|| overload.params.last())?;
            rejects(&param.ty, value).then_some((i, param))
        });
        match rejected {
            None => return,
            Some((i, param)) => {
                if first_bad.as_ref().is_none_or(|(j, _)| i > *j) {
                    first_bad = Some((i, param));
                }
            }
        }
    }
    if let Some((i, param)) = first_bad {
        let (Some(arg), Some(Some(value))) = (args.get(i), values.get(i)) else {
            return;
        };
        let expected = match (param.written, types) {
            (Some(written), _) => written.to_string(),
            (None, Some(types)) => types.describe(&param.ty),
            (None, None) => param.ty.to_string(),
        };
        out.push(Diagnostic::error(
            arg.syntax().text_range(),
            Code::WrongArgumentType,
            format!(
                "function '{name}' expects {expected} for argument {}, got {}",
                i + 1,
                to_programmatic(value)
            ),
        ));
    }
}
