//! Diagnostics of a file in its workspace: syntax and validation problems,
//! then what only the workspace can tell: definitions in the wrong file for
//! autoloading, duplicate definitions, and references to classes and types
//! that exist nowhere.
//!
//! A reference into a module that is not in the workspace at all (a
//! dependency not checked out) is a warning: the code may well be right.
//! A reference into a module that is there, to a name it does not define,
//! is an error: Puppet will fail to compile that catalog.

mod calls;
mod resources;
mod statements;
mod templates;
pub(crate) mod types;
mod variables;

use crate::db::{parse, SourceFile, Workspace};
use crate::hir::scope::item_scopes;
use crate::hir::{
    file_items, file_signatures, item_green, item_in_class, item_source_map, DefKind, ItemIndex,
};
use crate::index::{lookup, Namespace};
use crate::workspace::{autoload_expectation, Layout};
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::validation::{is_item, validate_item, ItemContext};
use puppet_syntax::{Severity, SyntaxError, SyntaxKind, SyntaxNode, TextRange, TextSize};

/// A problem in a file, with a stable code.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub range: TextRange,
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    /// Another place the message refers to (an earlier assignment).
    pub related: Option<TextRange>,
}

impl From<&SyntaxError> for Diagnostic {
    fn from(e: &SyntaxError) -> Diagnostic {
        Diagnostic {
            range: e.range,
            severity: e.severity,
            code: e.code,
            message: e.message.clone(),
            related: None,
        }
    }
}

impl Diagnostic {
    /// Stands in a message for the line of [`Diagnostic::related`]: an
    /// item's diagnostics are position-free until the file places them.
    const LINE: &'static str = "{line}";

    fn error(range: TextRange, code: &'static str, message: String) -> Diagnostic {
        Diagnostic {
            range,
            severity: Severity::Error,
            code,
            message,
            related: None,
        }
    }

    fn warning(range: TextRange, code: &'static str, message: String) -> Diagnostic {
        Diagnostic {
            range,
            severity: Severity::Warning,
            code,
            message,
            related: None,
        }
    }

    fn related(mut self, range: TextRange) -> Diagnostic {
        self.related = Some(range);
        self
    }

    /// The diagnostic of an item placed in its file: ranges moved by the
    /// item's offset, the related place's line filled in.
    fn placed(&self, offset: TextSize, text: &str) -> Diagnostic {
        let mut placed = self.clone();
        placed.range += offset;
        if let Some(related) = &mut placed.related {
            *related += offset;
            let line = text
                .get(..usize::from(related.start()))
                .map_or(0, |before| before.matches('\n').count())
                + 1;
            placed.message = placed.message.replace(Self::LINE, &line.to_string());
        }
        placed
    }
}

/// Syntax errors and validation problems of the file alone (what the
/// server shows at once after a keystroke).
#[salsa::tracked(returns(ref))]
pub fn syntax_diagnostics(db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = parse(db, file)
        .errors()
        .iter()
        .map(Diagnostic::from)
        .collect();
    let text = file.text(db);
    let items = file_items(db, file);
    for (i, item) in items.items.iter().enumerate() {
        let validation = item_validation(db, file, ItemIndex(i as u32));
        out.extend(
            validation
                .iter()
                .map(|d| d.placed(item.range.start(), text)),
        );
    }
    out.sort_by_key(|d| (d.range.start(), d.range.end()));
    out
}

/// Puppet's validation of one item (positions relative to the item).
#[salsa::tracked(returns(ref))]
fn item_validation(
    db: &dyn salsa::Database,
    file: SourceFile,
    index: ItemIndex,
) -> Vec<Diagnostic> {
    let Some(green) = item_green(db, file, index) else {
        return Vec::new();
    };
    let context = if *item_in_class(db, file, index) {
        ItemContext::InClass
    } else {
        ItemContext::TopLevel
    };
    validate_item(&green.syntax(), context)
        .iter()
        .map(Diagnostic::from)
        .collect()
}

/// Every diagnostic of a file, in text order: the syntax and validation
/// problems, each item's own diagnostics (placed in the file), and what
/// concerns the file as a whole (autoload locations, duplicates).
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<Diagnostic> {
    let mut out = syntax_diagnostics(db, file).clone();
    let layout = workspace.layout(db);
    check_locations(db, layout, file, &mut out);
    check_duplicates(db, workspace, file, &mut out);
    let text = file.text(db);
    for (i, item) in file_items(db, file).items.iter().enumerate() {
        let diagnostics = item_diagnostics(db, workspace, file, ItemIndex(i as u32));
        out.extend(
            diagnostics
                .iter()
                .map(|d| d.placed(item.range.start(), text)),
        );
    }
    out.sort_by_key(|d| (d.range.start(), d.range.end()));
    out
}

/// What the workspace says about one item (positions relative to it):
/// references to classes, types and functions, resources against what
/// their types accept, calls, templates, constant types and values,
/// variables. An edit elsewhere leaves them as they are unless something
/// they read (a signature, a class's variables, a type alias) changed.
#[salsa::tracked(returns(ref))]
pub fn item_diagnostics(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    index: ItemIndex,
) -> Vec<Diagnostic> {
    let (Some(green), Some(map)) = (
        item_green(db, file, index),
        item_source_map(db, file, index),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let layout = workspace.layout(db);
    let references = References {
        db,
        workspace,
        layout,
    };
    let resources = resources::ResourceChecks {
        db,
        workspace,
        layout,
        defaults: resources::file_resource_defaults(db, file),
    };
    let types = crate::infer::infer_item(db, workspace, file, index);
    let calls = calls::CallChecks {
        db,
        workspace,
        layout,
        types,
        source_map: &map,
    };
    let templates = templates::TemplateChecks {
        db,
        workspace,
        layout,
    };
    let param_type = |attribute: &ast::Attribute| declared_param_type(db, workspace, attribute);
    let root = green.syntax();
    let mut walk = root.preorder();
    while let Some(event) = walk.next() {
        let puppet_syntax::WalkEvent::Enter(node) = event else {
            continue;
        };
        // Nested definitions are items of their own.
        if node != root && is_item(&node) {
            walk.skip_subtree();
            continue;
        }
        references.check(&node, &mut out);
        resources.check(&node, &mut out);
        calls.check(&node, &mut out);
        types::check(&node, &param_type, &mut out);
        statements::check(&node, &mut out);
        templates.check(&node, &mut out);
    }
    let scopes = item_scopes(db, workspace, file, index);
    variables::check_variables(scopes, &map, &mut out);
    out.sort_by_key(|d| (d.range.start(), d.range.end()));
    out
}

/// Definitions must be where autoloading looks for them, and autoloaded
/// files may hold nothing but definitions.
fn check_locations(
    db: &dyn salsa::Database,
    layout: &Layout,
    file: SourceFile,
    out: &mut Vec<Diagnostic>,
) {
    let Some(expected) = autoload_expectation(layout, file.path(db)) else {
        return;
    };
    let items = file_items(db, file);
    let root = parse(db, file).syntax_node();
    for (index, def) in file_signatures(db, file) {
        let Some(range) = items.get(*index).map(|item| item.name_range) else {
            continue;
        };
        let name = def.name.to_lowercase();
        let ok = match def.kind {
            DefKind::TypeAlias => expected.dir == "types" && name == expected.namespace,
            DefKind::Node => false,
            DefKind::Function => {
                expected.dir == "functions" && name.starts_with(&expected.namespace)
            }
            DefKind::Plan => expected.dir == "plans" && name.starts_with(&expected.namespace),
            DefKind::Class | DefKind::DefinedType => {
                expected.dir == "manifests" && name.starts_with(&expected.namespace)
            }
        };
        if !ok && def.kind != DefKind::Node {
            out.push(Diagnostic::error(
                range,
                "definition-location",
                format!(
                    "the {} '{}' cannot be autoloaded from this file: this file may only define '{}'",
                    def.kind.describe(),
                    def.name,
                    expected.namespace
                ),
            ));
        }
    }
    for statement in ast::children::<Expr>(&root) {
        let is_definition = matches!(
            statement,
            Expr::ClassDef(_)
                | Expr::DefineDef(_)
                | Expr::FunctionDef(_)
                | Expr::TypeAlias(_)
                | Expr::PlanDef(_)
        );
        if !is_definition {
            let range = ast::first_significant_token(statement.syntax())
                .map_or(statement.syntax().text_range(), |t| t.text_range());
            out.push(Diagnostic::error(
                range,
                "top-level-statement-in-module",
                "a module's autoloaded file may only contain definitions (class, define, function, type); this statement belongs in a class".to_string(),
            ));
        }
    }
}

fn check_duplicates(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    out: &mut Vec<Diagnostic>,
) {
    let items = file_items(db, file);
    for (index, def) in file_signatures(db, file) {
        let Some(range) = items.get(*index).map(|item| item.name_range) else {
            continue;
        };
        if def.kind == DefKind::Node {
            continue;
        }
        let namespace = Namespace::of(def.kind);
        // Classes and defined types are both resource types: a name may
        // not be both.
        let mut others: Vec<_> = lookup(db, workspace, namespace, &def.name)
            .into_iter()
            .map(|r| r.location)
            .collect();
        if matches!(namespace, Namespace::Class | Namespace::DefinedType) {
            let other_ns = if namespace == Namespace::Class {
                Namespace::DefinedType
            } else {
                Namespace::Class
            };
            others.extend(
                lookup(db, workspace, other_ns, &def.name)
                    .into_iter()
                    .map(|r| r.location),
            );
        }
        let elsewhere: Vec<_> = others
            .iter()
            .filter(|l| !(l.file == file && l.index == *index))
            .collect();
        if let Some(other) = elsewhere.first() {
            let where_ = if other.file == file {
                "in this file".to_string()
            } else {
                format!("in {}", other.file.path(db).display())
            };
            out.push(Diagnostic::error(
                range,
                "duplicate-definition",
                format!("'{}' is defined more than once (also {where_})", def.name),
            ));
        }
    }
}

/// The declared type (as written) of the parameter an attribute sets, when
/// the attribute belongs to a declaration of a defined type or class of the
/// workspace.
fn declared_param_type(
    db: &dyn salsa::Database,
    workspace: Workspace,
    attribute: &ast::Attribute,
) -> Option<String> {
    let name = attribute.name()?;
    let body = ast::ResourceBody::cast(attribute.syntax().parent()?)?;
    let resource = ast::ResourceExpr::cast(body.syntax().parent()?)?;
    let type_name = resource.type_name()?;
    let found = if type_name == "class" {
        let title = body.title()?;
        lookup(db, workspace, Namespace::Class, &title.static_string()?)
    } else {
        lookup(db, workspace, Namespace::DefinedType, &type_name)
    };
    let definition = &found.first()?.definition;
    definition
        .params
        .iter()
        .find(|p| p.name == name)?
        .type_text
        .clone()
}

/// A known name close to an unknown one.
pub(super) struct Suggestion<'a> {
    pub name: &'a str,
    /// Puppet itself defines it (a core type or function), so every
    /// installation has it; otherwise a module of the workspace does.
    pub core: bool,
}

/// Reports a name nothing defines. Puppet fails on it only if no module
/// defines it, and the workspace may not hold every module, so the
/// severity says what can be proved:
/// - a misspelling of a name Puppet itself defines (`fiel` for `file`) is
///   an error: a module defining a name that close to a core one is not
///   seen in practice;
/// - a qualified name whose module is in the workspace should be defined
///   there: an error;
/// - anything else may come from a module that is not checked out, even
///   when it looks like a workspace name (`datacat_fragment` is not a
///   misspelling of `concat_fragment`): a warning, saying why (`unbound`
///   says why for a name bound to no module, e.g. an unqualified
///   function), with the suggestion as a hint.
#[allow(clippy::too_many_arguments)]
pub(super) fn report_unknown(
    layout: &Layout,
    range: TextRange,
    code: &'static str,
    what: &str,
    name: &str,
    best: Option<Suggestion>,
    unbound: Option<&str>,
    out: &mut Vec<Diagnostic>,
) {
    let name = name.trim_start_matches("::");
    let module = name.split("::").next().unwrap_or_default().to_lowercase();
    let module_bound = unbound.is_none() || name.contains("::");
    let hint = best
        .as_ref()
        .map(|b| format!("; did you mean '{}'?", b.name))
        .unwrap_or_default();
    if let Some(best) = best
        .as_ref()
        .filter(|b| b.core && resources::is_typo(name, b.name))
    {
        out.push(Diagnostic::error(
            range,
            code,
            format!("unknown {what} '{name}': did you mean '{}'?", best.name),
        ));
    } else if module_bound && layout.module(&module).is_some() {
        out.push(Diagnostic::error(
            range,
            code,
            format!("unknown {what} '{name}': module '{module}' does not define it{hint}"),
        ));
    } else {
        let reason = match unbound {
            Some(reason) if !name.contains("::") => reason.to_string(),
            _ => format!("module '{module}' is not in the workspace"),
        };
        out.push(Diagnostic::warning(
            range,
            code,
            format!("unknown {what} '{name}': {reason}{hint}"),
        ));
    }
}

/// Resolution of class and type references against the index.
struct References<'a> {
    db: &'a dyn salsa::Database,
    workspace: Workspace,
    layout: &'a Layout,
}

impl References<'_> {
    fn check(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        match node.kind() {
            SyntaxKind::STATEMENT_CALL | SyntaxKind::CALL_EXPR => self.check_include(node, out),
            SyntaxKind::RESOURCE_EXPR => self.check_class_resource(node, out),
            SyntaxKind::ACCESS_EXPR => self.check_class_reference(node, out),
            SyntaxKind::INHERITS_CLAUSE => self.check_inherits(node, out),
            SyntaxKind::PARAM => {
                if let Some(t) = ast::Param::cast(node.clone()).and_then(|p| p.type_expr()) {
                    self.check_type_expr(t.syntax(), out);
                }
            }
            SyntaxKind::RETURN_TYPE => self.check_type_expr(node, out),
            SyntaxKind::TYPE_ALIAS => {
                if let Some(v) = ast::TypeAlias::cast(node.clone()).and_then(|a| a.value()) {
                    self.check_type_expr(v.syntax(), out);
                }
            }
            _ => {}
        }
    }

    /// `include x`, `contain x`, `require x` and their call forms.
    fn check_include(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let (name, args): (Option<String>, Vec<Expr>) = match Expr::cast(node.clone()) {
            Some(Expr::StatementCall(c)) => (c.name(), c.args().collect()),
            Some(Expr::CallExpr(c)) => (c.function_name(), c.args()),
            _ => return,
        };
        if !matches!(name.as_deref(), Some("include" | "contain" | "require")) {
            return;
        }
        for arg in &args {
            let items: Vec<Expr> = match arg {
                Expr::ArrayExpr(a) => a.elements().collect(),
                other => vec![other.clone()],
            };
            for item in items {
                if let Some(class) = item.static_string() {
                    self.resolve_class(&class, item.syntax().text_range(), out);
                }
            }
        }
    }

    /// `class { 'name': }`.
    fn check_class_resource(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let Some(resource) = ast::ResourceExpr::cast(node.clone()) else {
            return;
        };
        if resource.type_name().as_deref() != Some("class") {
            return;
        }
        for body in resource.bodies() {
            if let Some(title) = body.title() {
                if let Some(class) = title.static_string() {
                    self.resolve_class(&class, title.syntax().text_range(), out);
                }
            }
        }
    }

    /// `Class['name']`.
    fn check_class_reference(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let Some(access) = ast::AccessExpr::cast(node.clone()) else {
            return;
        };
        let Some(Expr::TypeReference(target)) = access.target() else {
            return;
        };
        if target.name() != "Class" {
            return;
        }
        for arg in access.args() {
            if let Some(class) = arg.static_string() {
                self.resolve_class(&class, arg.syntax().text_range(), out);
            }
        }
    }

    fn check_inherits(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        if node.parent().map(|p| p.kind()) != Some(SyntaxKind::CLASS_DEF) {
            return;
        }
        let Some(token) = ast::InheritsClause::cast(node.clone()).and_then(|c| c.name_token())
        else {
            return;
        };
        if token.kind() == SyntaxKind::DEFAULT_KW {
            return;
        }
        self.resolve_class(token.text(), token.text_range(), out);
    }

    fn resolve_class(&self, name: &str, range: TextRange, out: &mut Vec<Diagnostic>) {
        let name = name.trim_start_matches("::").to_lowercase();
        if name.is_empty()
            || name == "settings"
            || !lookup(self.db, self.workspace, Namespace::Class, &name).is_empty()
        {
            return;
        }
        report_unknown(
            self.layout,
            range,
            "unknown-class",
            "class",
            &name,
            None,
            None,
            out,
        );
    }

    /// Qualified type references in type positions must name a type alias
    /// or a resource type (class or defined type) of the workspace. Built-in
    /// and core resource types are never qualified.
    fn check_type_expr(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        for reference in node.descendants().filter_map(ast::TypeReference::cast) {
            let name = reference.name();
            if !name.contains("::") {
                continue;
            }
            let known = [Namespace::Type, Namespace::DefinedType, Namespace::Class]
                .iter()
                .any(|&ns| !lookup(self.db, self.workspace, ns, &name).is_empty());
            if known {
                continue;
            }
            let range = reference.syntax().text_range();
            report_unknown(
                self.layout,
                range,
                "unknown-type",
                "type",
                &name,
                None,
                None,
                out,
            );
        }
    }
}
