//! Function calls checked against what exists: Puppet's built-in functions,
//! stdlib's (when stdlib is in the workspace), Puppet-language functions of
//! the workspace and Ruby functions of its modules; and argument counts
//! and constant arguments' types against the signatures where they are
//! known (built-in ones, workspace functions' with the workspace's type
//! aliases, Ruby functions' `dispatch` blocks).

use super::arguments::{check_argument_types, Overload};
use super::workspace_types::WorkspaceTypes;
use super::Diagnostic;
use crate::builtins::{bolt_functions, in_plan_code, suggest};
use crate::db::workspace_builtins;
use crate::db::Workspace;
use crate::hir::body::SegmentRange;
use crate::hir::{BodySourceMap, DefKind};
use crate::index::{lookup, Namespace};
use crate::infer::ItemTypes;
use crate::model::Type;
use crate::ruby_plugins::{plugin_index, unambiguous_ruby_dispatches};
use crate::workspace::Layout;
use puppet_syntax::ast::{self, AstNode, Expr, UnaryOp};
use puppet_syntax::Code;
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
    /// The workspace's types, for workspace functions' signatures.
    pub workspace_types: &'a WorkspaceTypes<'a>,
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
            self.check_call(&call, node, out);
        }
    }

    fn stdlib(&self) -> bool {
        self.layout.module("stdlib").is_some()
    }

    fn check_call(&self, call: &Call, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
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
        if let Some(function) = workspace_builtins(self.db, self.workspace)
            .resolve_function(&name, self.stdlib() && !defined_here)
        {
            if !splat && !function.accepts_arg_count(argc) {
                out.push(Diagnostic::error(
                    call.range,
                    Code::WrongArgumentCount,
                    format!(
                        "function '{name}' does not accept {argc} argument{}",
                        plural(argc)
                    ),
                ));
            } else if !splat && call.receiver.is_none() {
                let overloads: Vec<Overload> =
                    function.signatures.iter().map(Overload::builtin).collect();
                check_argument_types(
                    &name,
                    &overloads,
                    &call.args,
                    None,
                    self.workspace_types.target(),
                    out,
                );
            }
            return;
        }
        let definitions = lookup(self.db, self.workspace, Namespace::Function, &name);
        if let Some(def) = definitions.first() {
            let params = &def.definition.params;
            let required = params.iter().take_while(|p| !p.has_default).count();
            let rest = params.iter().any(|p| p.captures_rest);
            if !splat && !rest && (argc < required.min(params.len()) || argc > params.len()) {
                out.push(Diagnostic::error(
                    call.range,
                    Code::WrongArgumentCount,
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
            } else if !splat
                && call.receiver.is_none()
                && definitions.len() == 1
                && !plugins.functions.contains(&name)
                && def.definition.kind == DefKind::Function
            {
                let overload = Overload::puppet(&def.definition, self.workspace_types);
                let types = Some(self.workspace_types);
                check_argument_types(
                    &name,
                    &[overload],
                    &call.args,
                    types,
                    self.workspace_types.target(),
                    out,
                );
            }
            return;
        }
        if plugins.functions.contains(&name) {
            if !splat && call.receiver.is_none() {
                self.check_ruby_arguments(&name, &call.args, out);
            }
            return;
        }
        // Bolt's functions exist in a plan's own code.
        if bolt_functions().module_of(&name).is_some() && in_plan_code(node) {
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
        let core = workspace_builtins(self.db, self.workspace).suggest_function(&name, false);
        let stdlib = self.stdlib();
        let workspace = workspace_builtins(self.db, self.workspace)
            .suggest_function(&name, stdlib)
            .into_iter()
            .filter(|f| !core.contains(f))
            .chain(suggest::suggest(
                &name,
                plugins.functions.iter().map(String::as_str),
                2,
            ))
            .collect::<Vec<_>>();
        let best = super::Suggestion::best(&core, &workspace);
        super::report_unknown(
            self.layout,
            call.range,
            Code::UnknownFunction,
            "function",
            &name,
            best,
            Some(if bolt_functions().is_plan_only(&name) {
                "a function of Bolt's plans, which catalog code cannot call"
            } else {
                "not built in, and no module in the workspace defines it"
            }),
            out,
        );
    }

    /// A Ruby 4.x function's arguments against its `dispatch` blocks.
    fn check_ruby_arguments(&self, name: &str, args: &[Expr], out: &mut Vec<Diagnostic>) {
        let Some(dispatches) = unambiguous_ruby_dispatches(self.db, self.workspace).get(name)
        else {
            return;
        };
        let overloads: Vec<Overload> = dispatches
            .iter()
            .map(|d| Overload::ruby(d, self.workspace_types))
            .collect();
        check_argument_types(
            name,
            &overloads,
            args,
            Some(self.workspace_types),
            self.workspace_types.target(),
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

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
