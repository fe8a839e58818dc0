//! Function calls checked against what exists: Puppet's built-in functions,
//! stdlib's (as [`crate::stdlib`] decides: the workspace's sources, else
//! the bundled table of the target's version), Puppet-language functions of
//! the workspace and Ruby functions of its modules; argument counts and
//! constant arguments' types against the signatures where they are known
//! (built-in ones, workspace functions' with the workspace's type aliases,
//! Ruby functions' `dispatch` blocks); and calls of Ruby functions that
//! call stdlib's `deprecation()`, which fail under `strict = error`.

use super::arguments::{check_argument_types, Overload};
use super::workspace_types::WorkspaceTypes;
use super::Diagnostic;
use crate::builtins::{bolt_functions, in_plan_code, stdlib9_removal, suggest};
use crate::db::workspace_builtins;
use crate::db::Workspace;
use crate::hir::body::SegmentRange;
use crate::hir::{BodySourceMap, DefKind};
use crate::index::{lookup, Namespace};
use crate::infer::ItemTypes;
use crate::model::Type;
use crate::ruby_plugins::{
    plugin_index, ruby_function_deprecations, unambiguous_ruby_dispatches, RubyDeprecation,
};
use crate::stdlib::{workspace_stdlib, StdlibSource};
use crate::target::{PuppetVersion, Strict};
use crate::workspace::Layout;
use puppet_syntax::ast::{self, AstNode, Expr, LiteralValue, UnaryOp};
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

    fn check_call(&self, call: &Call, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let name = call.name.trim_start_matches("::").to_lowercase();
        let argc = call.args.len() + usize::from(call.receiver.is_some());
        let splat = call
            .args
            .iter()
            .any(|a| matches!(a, Expr::UnaryExpr(u) if u.op() == Some(UnaryOp::Splat)));
        // A module of the workspace that defines the function itself wins
        // over the bundled stdlib table (which is only used when the
        // workspace's stdlib has no sources).
        let plugins = plugin_index(self.db, self.workspace);
        let stdlib = workspace_stdlib(self.db, self.workspace);
        let defined_here = plugins.functions.contains(&name)
            || !lookup(self.db, self.workspace, Namespace::Function, &name).is_empty();
        let builtin = if defined_here {
            workspace_builtins(self.db, self.workspace).function(&name)
        } else {
            stdlib.resolve_function(&name)
        };
        if let Some(function) = builtin {
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
            self.check_deprecation(&name, call, out);
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
        let workspace = stdlib
            .suggest_function(&name)
            .into_iter()
            .filter(|f| !core.contains(f))
            .chain(suggest::suggest(
                &name,
                plugins.functions.iter().map(String::as_str),
                2,
            ))
            .collect::<Vec<_>>();
        let removal = stdlib9_removal(&name);
        // A function stdlib 9 removed is no misspelling: no suggestion.
        let best = super::Suggestion::best(&core, &workspace).filter(|_| removal.is_none());
        // stdlib's own function, and the workspace's stdlib (its sources)
        // does not define it: a reference into a module that is there, to
        // a name it lacks, fails as Puppet's "Unknown function".
        if let Some(removal) = removal.filter(|_| stdlib.source == StdlibSource::Sources) {
            let instead = removal
                .replacement
                .map(|r| format!("; use {r} instead"))
                .unwrap_or_default();
            out.push(Diagnostic::error(
                call.range,
                Code::UnknownFunction,
                format!(
                    "unknown function '{name}': the workspace's puppetlabs-stdlib does not define it (stdlib 9 removed it){instead}"
                ),
            ));
            return;
        }
        let reason = if bolt_functions().is_plan_only(&name) {
            "a function of Bolt's plans, which catalog code cannot call".to_string()
        } else if let Some(removal) = removal {
            let mut reason = match stdlib.source {
                StdlibSource::Absent => {
                    "no module in the workspace defines it, and puppetlabs-stdlib 9 removed it"
                }
                StdlibSource::Bundled | StdlibSource::Sources => "puppetlabs-stdlib 9 removed it",
            }
            .to_string();
            if let Some(replacement) = removal.replacement {
                reason.push_str(&format!("; use {replacement} instead"));
            }
            reason
        } else {
            "not built in, and no module in the workspace defines it".to_string()
        };
        super::report_unknown(
            self.layout,
            call.range,
            Code::UnknownFunction,
            "function",
            &name,
            best,
            Some(&reason),
            out,
        );
    }

    /// A call of a Ruby function that calls stdlib's `deprecation()` every
    /// time (see [`RubyDeprecation`]), and a direct call of
    /// `deprecation()`: Puppet fails under `strict = error`, warns under
    /// `warning`, says nothing under `off`; a call that opts out of
    /// `strict` (stdlib 9's forwarders: `to_json` calls `stdlib::to_json`)
    /// only warns, whatever `strict` is.
    fn check_deprecation(&self, name: &str, call: &Call, out: &mut Vec<Diagnostic>) {
        let direct;
        let deprecation = if name == "deprecation" {
            // `deprecation(key, message[, use_strict_setting])` in Puppet
            // code, stdlib's function: its arguments say the same as a Ruby
            // function's call.
            let stdlib = workspace_stdlib(self.db, self.workspace);
            if stdlib.source != StdlibSource::Sources
                || !stdlib.defines("deprecation")
                || call.receiver.is_some()
                || !(2..=3).contains(&call.args.len())
            {
                return;
            }
            let literal = |i: usize| call.args.get(i).and_then(|a| a.static_string());
            direct = RubyDeprecation {
                key: literal(0),
                message: literal(1),
                strict: match call.args.get(2) {
                    None => true,
                    Some(Expr::Literal(l)) => l.value() == Some(LiteralValue::Boolean(true)),
                    Some(_) => false,
                },
            };
            &direct
        } else {
            match ruby_function_deprecations(self.db, self.workspace).get(name) {
                Some(d) => d,
                None => return,
            }
        };
        // What the diagnostic is about: the function called, or a direct
        // call of `deprecation()`.
        let subject = match (name, &deprecation.key) {
            ("deprecation", Some(key)) => format!("deprecation('{key}')"),
            ("deprecation", None) => "deprecation()".to_string(),
            _ => format!("function '{name}' is deprecated"),
        };
        let warning = match &deprecation.message {
            Some(message) => format!("{subject}: {message}"),
            None => subject.clone(),
        };
        let target = self.workspace.target(self.db);
        // Puppet 7's deprecation warnings are its run-time log, which
        // puppet-ls left to Puppet before it knew Puppet 8: reported there
        // only where they fail (`strict = error`), so that checking for
        // Puppet 7 says what it said.
        let warns = target.version != PuppetVersion::V7;
        let diagnostic = match (deprecation.strict, target.strict) {
            (true, Strict::Off) => return,
            (true, Strict::Warning) | (false, _) if !warns => return,
            (true, Strict::Error) => Diagnostic::error(
                call.range,
                Code::DeprecatedFunction,
                match (&deprecation.key, &deprecation.message) {
                    // Puppet's own words (without its position).
                    (Some(key), Some(message)) => format!("deprecation. {key}. {message}"),
                    _ => format!("{subject}: deprecation() fails under strict = error"),
                },
            ),
            (true, Strict::Warning) => Diagnostic::warning(
                call.range,
                Code::DeprecatedFunction,
                format!("{warning} (an error under strict = error, Puppet 8's default)"),
            ),
            (false, _) => Diagnostic::warning(call.range, Code::DeprecatedFunction, warning),
        };
        out.push(diagnostic);
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
