//! `undeclared-dependency`: a module's code using a class, defined type,
//! function, type or template of another module of the workspace that
//! its `metadata.json` does not list in `dependencies`. Installing the
//! module with `puppet module install` (or the PDK's fixtures) then does
//! not bring what the code needs.
//!
//! References are resolved as everywhere else (the definition index, the
//! modules' Ruby plugins); what Puppet itself defines (core functions and
//! resource types, built-in types) is nobody's dependency, nor is the
//! module itself. A module without a `metadata.json` Puppet reads is not
//! checked. Only what is sure is reported: a qualified name (`apt::pin`,
//! `Stdlib::Port`) belongs to the module it names, when that module
//! defines it; an unqualified Ruby type or function (`file_line`,
//! `str2bool`) to the module defining it only when every declared
//! dependency is in the workspace, since one that is not may define it
//! too. Code that runs only when the other module's class, type or
//! function exists (`if defined(Class['apt']) { ... }`) is an optional
//! integration, which metadata.json cannot express, and `defined()`'s own
//! arguments only ask: neither is reported. The check is one query per
//! item, so a keystroke re-runs it for the edited item alone.

use super::{Diagnostic, ItemDiagnostic};
use crate::db::workspace_builtins;
use crate::db::{Item, Workspace};
use crate::hir::DefKind;
use crate::index::{lookup, Namespace, Resolved};
use crate::layout::{Layout, TemplateFunction};
use crate::metadata::{declared_dependencies, module_metadata_files, suggested_dependency};
use crate::ruby_plugins::plugin_owners;
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{Code, SyntaxKind, SyntaxNode, TextRange};
use std::collections::{BTreeSet, HashMap};

/// The directories of a module whose code Puppet runs.
const CODE_DIRS: [&str; 5] = ["manifests", "functions", "types", "plans", "templates"];

/// The modules defining what a reference names, and what it is
/// (`class`, `function`...).
type Owners = (Vec<String>, &'static str);

/// What a reference names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Used {
    Class,
    /// A resource type as declared (`foo::bar { }`).
    ResourceType,
    /// A capitalized type reference (alias or resource type).
    Type,
    Function,
    /// A template path's module (`epp('mod/x.epp')`).
    Template,
}

#[salsa::tracked(returns(ref))]
pub(crate) fn undeclared_dependencies(
    db: &dyn salsa::Database,
    workspace: Workspace,
    item: Item,
) -> Vec<ItemDiagnostic> {
    let layout = workspace.layout(db);
    let path = item.file(db).path(db);
    let Some((module, relative)) = layout.module_of(path) else {
        return Vec::new();
    };
    let in_code = relative
        .components()
        .next()
        .is_some_and(|c| CODE_DIRS.iter().any(|d| c.as_os_str() == *d));
    if !in_code {
        return Vec::new();
    }
    let own = module.name.to_lowercase();
    let Some(&metadata) = module_metadata_files(db, workspace).get(&own) else {
        return Vec::new();
    };
    let Some(declared) = declared_dependencies(db, metadata) else {
        return Vec::new();
    };
    let check = Check {
        db,
        workspace,
        layout,
        own: &own,
        declared,
        all_declared_here: declared.iter().all(|d| layout.module(d).is_some()),
    };
    let mut out = Vec::new();
    // Each name is resolved once per item.
    let mut owners: HashMap<(Used, String), Option<Owners>> = HashMap::new();
    for (segment, root) in item.content(db).segments().iter().enumerate() {
        super::for_each_node(root, |node| {
            let mut found = Vec::new();
            references(node, &mut found);
            // The guards around the node, read only for what is reported.
            let mut present = None;
            for (used, name, range) in found {
                let key = (used, name.trim_start_matches("::").to_lowercase());
                let undeclared = owners
                    .entry(key.clone())
                    .or_insert_with(|| check.undeclared_owner(used, &key.1));
                let Some((modules, what)) = undeclared else {
                    continue;
                };
                let Some(present) = present.get_or_insert_with(|| modules_known_present(node))
                else {
                    return;
                };
                if !modules.iter().any(|m| present.contains(m)) {
                    let diagnostic = check.report(range, &name, what, modules);
                    out.push(ItemDiagnostic::in_segment(segment as u32, diagnostic));
                }
            }
        });
    }
    out
}

/// The references a node makes, with the range of each name.
fn references(node: &SyntaxNode, out: &mut Vec<(Used, String, TextRange)>) {
    match node.kind() {
        SyntaxKind::CALL_EXPR | SyntaxKind::STATEMENT_CALL | SyntaxKind::METHOD_CALL_EXPR => {
            call(node, out)
        }
        SyntaxKind::RESOURCE_EXPR => {
            let Some(resource) = ast::ResourceExpr::cast(node.clone()) else {
                return;
            };
            let Some(type_name) = resource.type_name() else {
                return;
            };
            if type_name == "class" {
                for body in resource.bodies() {
                    if let Some(title) = body.title() {
                        class_names(&title, out);
                    }
                }
            } else if let Some(Expr::QualifiedName(n)) = resource.type_expr() {
                out.push((Used::ResourceType, n.name(), n.syntax().text_range()));
            }
        }
        SyntaxKind::TYPE_REFERENCE => {
            if let Some(reference) = ast::TypeReference::cast(node.clone()) {
                out.push((Used::Type, reference.name(), node.text_range()));
            }
        }
        SyntaxKind::ACCESS_EXPR => {
            let Some(access) = ast::AccessExpr::cast(node.clone()) else {
                return;
            };
            let Some(Expr::TypeReference(target)) = access.target() else {
                return;
            };
            if target.name().eq_ignore_ascii_case("class") {
                for arg in access.args() {
                    if !matches!(arg, Expr::TypeReference(_)) {
                        class_names(&arg, out);
                    }
                }
            }
        }
        SyntaxKind::INHERITS_CLAUSE => {
            if node.parent().map(|p| p.kind()) != Some(SyntaxKind::CLASS_DEF) {
                return;
            }
            let token = ast::InheritsClause::cast(node.clone()).and_then(|c| c.name_token());
            if let Some(token) = token.filter(|t| t.kind() == SyntaxKind::NAME) {
                out.push((Used::Class, token.text().to_string(), token.text_range()));
            }
        }
        _ => {}
    }
}

/// A function call, and the classes or template it names.
fn call(node: &SyntaxNode, out: &mut Vec<(Used, String, TextRange)>) {
    let (name, range, args) = match Expr::cast(node.clone()) {
        Some(Expr::CallExpr(c)) => match c.callee() {
            Some(Expr::QualifiedName(n)) => (n.name(), n.syntax().text_range(), c.args()),
            _ => return,
        },
        Some(Expr::StatementCall(c)) => {
            let Some(n) = c.name_expr() else { return };
            (n.name(), n.syntax().text_range(), c.args().collect())
        }
        Some(Expr::MethodCallExpr(c)) => {
            let Some(token) = c.name_token() else { return };
            (token.text().to_string(), token.text_range(), Vec::new())
        }
        _ => return,
    };
    let key = name.trim_start_matches("::").to_lowercase();
    match key.as_str() {
        "include" | "contain" | "require" => args.iter().for_each(|a| class_names(a, out)),
        "epp" | "template" => {
            if let Some(arg) = args.first() {
                if let Some(reference) = arg.static_string() {
                    out.push((Used::Template, reference, arg.syntax().text_range()));
                }
            }
        }
        _ => {}
    }
    out.push((Used::Function, name, range));
}

/// The modules whose presence the conditions around `node` test with
/// `defined()` (`if defined(Class['apt'])`, `elsif defined('apt::key')`,
/// joined by `and`), for the branch that runs when they hold; `None` when
/// `node` is an argument of `defined()` itself.
fn modules_known_present(node: &SyntaxNode) -> Option<BTreeSet<String>> {
    let mut present = BTreeSet::new();
    let mut child = node.clone();
    while let Some(parent) = child.parent() {
        let guard = match Expr::cast(parent.clone()) {
            Some(Expr::CallExpr(call))
                if call.function_name().as_deref() == Some("defined")
                    && call.callee().is_none_or(|c| c.syntax() != &child) =>
            {
                return None;
            }
            Some(Expr::IfExpr(branch))
                if branch.then_block().is_some_and(|b| b.syntax() == &child) =>
            {
                branch.condition()
            }
            Some(Expr::UnlessExpr(branch))
                if branch.else_branch().is_some_and(|b| b.syntax() == &child) =>
            {
                branch.condition()
            }
            _ => ast::ElsifBranch::cast(parent.clone())
                .filter(|branch| branch.block().is_some_and(|b| b.syntax() == &child))
                .and_then(|branch| branch.condition()),
        };
        if let Some(condition) = guard {
            tested_modules(&condition, &mut present);
        }
        child = parent;
    }
    Some(present)
}

/// The modules of what a condition's `defined()` calls ask for.
fn tested_modules(condition: &Expr, out: &mut BTreeSet<String>) {
    match condition {
        Expr::ParenExpr(inner) => {
            if let Some(inner) = inner.expr() {
                tested_modules(&inner, out);
            }
        }
        Expr::BinaryExpr(both) if both.op() == Some(ast::BinaryOp::And) => {
            for side in [both.lhs(), both.rhs()].into_iter().flatten() {
                tested_modules(&side, out);
            }
        }
        Expr::CallExpr(call) if call.function_name().as_deref() == Some("defined") => {
            for arg in call.args() {
                let name = match &arg {
                    Expr::TypeReference(t) => Some(t.name()),
                    Expr::AccessExpr(access) => match access.target() {
                        Some(Expr::TypeReference(t)) if t.name().eq_ignore_ascii_case("class") => {
                            access.args().first().and_then(Expr::static_string)
                        }
                        Some(Expr::TypeReference(t)) => Some(t.name()),
                        _ => None,
                    },
                    other => other.static_string(),
                };
                if let Some(name) = name {
                    let name = name.trim_start_matches('$').trim_start_matches("::");
                    let module = name.split("::").next().unwrap_or_default();
                    out.insert(module.to_lowercase());
                }
            }
        }
        _ => {}
    }
}

/// Class names written literally (arrays of them too).
fn class_names(expr: &Expr, out: &mut Vec<(Used, String, TextRange)>) {
    if let Expr::ArrayExpr(array) = expr {
        for element in array.elements() {
            class_names(&element, out);
        }
        return;
    }
    if let Some(name) = expr.static_string() {
        out.push((Used::Class, name, expr.syntax().text_range()));
    }
}

struct Check<'a> {
    db: &'a dyn salsa::Database,
    workspace: Workspace,
    layout: &'a Layout,
    /// The module of the item (lower-cased).
    own: &'a str,
    declared: &'a BTreeSet<String>,
    /// Every declared module is in the workspace (none that is missing can
    /// define an unqualified name).
    all_declared_here: bool,
}

impl Check<'_> {
    /// The module defining what a reference names, with what it is, when
    /// that module is another of the workspace which the item's module
    /// does not declare. `None` when the module itself, a declared module
    /// or Puppet defines it, or nothing the workspace has.
    fn undeclared_owner(&self, used: Used, name: &str) -> Option<Owners> {
        let (owners, what) = self.owners(used, name)?;
        if owners.is_empty()
            || owners.contains(self.own)
            || owners.iter().any(|o| self.declared.contains(o))
        {
            return None;
        }
        Some((owners.into_iter().collect(), what))
    }

    /// The modules defining a name, and what the name is.
    fn owners(&self, used: Used, name: &str) -> Option<(BTreeSet<String>, &'static str)> {
        let core_type = || {
            let b = workspace_builtins(self.db, self.workspace);
            b.resource_type(name).is_some() || b.is_vendored_core_type(name)
        };
        match used {
            Used::Class => Some((self.defined(Namespace::Class, name), "class")),
            Used::Function => {
                if workspace_builtins(self.db, self.workspace)
                    .function(name)
                    .is_some()
                {
                    return None;
                }
                // Plans share the namespace but are not called
                // (`$target.facts` is not the plan `facts`).
                let mut owners =
                    self.defined_as(Namespace::Function, name, |k| k == DefKind::Function);
                if owners.is_empty() {
                    owners = self.ruby(name, false);
                }
                Some((owners, "function"))
            }
            Used::ResourceType => {
                if core_type() {
                    return None;
                }
                let owners = self.defined(Namespace::DefinedType, name);
                if !owners.is_empty() {
                    return Some((owners, "defined type"));
                }
                Some((self.ruby(name, true), "resource type"))
            }
            Used::Type => {
                if core_type() {
                    return None;
                }
                // A capitalized name is a type alias or a resource type,
                // never a class (`Zypprepo['x']` is the Ruby type's
                // resource, whatever class `zypprepo` there is).
                for (namespace, what) in [
                    (Namespace::Type, "type alias"),
                    (Namespace::DefinedType, "defined type"),
                ] {
                    let owners = self.defined(namespace, name);
                    if !owners.is_empty() {
                        return Some((owners, what));
                    }
                }
                Some((self.ruby(name, true), "resource type"))
            }
            Used::Template => {
                let (module, _) = name.split_once('/')?;
                let function = TemplateFunction::Epp;
                // The module of the path, when the workspace has it.
                self.layout.template_file(function, name)?;
                Some((BTreeSet::from([module.to_lowercase()]), "template"))
            }
        }
    }

    /// The module of a name's namespace (`apt` for `apt::pin` and `apt`)
    /// when its code defines the name in a namespace. A definition in
    /// another module's files cannot be autoloaded (that is reported as
    /// `definition-location`), so it is nobody's dependency.
    fn defined(&self, namespace: Namespace, name: &str) -> BTreeSet<String> {
        self.defined_as(namespace, name, |_| true)
    }

    /// [`Check::defined`], for the definitions of the kinds `keep` accepts.
    fn defined_as(
        &self,
        namespace: Namespace,
        name: &str,
        keep: impl Fn(DefKind) -> bool,
    ) -> BTreeSet<String> {
        let module = name.split("::").next().unwrap_or_default();
        let found: &[Resolved] = lookup(self.db, self.workspace, namespace, name);
        found
            .iter()
            .filter(|r| keep(r.definition.kind))
            .filter_map(|r| {
                let path = r.location.file.path(self.db);
                let (owner, _) = self.layout.module_of(path)?;
                let owner = owner.name.to_lowercase();
                (owner == module).then_some(owner)
            })
            .collect()
    }

    /// The modules whose Ruby files define a type or function: for a
    /// qualified name, the module it names; for a global one, any, when no
    /// declared module is missing from the workspace (else nothing is sure).
    fn ruby(&self, name: &str, is_type: bool) -> BTreeSet<String> {
        let owners = plugin_owners(self.db, self.workspace);
        let map = if is_type {
            &owners.types
        } else {
            &owners.functions
        };
        let mut found = map.get(name).cloned().unwrap_or_default();
        match name.split_once("::") {
            Some((module, _)) => found.retain(|owner| owner == module),
            None if !self.all_declared_here => found.clear(),
            None => {}
        }
        found
    }

    /// The warning for a reference to what `modules` define (the first
    /// is suggested).
    fn report(&self, range: TextRange, name: &str, what: &str, modules: &[String]) -> Diagnostic {
        let owner = modules.first().map_or("", String::as_str);
        let entry = match suggested_dependency(self.db, self.workspace, owner) {
            Some(entry) => format!("`{entry}`"),
            None => format!("module '{owner}'"),
        };
        let name = name.trim_start_matches("::");
        let whose = match modules {
            [one] => format!("module '{one}', which this module's metadata.json does not declare as a dependency"),
            [init @ .., last] => format!(
                "modules {} and '{last}', none of which this module's metadata.json declares as a dependency",
                init.iter().map(|m| format!("'{m}'")).collect::<Vec<_>>().join(", ")
            ),
            [] => String::new(),
        };
        Diagnostic::warning(
            range,
            Code::UndeclaredDependency,
            format!("'{name}' is a {what} of {whose}: add {entry} to its `dependencies`"),
        )
    }
}
