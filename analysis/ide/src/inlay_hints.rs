//! Inlay hints: the inferred type after a variable assigned a value whose
//! type is not written (`$port: Integer[8080, 8080]`), lambda parameters'
//! types, and parameter names before the arguments of function calls.

use super::Cancellable;
use crate::Analysis;
use puppet_analysis::db::parse;
use puppet_analysis::index::{lookup, Namespace};
use puppet_analysis::infer::infer_range;
use puppet_analysis::model::Type;
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{SyntaxKind, TextRange, TextSize};
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InlayKind {
    Type,
    Parameter,
}

/// A hint shown at `offset` (after a variable, before an argument).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: TextSize,
    pub label: String,
    pub kind: InlayKind,
}

/// Longer types are cut (hover shows them whole).
const MAX_TYPE_CHARS: usize = 48;

impl Analysis {
    /// The hints of a file's `range`, in text order.
    pub fn inlay_hints(&self, path: &Path, range: TextRange) -> Cancellable<Vec<InlayHint>> {
        self.with_db(|a| {
            let Some(file) = a.file(path) else {
                return Vec::new();
            };
            let db = a.db();
            let mut out = Vec::new();
            let types = infer_range(db, a.workspace(), file, range);
            let root = parse(db, file).syntax_node();
            for (def_range, inferred) in types.definitions() {
                if !range.contains_range(*def_range) || inferred.ty == Type::Any {
                    continue;
                }
                let Some(token) = root.token_at_offset(def_range.start()).right_biased() else {
                    continue;
                };
                // A parameter with a written type needs no hint.
                let param = token.parent_ancestors().find_map(ast::Param::cast);
                if param.as_ref().is_some_and(|p| p.type_expr().is_some()) {
                    continue;
                }
                let mut label = inferred.ty.to_string();
                if label.chars().count() > MAX_TYPE_CHARS {
                    label = label.chars().take(MAX_TYPE_CHARS).collect::<String>() + "…";
                }
                out.push(InlayHint {
                    offset: def_range.end(),
                    label: format!(": {label}"),
                    kind: InlayKind::Type,
                });
            }
            for node in root.descendants() {
                if !range.contains_range(node.text_range()) || node.kind() != SyntaxKind::CALL_EXPR
                {
                    continue;
                }
                let Some(call) = ast::CallExpr::cast(node) else {
                    continue;
                };
                let Some(name) = call.function_name() else {
                    continue;
                };
                let args = call.args();
                if args.len() < 2 {
                    continue;
                }
                let names = parameter_names(a, &name, args.len());
                for (arg, param) in args.iter().zip(names) {
                    if let Expr::VariableExpr(v) = arg {
                        if v.name() == param {
                            continue;
                        }
                    }
                    out.push(InlayHint {
                        offset: arg.syntax().text_range().start(),
                        label: format!("{param}:"),
                        kind: InlayKind::Parameter,
                    });
                }
            }
            out.sort_by_key(|h| h.offset);
            out
        })
    }
}

/// The parameter names a call with `n` arguments binds: a workspace
/// function's, else the one built-in signature that takes `n`.
fn parameter_names(a: &Analysis, name: &str, n: usize) -> Vec<String> {
    if let Some(found) = lookup(a.db(), a.workspace(), Namespace::Function, name).first() {
        return found
            .definition
            .params
            .iter()
            .map(|p| p.name.clone())
            .collect();
    }
    let Some(f) = a.stdlib().resolve_function(name) else {
        return Vec::new();
    };
    let matching: Vec<_> = f
        .signatures
        .iter()
        .filter(|s| s.accepts_arg_count(n))
        .collect();
    match matching.as_slice() {
        [one] => one.params.iter().map(|p| p.name.clone()).collect(),
        _ => Vec::new(),
    }
}
