//! Function calls checked against what exists: Puppet's built-in functions,
//! stdlib's (when stdlib is in the workspace), Puppet-language functions of
//! the workspace and Ruby functions of its modules; and argument counts
//! against the signatures where they are known.

use super::Diagnostic;
use crate::builtins::{builtins, suggest};
use crate::db::Workspace;
use crate::hir::body::SegmentRange;
use crate::hir::BodySourceMap;
use crate::index::{lookup, Namespace};
use crate::infer::ItemTypes;
use crate::ruby_plugins::plugin_index;
use crate::types::{NoAliases, Type, TypeSystem};
use crate::values::format::to_programmatic;
use crate::values::Value;
use crate::workspace::Layout;
use puppet_syntax::ast::{self, AstNode, Expr, UnaryOp};
use puppet_syntax::{SyntaxKind, SyntaxNode, TextRange};

pub(super) struct CallChecks<'a> {
    pub db: &'a dyn salsa::Database,
    pub workspace: Workspace,
    pub layout: &'a Layout,
    /// The item's inference, and where its expressions are.
    pub types: &'a ItemTypes,
    pub source_map: &'a BodySourceMap,
    /// The segment of the item whose tree is being checked.
    pub segment: u32,
}

/// A call: the function's name and range, its arguments, and for a method
/// call its receiver (which counts as one more argument).
struct Call {
    name: String,
    range: TextRange,
    args: Vec<Expr>,
    receiver: Option<Expr>,
}

impl CallChecks<'_> {
    pub fn check(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let call = match node.kind() {
            SyntaxKind::CALL_EXPR => ast::CallExpr::cast(node.clone()).and_then(|c| {
                let callee = c.callee()?;
                Some(Call {
                    name: c.function_name()?,
                    range: callee.syntax().text_range(),
                    args: c.args(),
                    receiver: None,
                })
            }),
            SyntaxKind::STATEMENT_CALL => ast::StatementCall::cast(node.clone()).and_then(|c| {
                Some(Call {
                    name: c.name()?,
                    range: c.name_expr()?.syntax().text_range(),
                    args: c.args().collect(),
                    receiver: None,
                })
            }),
            SyntaxKind::METHOD_CALL_EXPR => ast::MethodCallExpr::cast(node.clone()).and_then(|c| {
                let token = c.name_token()?;
                Some(Call {
                    name: c.name()?,
                    range: token.text_range(),
                    args: c.args(),
                    receiver: c.receiver(),
                })
            }),
            _ => None,
        };
        if let Some(call) = call {
            self.check_call(&call, out);
        }
    }

    fn stdlib(&self) -> bool {
        self.layout.module("stdlib").is_some()
    }

    fn check_call(&self, call: &Call, out: &mut Vec<Diagnostic>) {
        let name = call.name.trim_start_matches("::").to_lowercase();
        let argc = call.args.len() + usize::from(call.receiver.is_some());
        let splat = call
            .args
            .iter()
            .any(|a| matches!(a, Expr::UnaryExpr(u) if u.op() == Some(UnaryOp::Splat)));
        // The recorded stdlib signatures are stdlib 8.5's: a stdlib (or any
        // module) of the workspace that defines the function itself wins.
        let plugins = plugin_index(self.db, self.workspace);
        let defined_here = plugins.functions.contains(&name)
            || !lookup(self.db, self.workspace, Namespace::Function, &name).is_empty();
        if let Some(function) = builtins().resolve_function(&name, self.stdlib() && !defined_here) {
            if !splat && !function.accepts_arg_count(argc) {
                out.push(Diagnostic::error(
                    call.range,
                    "wrong-argument-count",
                    format!(
                        "function '{name}' does not accept {argc} argument{}",
                        plural(argc)
                    ),
                ));
            } else if !splat && call.receiver.is_none() {
                check_argument_types(&name, function, &call.args, out);
            }
            return;
        }
        if let Some(def) = lookup(self.db, self.workspace, Namespace::Function, &name).first() {
            let params = &def.definition.params;
            let required = params.iter().take_while(|p| !p.has_default).count();
            let rest = params.iter().any(|p| p.captures_rest);
            if !splat && !rest && (argc < required.min(params.len()) || argc > params.len()) {
                out.push(Diagnostic::error(
                    call.range,
                    "wrong-argument-count",
                    format!(
                        "function '{name}' expects {} argument{}, got {argc}",
                        if required == params.len() {
                            params.len().to_string()
                        } else {
                            format!("{required} to {}", params.len())
                        },
                        plural(params.len())
                    ),
                ));
            }
            return;
        }
        if plugins.functions.contains(&name) {
            return;
        }
        // `$x.name` reads attribute `name` when `$x` is an Object (Bolt's
        // `$result.value`): only a function call if it cannot be one.
        if let Some(receiver) = &call.receiver {
            let receiver_type = self
                .source_map
                .expr_at_range(SegmentRange::new(
                    self.segment,
                    receiver.syntax().text_range(),
                ))
                .and_then(|id| self.types.get(id));
            if receiver_type.is_none_or(|r| may_have_attributes(&r.ty)) {
                return;
            }
        }
        let core = builtins().suggest_function(&name, false);
        let stdlib = self.stdlib();
        let workspace = builtins()
            .suggest_function(&name, stdlib)
            .into_iter()
            .filter(|f| !core.contains(f))
            .chain(suggest::suggest(
                &name,
                plugins.functions.iter().map(String::as_str),
                2,
            ))
            .collect::<Vec<_>>();
        let best = core
            .first()
            .map(|name| super::Suggestion { name, core: true })
            .or_else(|| {
                workspace
                    .first()
                    .map(|name| super::Suggestion { name, core: false })
            });
        super::report_unknown(
            self.layout,
            call.range,
            "unknown-function",
            "function",
            &name,
            best,
            Some("not built in, and no module in the workspace defines it"),
            out,
        );
    }
}

/// Whether values of a type may be Objects (or types), whose attributes
/// are read with the method-call syntax.
fn may_have_attributes(ty: &Type) -> bool {
    match ty {
        Type::Any
        | Type::Object(_)
        | Type::Type(_)
        | Type::Runtime(..)
        | Type::Alias(_)
        | Type::TypeReference(_)
        | Type::RichData
        | Type::Init(..)
        | Type::Uri(_) => true,
        Type::Variant(types) => types.iter().any(may_have_attributes),
        Type::Optional(inner) | Type::NotUndef(inner) => {
            inner.as_deref().is_none_or(may_have_attributes)
        }
        _ => false,
    }
}

/// Constant arguments must fit some signature that takes that many
/// arguments; reported at the first argument no such signature accepts.
fn check_argument_types(
    name: &str,
    function: &crate::builtins::Function,
    args: &[Expr],
    out: &mut Vec<Diagnostic>,
) {
    use super::types::{evaluate, is_constant};
    let values: Vec<Option<Value>> = args
        .iter()
        .map(
            |a| match is_constant(a.syntax()).then(|| evaluate(a)).flatten() {
                Some(Ok(v)) => Some(v),
                _ => None,
            },
        )
        .collect();
    if values.iter().all(Option::is_none) {
        return;
    }
    let types = TypeSystem::new(&NoAliases);
    // The first argument position every applicable signature rejects.
    let mut first_bad: Option<(usize, String)> = None;
    for signature in function
        .signatures
        .iter()
        .filter(|s| s.accepts_arg_count(args.len()))
    {
        let rejected = values.iter().enumerate().find_map(|(i, value)| {
            let value = value.as_ref()?;
            let param = signature
                .params
                .get(i)
                .or_else(|| signature.params.last())?;
            (types.instance_of(param.ty(), value) == Some(false))
                .then(|| (i, param.type_text.clone()))
        });
        match rejected {
            None => return,
            Some((i, t)) => {
                if first_bad.as_ref().is_none_or(|(j, _)| i > *j) {
                    first_bad = Some((i, t));
                }
            }
        }
    }
    if let Some((i, expected)) = first_bad {
        let (Some(arg), Some(Some(value))) = (args.get(i), values.get(i)) else {
            return;
        };
        out.push(Diagnostic::error(
            arg.syntax().text_range(),
            "wrong-argument-type",
            format!(
                "function '{name}' expects {expected} for argument {}, got {}",
                i + 1,
                to_programmatic(value)
            ),
        ));
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
