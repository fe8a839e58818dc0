//! Type inference for every expression of a file.
//!
//! A walk over the file in flow order keeps what each variable holds (a
//! known value or only a type) and records, for every expression, its
//! [`Inferred`] type and, when it is a constant, its value. Constants come
//! from the evaluator (one implementation of Puppet's semantics), run with
//! the variables the expression reads bound to what the walk knows, so
//! `$port = 8000 + 80` is `Integer[8080, 8080]` with the value `8080` and
//! `$p + 1` with `Integer[1, 10] $p` is `Integer[2, 11]`. On top of the
//! evaluator the walk knows:
//! - declared parameter types of classes, defined types, functions, plans,
//!   lambdas and EPP templates;
//! - function return types (workspace functions' `>> T`, Puppet's
//!   signatures);
//! - lambda parameter types from the iterated value's element type;
//! - narrowing in `if $x =~ T`, `if $x`, `unless`, `case` options and
//!   selector entries;
//! - facts' types (`$facts['os']['family']` is `String`);
//! - values flowing through variables, merged after branches.
//!
//! What cannot be known stays `Any`, never a guess. Nothing here is
//! memoized: inference is computed when an IDE feature asks.

mod context;
mod narrow;
mod ops;
mod walk;

pub use context::{type_context, TypeContext};

use crate::db::{parse, SourceFile, Workspace};
use crate::types::Type;
use crate::values::Value;
use puppet_syntax::{SyntaxNode, TextRange};
use std::collections::HashMap;

/// What is known of an expression: always a type, and the value when the
/// expression is a constant.
#[derive(Debug, Clone, PartialEq)]
pub struct Inferred {
    pub ty: Type,
    pub value: Option<Value>,
}

impl Inferred {
    pub fn any() -> Inferred {
        Inferred::of_type(Type::Any)
    }

    pub fn of_type(ty: Type) -> Inferred {
        Inferred { ty, value: None }
    }

    /// A known value, typed as Puppet's `type($v, 'reduced')` would.
    pub fn of_value(value: Value) -> Inferred {
        match value {
            Value::Unknown(t) => Inferred::of_type(t),
            v => Inferred {
                ty: crate::types::infer::infer(&v),
                value: Some(v),
            },
        }
    }

    /// The value as the evaluator takes it (`Unknown(type)` when not known).
    pub fn to_value(&self) -> Value {
        match &self.value {
            Some(v) => v.clone(),
            None => Value::Unknown(self.ty.clone()),
        }
    }
}

/// The inferred types of a file's expressions, by the range of their node,
/// plus those of variable definitions (assignment targets, parameters).
#[derive(Debug, Default)]
pub struct FileTypes {
    exprs: HashMap<TextRange, Inferred>,
    /// Assignment targets and parameters, in text order.
    definitions: Vec<(TextRange, Inferred)>,
}

impl FileTypes {
    /// What is known of the expression or variable definition at `range`.
    pub fn get(&self, range: TextRange) -> Option<&Inferred> {
        self.exprs.get(&range)
    }

    /// What is known of the innermost expression around `node` (the node
    /// itself or its closest recorded ancestor).
    pub fn enclosing(&self, node: &SyntaxNode) -> Option<(TextRange, &Inferred)> {
        node.ancestors().find_map(|n| {
            let r = n.text_range();
            self.exprs.get(&r).map(|i| (r, i))
        })
    }

    /// Every variable definition (assignment target, parameter) with what
    /// it holds, in text order: for inlay hints.
    pub fn definitions(&self) -> &[(TextRange, Inferred)] {
        &self.definitions
    }

    pub fn len(&self) -> usize {
        self.exprs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.exprs.is_empty()
    }
}

/// Infers every expression of `file` in the context of its workspace
/// (IDE features ask [`infer_range`] for what they need instead).
pub fn infer_file(db: &dyn salsa::Database, workspace: Workspace, file: SourceFile) -> FileTypes {
    let ctx = type_context(db, workspace);
    let tree = parse(db, file).tree();
    walk::Walker::new(ctx).run(&tree)
}

/// Infers what the expressions in `range` of `file` need (their
/// enclosing top-level statement and the top-level code before it), not
/// the whole file: what hover, completion and inlay hints ask for.
pub fn infer_range(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    range: TextRange,
) -> FileTypes {
    let ctx = type_context(db, workspace);
    let tree = parse(db, file).tree();
    walk::Walker::new(ctx).run_range(&tree, range)
}

/// Infers a lone text with no workspace (tests, the CLI).
pub fn infer_text(text: &str, kind: puppet_syntax::SourceKind) -> FileTypes {
    let parse = puppet_syntax::parse(text, kind);
    walk::Walker::new(&TypeContext::empty()).run(&parse.tree())
}
