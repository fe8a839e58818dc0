//! What inference needs to know about the workspace: its type aliases
//! (evaluated once per change of their texts), the declared return types of
//! its functions and the names of its resource types and classes.

use crate::db::Workspace;
use crate::eval::{Evaluator, Limits, WorkspaceTables};
use crate::index::{definition, definition_index, Namespace};
use crate::model::{Type, Value};
use crate::ruby_plugins::plugin_index;
use crate::stdlib::workspace_stdlib;
use crate::target::Target;
use crate::types::TypeAliases;
use puppet_syntax::SourceKind;

/// The workspace's definitions as inference sees them. Equality compares
/// the source texts only: the evaluated types follow from them.
#[derive(Debug, Clone, Default)]
pub struct TypeContext {
    /// `(alias name as written, aliased type text)`.
    alias_texts: Vec<(String, String)>,
    /// The evaluated aliases, parallel to `alias_texts`.
    alias_types: Vec<Type>,
    /// `(function name, declared return type text)`.
    return_texts: Vec<(String, String)>,
    /// The evaluated return types of workspace functions and (when the
    /// bundled table stands for the workspace's stdlib) stdlib's, evaluated
    /// once.
    return_types: Vec<(String, Type)>,
    /// Classes, defined types and Ruby resource types (lower case).
    resource_types: Vec<String>,
    /// Whether the bundled stdlib table stands for the workspace's stdlib
    /// ([`crate::stdlib`]): its functions' return types then apply.
    bundled_stdlib: bool,
    /// The Puppet the evaluators evaluate as.
    target: Target,
    /// All of the above as an evaluator holds it, built once and shared
    /// by every evaluator [`TypeContext::evaluator`] makes.
    tables: WorkspaceTables,
}

impl PartialEq for TypeContext {
    fn eq(&self, other: &Self) -> bool {
        self.alias_texts == other.alias_texts
            && self.return_texts == other.return_texts
            && self.resource_types == other.resource_types
            && self.bundled_stdlib == other.bundled_stdlib
            && self.target == other.target
    }
}

impl Eq for TypeContext {}

impl TypeContext {
    /// A context with no workspace definitions (a lone file).
    pub fn empty() -> TypeContext {
        TypeContext::default()
    }

    /// The Puppet evaluated as.
    pub fn target(&self) -> Target {
        self.target
    }

    /// The workspace's aliases, to resolve [`Type::Alias`] references.
    pub fn aliases(&self) -> &TypeAliases {
        self.tables.aliases()
    }

    /// An evaluator that knows the workspace's aliases, resource types and
    /// function return types.
    pub fn evaluator(&self) -> Evaluator {
        Evaluator::with_tables(
            Limits {
                max_steps: 20_000,
                max_collection: 10_000,
                // The walk itself recurses too; both fit a 2 MiB stack.
                max_depth: 48,
            },
            &self.tables,
        )
    }

    /// The evaluator's tables of this context's names, built once.
    fn build_tables(&self) -> WorkspaceTables {
        let mut ev = Evaluator::new(Limits::default());
        ev.target = self.target;
        for name in &self.resource_types {
            ev.add_resource_type(name);
        }
        let names: Vec<String> = self.alias_texts.iter().map(|(n, _)| n.clone()).collect();
        if !names.is_empty() {
            // Defined in the order of `names`, which is `alias_types`' order.
            let mut types = self.alias_types.iter();
            ev.add_aliases(&names, |_, _| types.next().cloned());
        }
        for (name, t) in &self.return_types {
            ev.set_function_return_type(name, t.clone());
        }
        ev.tables()
    }
}

/// Evaluates a type written as text (`Optional[String]`), with the
/// evaluator's aliases.
pub(crate) fn evaluate_type(ev: &mut Evaluator, text: &str) -> Option<Type> {
    let parse = puppet_syntax::parse(text, SourceKind::Manifest);
    let expr = parse.tree().statements().next()?;
    let (body, _, id) = crate::hir::lower::lower_expression(&expr);
    ev.reset_budget();
    match ev.eval_expression(&std::sync::Arc::new(body), id).value? {
        Value::Type(t) => Some(t),
        _ => None,
    }
}

/// The texts [`type_context`] is computed from. Apart so that an edit
/// re-runs only this cheap collection: when the texts are unchanged,
/// `type_context` (which evaluates every alias) is not run again.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct TypeContextTexts {
    alias_texts: Vec<(String, String)>,
    return_texts: Vec<(String, String)>,
    resource_types: Vec<String>,
    bundled_stdlib: bool,
}

#[salsa::tracked(returns(ref))]
pub fn type_context_texts(db: &dyn salsa::Database, workspace: Workspace) -> TypeContextTexts {
    let index = definition_index(db, workspace);
    let mut texts = TypeContextTexts::default();
    for (namespace, _, locations) in index.iter() {
        let Some(def) = locations.first().and_then(|&l| definition(db, l)) else {
            continue;
        };
        match namespace {
            Namespace::Type => {
                let text = def.type_text.clone().unwrap_or_else(|| "Any".into());
                texts.alias_texts.push((def.name.clone(), text));
            }
            Namespace::Function => {
                if let Some(text) = &def.type_text {
                    texts.return_texts.push((def.name.clone(), text.clone()));
                }
            }
            Namespace::Class | Namespace::DefinedType => {
                texts.resource_types.push(def.name.to_ascii_lowercase());
            }
            Namespace::Node => {}
        }
    }
    texts
        .resource_types
        .extend(plugin_index(db, workspace).types.keys().cloned());
    texts.bundled_stdlib = workspace_stdlib(db, workspace).is_bundled();
    texts
}

#[salsa::tracked(returns(ref))]
pub fn type_context(db: &dyn salsa::Database, workspace: Workspace) -> TypeContext {
    let texts = type_context_texts(db, workspace).clone();
    let mut ctx = TypeContext {
        alias_texts: texts.alias_texts,
        return_texts: texts.return_texts,
        resource_types: texts.resource_types,
        bundled_stdlib: texts.bundled_stdlib,
        target: workspace.target(db),
        ..TypeContext::default()
    };
    // Evaluate the aliases once, all names known first so that they may
    // refer to each other.
    let names: Vec<String> = ctx.alias_texts.iter().map(|(n, _)| n.clone()).collect();
    let mut ev = Evaluator::new(Limits::default());
    ev.target = ctx.target;
    for name in &ctx.resource_types {
        ev.add_resource_type(name);
    }
    ev.add_aliases(&names, |_, _| None);
    ctx.alias_types = ctx
        .alias_texts
        .iter()
        .map(|(_, text)| evaluate_type(&mut ev, text).unwrap_or(Type::Any))
        .collect();
    if ctx.bundled_stdlib {
        for f in workspace_stdlib(db, workspace).bundled_functions() {
            let returns: Vec<Type> = f.signatures.iter().map(|s| s.return_type()).collect();
            if let Some((first, rest)) = returns.split_first() {
                if *first != Type::Any && rest.iter().all(|t| t == first) {
                    ctx.return_types.push((f.name.clone(), first.clone()));
                }
            }
        }
    }
    for (name, text) in &ctx.return_texts {
        if let Some(t) = evaluate_type(&mut ev, text) {
            ctx.return_types.push((name.clone(), t));
        }
    }
    ctx.tables = ctx.build_tables();
    ctx
}
