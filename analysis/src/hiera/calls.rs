//! Hiera keys named in code: the first argument of `lookup()` and the
//! `hiera*()` functions, when it is a constant string. Each file's keys
//! are collected position-free, so that data checks ("is this key read
//! anywhere?") do not depend on where the calls are.

use crate::db::{parse, SourceFile, Workspace};
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{SyntaxKind, SyntaxNode, TextRange};
use std::collections::BTreeSet;

/// Functions whose first argument is a Hiera key, with the merge they
/// imply.
const LOOKUP_FUNCTIONS: &[(&str, Option<&str>)] = &[
    ("lookup", None),
    ("hiera", None),
    ("hiera_array", Some("unique")),
    ("hiera_hash", Some("hash")),
    ("hiera_include", Some("unique")),
];

/// A lookup call's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupCall {
    pub key: String,
    /// The key string's range, quotes included.
    pub key_range: TextRange,
    /// The merge the call asks for, when it says (a constant third
    /// argument of `lookup`, or what `hiera_array`/`hiera_hash` imply).
    pub merge: Option<String>,
}

/// The key of a call node when it is a lookup with a constant key.
pub fn lookup_call(node: &SyntaxNode) -> Option<LookupCall> {
    let call = ast::CallExpr::cast(node.clone())?;
    let function = call.function_name()?;
    let implied = LOOKUP_FUNCTIONS
        .iter()
        .find(|(name, _)| *name == function.trim_start_matches("::"))?
        .1;
    let arguments = call.args();
    let first = arguments.first()?;
    let key = string_value(first)?;
    let merge = implied.map(String::from).or_else(|| {
        (function.trim_start_matches("::") == "lookup")
            .then(|| arguments.get(2).and_then(string_value))
            .flatten()
    });
    Some(LookupCall {
        key,
        key_range: first.syntax().text_range(),
        merge,
    })
}

/// The value of a string literal without interpolation.
fn string_value(expr: &Expr) -> Option<String> {
    match expr {
        Expr::SqStringExpr(s) => Some(s.value()),
        Expr::DqStringExpr(s) => match s.parts().as_slice() {
            [] => Some(String::new()),
            [ast::StringPart::Text(text)] => Some(text.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Every lookup call of a file, in text order.
pub fn lookup_calls(root: &SyntaxNode) -> impl Iterator<Item = LookupCall> {
    root.descendants()
        .filter(|n| n.kind() == SyntaxKind::CALL_EXPR)
        .filter_map(|n| lookup_call(&n))
}

/// The keys a file looks up (root keys: `a.b` is `a`).
#[salsa::tracked(returns(ref))]
pub fn file_lookup_keys(db: &dyn salsa::Database, file: SourceFile) -> BTreeSet<String> {
    lookup_calls(&parse(db, file).syntax_node())
        .map(|call| root_key(&call.key).to_string())
        .collect()
}

/// Every key the workspace's code looks up.
#[salsa::tracked(returns(ref))]
pub fn code_lookup_keys(db: &dyn salsa::Database, workspace: Workspace) -> BTreeSet<String> {
    workspace
        .files(db)
        .iter()
        .flat_map(|&file| file_lookup_keys(db, file).iter().cloned())
        .collect()
}

/// The key before any dotted sub-key, without a leading `::`.
pub fn root_key(key: &str) -> &str {
    let key = super::data::normalize_key(key);
    match super::interpolation::split_key(key) {
        Some(segments) if segments.len() > 1 => key.split('.').next().unwrap_or(key),
        _ => key,
    }
}
