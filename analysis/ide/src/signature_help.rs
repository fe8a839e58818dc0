//! Signature help: while typing the arguments of a call (`f(a, b)`,
//! `include a, b`, `$x.f(a)`) or the attributes of a class or defined type
//! declaration (`class { 'x': a => 1 }`), the callee's signatures with the
//! parameter at the cursor. Signatures come from Puppet's built-in
//! functions (every dispatch), modules' Ruby functions (their `dispatch`
//! blocks), the workspace's Puppet-language functions, classes and defined
//! types (from the definition index).

use super::{Cancellable, FilePosition};
use crate::parameter_info::{parameters_of, written};
use crate::Analysis;
use puppet_analysis::builtins::{ParamKind, Signature};
use puppet_analysis::diagnostics::types::{evaluate, is_constant};
use puppet_analysis::eval::parse_type;
use puppet_analysis::index::{lookup, Namespace, Resolved};
use puppet_analysis::ruby_plugins::{ruby_function_dispatches, RubyDispatch};
use puppet_analysis::types::{NoAliases, TypeSystem};
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextSize};

/// The signatures to show and which one (and which parameter) is active.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHelp {
    pub signatures: Vec<SignatureInfo>,
    /// Index into `signatures`: the first that fits the arguments so far.
    pub active_signature: usize,
    /// Index into the active signature's parameters; `None` when the
    /// cursor is on no parameter (too many arguments, unknown attribute).
    pub active_parameter: Option<usize>,
}

/// One signature: `label` is the whole text, e.g. `f(String $a, Integer $b)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureInfo {
    pub label: String,
    pub documentation: Option<String>,
    pub parameters: Vec<ParamInfo>,
}

/// A parameter as a byte range `[start, end)` of its signature's label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamInfo {
    pub label_range_in_signature_label: (usize, usize),
    pub documentation: Option<String>,
}

impl Analysis {
    /// Signature help at a position, or `None` outside calls and
    /// declarations (or for callees nothing is known about).
    pub fn signature_help(&self, pos: &FilePosition) -> Cancellable<Option<SignatureHelp>> {
        self.with_db(|a| {
            let root = a.syntax(&pos.path)?;
            match context_at(&root, pos.offset)? {
                Context::Call {
                    name,
                    arg_index,
                    done,
                } => a.call_help(&name, arg_index, &done),
                Context::Declaration {
                    resource,
                    attribute,
                } => a.declaration_help(&resource, attribute.as_deref()),
            }
        })
    }

    fn call_help(&self, name: &str, arg_index: usize, done: &[Expr]) -> Option<SignatureHelp> {
        let name = name.trim_start_matches("::").to_lowercase();
        if let Some(function) = self.stdlib().resolve_function(&name) {
            let dispatches: Vec<Dispatch> = function
                .signatures
                .iter()
                .map(Dispatch::from_builtin)
                .collect();
            return dispatch_help(
                &name,
                &dispatches,
                function.description.as_deref(),
                arg_index,
                done,
            );
        }
        let found = lookup(self.db(), self.workspace(), Namespace::Function, &name);
        let Some(found) = found.first() else {
            let ruby = ruby_function_dispatches(self.db(), self.workspace()).get(&name)?;
            let dispatches: Vec<Dispatch> = ruby.iter().map(Dispatch::from_ruby).collect();
            return dispatch_help(&name, &dispatches, None, arg_index, done);
        };
        let definition = &found.definition;
        let signature = self.definition_signature(&name, found);
        let rest = definition.params.last().is_some_and(|p| p.captures_rest);
        let count = signature.parameters.len();
        let active = if rest && arg_index >= count {
            count.checked_sub(1)
        } else {
            (arg_index < count).then_some(arg_index)
        };
        Some(SignatureHelp {
            signatures: vec![signature],
            active_signature: 0,
            active_parameter: active,
        })
    }

    fn declaration_help(
        &self,
        resource: &ast::ResourceExpr,
        attribute: Option<&str>,
    ) -> Option<SignatureHelp> {
        let type_name = resource.type_name()?;
        let (namespace, name) = if type_name == "class" {
            let title = resource.bodies().next()?.title()?.static_string()?;
            (Namespace::Class, title)
        } else {
            (Namespace::DefinedType, type_name)
        };
        let found = lookup(self.db(), self.workspace(), namespace, &name);
        let found = found.first()?;
        let definition = &found.definition;
        let active = attribute.and_then(|a| definition.params.iter().position(|p| p.name == a));
        Some(SignatureHelp {
            signatures: vec![self.definition_signature(&definition.name, found)],
            active_signature: 0,
            active_parameter: active,
        })
    }
}

/// Where the cursor is, for signature help.
enum Context {
    /// In the arguments of a call to `name`, at argument `arg_index`
    /// (counting a method call's receiver as the first argument), with
    /// the arguments completed before it.
    Call {
        name: String,
        arg_index: usize,
        done: Vec<Expr>,
    },
    /// In a resource body of a declaration, maybe on an attribute.
    Declaration {
        resource: ast::ResourceExpr,
        attribute: Option<String>,
    },
}

fn context_at(root: &SyntaxNode, offset: TextSize) -> Option<Context> {
    let offset = offset.min(root.text_range().end());
    let mut token = root.token_at_offset(offset).left_biased()?;
    // Typing after a comma or a blank: what precedes decides.
    while token.kind().is_trivia() {
        match token.prev_token() {
            Some(prev) => token = prev,
            None => break,
        }
    }
    for node in token.parent_ancestors() {
        match node.kind() {
            SyntaxKind::BLOCK | SyntaxKind::LAMBDA => return None,
            SyntaxKind::ARG_LIST => {
                if let Some(context) = call_context(&node, offset) {
                    return Some(context);
                }
            }
            SyntaxKind::STATEMENT_CALL => {
                let call = ast::StatementCall::cast(node.clone())?;
                let name_end = call.name_expr()?.syntax().text_range().end();
                let trailing_comma =
                    last_significant(&node).is_some_and(|t| t.kind() == SyntaxKind::COMMA);
                if offset > name_end && (offset <= node.text_range().end() || trailing_comma) {
                    return Some(Context::Call {
                        name: call.name()?,
                        arg_index: commas_before(&node, offset),
                        done: completed(call.args(), offset),
                    });
                }
            }
            SyntaxKind::RESOURCE_BODY => {
                let colon = ast::token(&node, SyntaxKind::COLON)?;
                if offset < colon.text_range().end() {
                    return None;
                }
                let resource = node.parent().and_then(ast::ResourceExpr::cast)?;
                let attribute = ast::ResourceBody::cast(node.clone())?
                    .attributes()
                    .find(|a| a.syntax().text_range().contains_inclusive(offset))
                    .and_then(|a| a.name());
                return Some(Context::Declaration {
                    resource,
                    attribute,
                });
            }
            _ => {}
        }
    }
    None
}

/// The call an argument list belongs to, if the offset is inside its
/// brackets.
fn call_context(args: &SyntaxNode, offset: TextSize) -> Option<Context> {
    let call = args.parent()?;
    let open = ast::token(args, SyntaxKind::L_PAREN)?;
    let close = ast::token(args, SyntaxKind::R_PAREN);
    if offset < open.text_range().end() || close.is_some_and(|c| offset > c.text_range().start()) {
        return None;
    }
    let commas = commas_before(args, offset);
    let mut done = completed(ast::children::<Expr>(args), offset);
    let (name, arg_index) = match call.kind() {
        SyntaxKind::CALL_EXPR => (ast::CallExpr::cast(call)?.function_name()?, commas),
        SyntaxKind::METHOD_CALL_EXPR => {
            let call = ast::MethodCallExpr::cast(call)?;
            done.splice(0..0, call.receiver());
            (call.name()?, commas + 1)
        }
        _ => return None,
    };
    Some(Context::Call {
        name,
        arg_index,
        done,
    })
}

/// The arguments that end before the offset (the one being typed is not
/// complete).
fn completed(args: impl Iterator<Item = Expr>, offset: TextSize) -> Vec<Expr> {
    args.take_while(|a| a.syntax().text_range().end() < offset)
        .collect()
}

/// Direct comma tokens of a list before the offset: the argument index.
fn commas_before(node: &SyntaxNode, offset: TextSize) -> usize {
    node.children_with_tokens()
        .filter(|e| e.kind() == SyntaxKind::COMMA && e.text_range().end() <= offset)
        .count()
}

fn last_significant(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
        .last()
}

/// One dispatch of a built-in or Ruby function, as signature help shows
/// it.
struct Dispatch<'a> {
    /// (type, name, kind) of each positional parameter.
    params: Vec<(&'a str, &'a str, ParamKind)>,
    /// (type, name, optional) of the block.
    block: Option<(&'a str, &'a str, bool)>,
    return_type: Option<&'a str>,
}

impl<'a> Dispatch<'a> {
    fn from_builtin(signature: &'a Signature) -> Dispatch<'a> {
        Dispatch {
            params: signature
                .params
                .iter()
                .map(|p| (p.type_text.as_str(), p.name.as_str(), p.kind))
                .collect(),
            block: signature
                .block
                .as_ref()
                .map(|b| (b.type_text.as_str(), b.name.as_str(), b.optional)),
            return_type: signature.return_type_text.as_deref(),
        }
    }

    fn from_ruby(dispatch: &'a RubyDispatch) -> Dispatch<'a> {
        Dispatch {
            params: dispatch
                .params
                .iter()
                .map(|p| (p.type_text.as_str(), p.name.as_str(), p.kind))
                .collect(),
            block: dispatch.block.as_ref().map(|b| {
                (
                    b.type_text.as_str(),
                    b.name.as_str(),
                    b.kind == ParamKind::Optional,
                )
            }),
            return_type: dispatch.return_type.as_deref(),
        }
    }

    /// Whether an argument at `arg_index` fits (a repeated last parameter
    /// takes any number).
    fn takes(&self, arg_index: usize) -> bool {
        arg_index < self.params.len()
            || self
                .params
                .last()
                .is_some_and(|p| p.2 == ParamKind::Repeated)
    }

    /// Whether the constant arguments among `done` fit their parameters'
    /// types (arguments whose value is not known fit anything).
    fn accepts(&self, done: &[Expr]) -> bool {
        let types = TypeSystem::new(&NoAliases);
        done.iter().enumerate().all(|(i, arg)| {
            let Some((ty, _, _)) = self.params.get(i).or(self.params.last()) else {
                return false;
            };
            let value = match is_constant(arg.syntax()).then(|| evaluate(arg)).flatten() {
                Some(Ok(value)) => value,
                _ => return true,
            };
            types.instance_of(&parse_type(ty), &value) != Some(false)
        })
    }

    /// The parameter an argument at `arg_index` goes to.
    fn active_param(&self, arg_index: usize) -> Option<usize> {
        self.takes(arg_index)
            .then(|| arg_index.min(self.params.len().saturating_sub(1)))
    }

    /// `name(Type $p, [Type $opt], Type *$rest, Callable &$block) >> R`.
    fn signature(&self, name: &str, documentation: Option<&str>) -> SignatureInfo {
        let mut parts: Vec<String> = self
            .params
            .iter()
            .map(|&(ty, name, kind)| match kind {
                ParamKind::Required => format!("{ty} ${name}"),
                ParamKind::Optional => format!("[{ty} ${name}]"),
                ParamKind::Repeated => format!("{ty} *${name}"),
            })
            .collect();
        if let Some((ty, name, optional)) = self.block {
            let text = format!("{ty} &${name}");
            parts.push(if optional { format!("[{text}]") } else { text });
        }
        let mut info = signature_info(name, &parts, documentation.map(str::to_string));
        if let Some(ret) = self.return_type {
            info.label.push_str(" >> ");
            info.label.push_str(ret);
        }
        info
    }
}

/// Every dispatch of a function; the active one is the first that takes
/// an argument at `arg_index` and accepts the constant arguments before it.
fn dispatch_help(
    name: &str,
    dispatches: &[Dispatch],
    documentation: Option<&str>,
    arg_index: usize,
    done: &[Expr],
) -> Option<SignatureHelp> {
    if dispatches.is_empty() {
        return None;
    }
    let active_signature = dispatches
        .iter()
        .position(|d| d.takes(arg_index) && d.accepts(done))
        .or_else(|| dispatches.iter().position(|d| d.takes(arg_index)))
        .or_else(|| dispatches.iter().position(|d| d.accepts(done)))
        .unwrap_or(0);
    Some(SignatureHelp {
        signatures: dispatches
            .iter()
            .map(|d| d.signature(name, documentation))
            .collect(),
        active_signature,
        active_parameter: dispatches
            .get(active_signature)
            .and_then(|d| d.active_param(arg_index)),
    })
}

impl Analysis {
    /// `name(Type $p = default, ...)` of a workspace definition, each
    /// parameter documented with what is known of it.
    fn definition_signature(&self, name: &str, found: &Resolved) -> SignatureInfo {
        let (db, workspace) = (self.db(), self.workspace());
        let definition = &found.definition;
        let docs = puppet_analysis::hir::item_documentation(db, found.location.item);
        let parts: Vec<String> = definition.params.iter().map(|p| written(p, docs)).collect();
        let summary = docs.strings.summary.clone().or_else(|| docs.markdown());
        let mut info = signature_info(name, &parts, summary);
        let known = parameters_of(db, workspace, found);
        for (param, info) in definition.params.iter().zip(&mut info.parameters) {
            info.documentation = known
                .iter()
                .find(|p| p.name == param.name)
                .and_then(|p| p.text());
        }
        if let Some(ret) = definition
            .type_text
            .as_ref()
            .filter(|_| definition.kind == puppet_analysis::hir::DefKind::Function)
        {
            info.label.push_str(" >> ");
            info.label.push_str(ret);
        }
        info
    }
}

/// Joins `name(` parts `)` and records each part's range in the label.
fn signature_info(name: &str, parts: &[String], documentation: Option<String>) -> SignatureInfo {
    let mut label = format!("{name}(");
    let mut parameters = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            label.push_str(", ");
        }
        let start = label.len();
        label.push_str(part);
        parameters.push(ParamInfo {
            label_range_in_signature_label: (start, label.len()),
            documentation: None,
        });
    }
    label.push(')');
    SignatureInfo {
        label,
        documentation,
        parameters,
    }
}
