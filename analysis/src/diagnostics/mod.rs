//! Diagnostics of a file in its workspace: syntax and validation problems,
//! then what only the workspace can tell: definitions in the wrong file for
//! autoloading, duplicate definitions, and references to classes and types
//! that exist nowhere.
//!
//! A reference into a module that is not in the workspace at all (a
//! dependency not checked out) is a warning: the code may well be right.
//! A reference into a module that is there, to a name it does not define,
//! is an error: Puppet will fail to compile that catalog.

mod arguments;
mod calls;
mod certain_failures;
mod data_files;
mod dependencies;
mod documentation;
mod legacy_facts;
pub use legacy_facts::legacy_fact_fix;
mod metadata_files;
mod resources;
mod statements;
mod templates;
pub mod types;
pub use data_files::data_file_diagnostics;
pub use metadata_files::metadata_file_diagnostics;
mod variables;
mod workspace_types;

use crate::db::{line_index, parse, Item, SourceFile, Workspace};
use crate::hir::body::SegmentRange;
use crate::hir::items::definition_name_range;
use crate::hir::items::{ItemContent, ItemPlace, TopStatement};
use crate::hir::{item_source_map, DefKind};
use crate::index::{lookup, Namespace};
use crate::resolve::scope::item_scopes;
use crate::target::{PuppetVersion, Strict, Target};
use crate::workspace::{autoload_expectation, Layout};
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use puppet_syntax::validation::{idle_statement, is_item, validate_item, ItemContext};
use puppet_syntax::Code;
use puppet_syntax::{Severity, SyntaxError, SyntaxKind, SyntaxNode, TextRange};
use std::sync::Arc;

/// A problem in a file, with a stable code.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub range: TextRange,
    pub severity: Severity,
    pub code: Code,
    /// Shared: placing an item's diagnostics in its file after each
    /// keystroke copies no text.
    pub message: Arc<str>,
    /// Another place the message refers to (an earlier assignment).
    pub related: Option<TextRange>,
}

impl From<&SyntaxError> for Diagnostic {
    fn from(e: &SyntaxError) -> Diagnostic {
        Diagnostic {
            range: e.range,
            severity: e.severity,
            code: e.code,
            message: Arc::from(e.message.as_str()),
            related: None,
        }
    }
}

impl Diagnostic {
    /// Stands in a message for the line of [`Diagnostic::related`]: an
    /// item's diagnostics are position-free until the file places them.
    const LINE: &'static str = "{line}";

    /// A diagnostic of a severity its code may be reported with.
    fn new(
        range: TextRange,
        severity: Severity,
        code: Code,
        message: impl Into<Arc<str>>,
    ) -> Diagnostic {
        debug_assert!(
            code.reported().allows(severity),
            "{code} is not reported as {severity:?}"
        );
        Diagnostic {
            range,
            severity,
            code,
            message: message.into(),
            related: None,
        }
    }

    fn error(range: TextRange, code: Code, message: impl Into<Arc<str>>) -> Diagnostic {
        Diagnostic::new(range, Severity::Error, code, message)
    }

    fn warning(range: TextRange, code: Code, message: impl Into<Arc<str>>) -> Diagnostic {
        Diagnostic::new(range, Severity::Warning, code, message)
    }
}

/// A diagnostic of an item, its positions relative to segments of the
/// item's content (see [`crate::hir::items::ItemContent`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ItemDiagnostic {
    segment: u32,
    related_segment: u32,
    diagnostic: Diagnostic,
}

impl ItemDiagnostic {
    /// A diagnostic of segment `segment` (its related place, if any, in the
    /// same segment).
    fn in_segment(segment: u32, diagnostic: Diagnostic) -> ItemDiagnostic {
        ItemDiagnostic {
            segment,
            related_segment: segment,
            diagnostic,
        }
    }

    /// The diagnostic placed in its file: ranges moved to their segments,
    /// the related place's line filled in.
    fn placed(&self, place: &ItemPlace, lines: &LineIndex) -> Diagnostic {
        let mut placed = self.diagnostic.clone();
        placed.range = place.absolute(SegmentRange::new(self.segment, placed.range));
        if let Some(related) = &mut placed.related {
            *related = place.absolute(SegmentRange::new(self.related_segment, *related));
            let line = lines.line_col(related.start(), ColumnEncoding::Utf8).line + 1;
            placed.message = placed
                .message
                .replace(Diagnostic::LINE, &line.to_string())
                .into();
        }
        placed
    }
}

/// Syntax errors and validation problems of the file alone (what the
/// server shows at once after a keystroke).
#[salsa::tracked(returns(ref))]
pub fn syntax_diagnostics(db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
    let validations = file.items(db).iter().enumerate();
    in_text_order(
        db,
        file,
        validations.map(|(index, &item)| (index, item_validation(db, item).as_slice())),
    )
}

/// A file's syntax errors and its items' diagnostics (by index in its item
/// list) placed in the file, in text order.
fn in_text_order<'a>(
    db: &dyn salsa::Database,
    file: SourceFile,
    reports: impl IntoIterator<Item = (usize, &'a [ItemDiagnostic])>,
) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = parse(db, file)
        .errors()
        .iter()
        .map(Diagnostic::from)
        .collect();
    let places = &file.places(db).items;
    let lines = line_index(db, file);
    for (index, diagnostics) in reports {
        let Some(place) = places.get(index) else {
            continue;
        };
        out.extend(diagnostics.iter().map(|d| d.placed(place, lines)));
    }
    out.sort_by_key(|d| (d.range.start(), d.range.end()));
    out
}

/// Puppet's validation of one item, segment by segment.
#[salsa::tracked(returns(ref))]
fn item_validation(db: &dyn salsa::Database, item: Item) -> Vec<ItemDiagnostic> {
    let context = if item.in_class(db) {
        ItemContext::InClass
    } else {
        ItemContext::TopLevel
    };
    let content = item.content(db);
    let mut out = Vec::new();
    for (segment, root) in content.segments().iter().enumerate() {
        // A top level's code comes in runs; its parameter header is a tree
        // of its own.
        let context = match content {
            ItemContent::TopLevel { .. } if root.kind() == SyntaxKind::SOURCE_FILE => {
                ItemContext::TopLevelRun
            }
            _ => context,
        };
        out.extend(
            validate_item(root, context)
                .iter()
                .map(|e| ItemDiagnostic::in_segment(segment as u32, Diagnostic::from(e))),
        );
    }
    out.extend(forgotten_top_level_value(content));
    out
}

/// A file's top level: the first statement that produces a value nothing
/// uses, when another statement (code or a definition) follows it.
fn forgotten_top_level_value(content: &ItemContent) -> Option<ItemDiagnostic> {
    let ItemContent::TopLevel { statements, .. } = content else {
        return None;
    };
    let code = content.top_level_code();
    let last_is_code = matches!(statements.last(), Some(TopStatement::Code(_)));
    let candidates = code.len() - usize::from(last_is_code && !code.is_empty());
    code[..candidates].iter().find_map(|(segment, statement)| {
        let error = idle_statement(statement)?;
        Some(ItemDiagnostic::in_segment(
            *segment,
            Diagnostic::from(&error),
        ))
    })
}

/// Every diagnostic of a file, in text order: the syntax errors, then
/// what each item reports (see [`chunk_reports`]), placed in the file.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<Diagnostic> {
    let chunks = 0..file.items(db).len().div_ceil(REPORT_CHUNK);
    let reports = chunks.flat_map(|chunk| chunk_reports(db, workspace, file, chunk as u32));
    in_text_order(
        db,
        file,
        reports.map(|(index, diagnostics)| (*index as usize, diagnostics.as_slice())),
    )
}

/// How many consecutive items of a file one [`chunk_reports`] covers.
const REPORT_CHUNK: usize = 32;

/// What the items of one chunk of a file report, position-free, for the
/// items that report something (by index in the file's item list). After
/// a keystroke only the edited item's chunk depends on what changed: the
/// database confirms every other chunk at once (they read only inputs
/// that did not change), so a file's diagnostics cost its chunks, not its
/// items.
#[salsa::tracked(returns(ref))]
fn chunk_reports(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    chunk: u32,
) -> Vec<(u32, Vec<ItemDiagnostic>)> {
    let items = file.items(db);
    let first = chunk as usize * REPORT_CHUNK;
    let chunk_items = items.iter().enumerate().skip(first).take(REPORT_CHUNK);
    chunk_items
        .filter_map(|(index, &item)| {
            let report = item_report(db, workspace, item);
            (!report.is_empty()).then_some((index as u32, report))
        })
        .collect()
}

/// Puppet's validation under the target's `strict`: a duplicate key in a
/// hash literal (`DUPLICATE_KEY`) is ignored under `off`, a warning under
/// `warning` (as the syntax crate reports it), an error under `error`
/// (Puppet 8's default), where `puppet parser validate` already fails.
pub(crate) fn under_strict(mut d: Diagnostic, target: Target) -> Option<Diagnostic> {
    if d.code != Code::DuplicateKey {
        return Some(d);
    }
    match target.strict {
        Strict::Off => None,
        Strict::Warning => Some(d),
        Strict::Error => {
            d.severity = Severity::Error;
            d.message = format!(
                "{}: Puppet {} fails on it (strict = error), already at `puppet parser validate`",
                d.message, target.version
            )
            .into();
            Some(d)
        }
    }
}

/// Everything one item reports: Puppet's validation, its autoload
/// location, a duplicate definition, and what the workspace says about it.
fn item_report(db: &dyn salsa::Database, workspace: Workspace, item: Item) -> Vec<ItemDiagnostic> {
    let target = workspace.target(db);
    let mut out: Vec<ItemDiagnostic> = item_validation(db, item)
        .iter()
        .filter_map(|d| {
            Some(ItemDiagnostic {
                diagnostic: under_strict(d.diagnostic.clone(), target)?,
                ..*d
            })
        })
        .collect();
    if target.version >= PuppetVersion::V8 {
        if let ItemContent::Definition(green) = item.content(db) {
            if let Some(class) = ast::ClassDef::cast(green.syntax()) {
                out.extend(
                    types::non_literal_parameter_types(&class)
                        .into_iter()
                        .map(|d| ItemDiagnostic::in_segment(0, d)),
                );
            }
        }
    }
    out.extend(location_problems(db, workspace.layout(db), item));
    if let Some(message) = duplicate_definition(db, workspace, item) {
        out.push(ItemDiagnostic::in_segment(
            0,
            Diagnostic::error(
                name_range(db, item),
                Code::DuplicateDefinition,
                message.clone(),
            ),
        ));
    }
    out.extend(item_diagnostics(db, workspace, item).iter().cloned());
    out.extend(
        dependencies::undeclared_dependencies(db, workspace, item)
            .iter()
            .cloned(),
    );
    out
}

/// Where a definition's name is in its own tree (its first segment).
fn name_range(db: &dyn salsa::Database, item: Item) -> TextRange {
    match item.content(db) {
        ItemContent::Definition(green) => definition_name_range(&green.syntax()),
        ItemContent::TopLevel { .. } => TextRange::default(),
    }
}

/// Every node of an item's segment in preorder, without the nested
/// definitions, which are items of their own.
pub(super) fn for_each_node(root: &SyntaxNode, mut visit: impl FnMut(&SyntaxNode)) {
    let mut walk = root.preorder();
    while let Some(event) = walk.next() {
        let puppet_syntax::WalkEvent::Enter(node) = event else {
            continue;
        };
        if node != *root && is_item(&node) {
            walk.skip_subtree();
            continue;
        }
        visit(&node);
    }
}

/// What the workspace says about one item: references to classes, types
/// and functions, resources against what their types accept, calls,
/// templates, constant types and values, variables. An edit elsewhere
/// leaves them as they are unless something they read (a signature, a
/// class's variables, a type alias) changed.
#[salsa::tracked(returns(ref))]
pub(crate) fn item_diagnostics(
    db: &dyn salsa::Database,
    workspace: Workspace,
    item: Item,
) -> Vec<ItemDiagnostic> {
    let map = item_source_map(db, item);
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
        defaults: resources::file_resource_defaults(db, item.file(db)),
    };
    let types = crate::infer::infer_item(db, workspace, item);
    let templates = templates::TemplateChecks {
        db,
        workspace,
        layout,
        module_name: layout
            .module_of(item.file(db).path(db))
            .map(|(m, _)| m.name.as_str()),
    };
    let param_type = |attribute: &ast::Attribute| declared_param_type(db, workspace, attribute);
    let workspace_types = workspace_types::WorkspaceTypes::new(db, workspace);
    let target = workspace.target(db);
    let builtins = crate::db::workspace_builtins(db, workspace);
    for (segment, root) in item.content(db).segments().iter().enumerate() {
        let segment = segment as u32;
        let calls = calls::CallChecks {
            db,
            workspace,
            layout,
            types,
            source_map: &map,
            segment,
            workspace_types: &workspace_types,
        };
        let mut found = Vec::new();
        for_each_node(root, |node| {
            references.check(node, &mut found);
            resources.check(node, &mut found);
            calls.check(node, &mut found);
            types::check(node, &param_type, &workspace_types, &mut found);
            statements::check(node, &mut found);
            templates.check(node, &mut found);
            legacy_facts::check(node, target, builtins, &mut found);
        });
        out.extend(
            found
                .into_iter()
                .map(|d| ItemDiagnostic::in_segment(segment, d)),
        );
    }
    // A definition's puppet-strings comment against its parameters.
    if let ItemContent::Definition(green) = item.content(db) {
        let mut found = Vec::new();
        documentation::check(&green.syntax(), &workspace_types, &mut found);
        out.extend(found.into_iter().map(|d| ItemDiagnostic::in_segment(0, d)));
    }
    // The top level's statements are one list across its runs.
    let duplicates = statements::duplicate_resources(item.content(db).top_level_code().into_iter());
    out.extend(
        duplicates
            .into_iter()
            .map(|(segment, d)| ItemDiagnostic::in_segment(segment, d)),
    );
    let scopes = item_scopes(db, workspace, item);
    variables::check_variables(scopes, &map, target, &mut out);
    certain_failures::check(crate::hir::item_body(db, item), types, &map, &mut out);
    out
}

/// Definitions must be where autoloading looks for them, and autoloaded
/// files may hold nothing but definitions: what breaks that in one item.
fn location_problems(db: &dyn salsa::Database, layout: &Layout, item: Item) -> Vec<ItemDiagnostic> {
    let Some(expected) = autoload_expectation(layout, item.file(db).path(db)) else {
        return Vec::new();
    };
    let statement_problem = |segment: u32, statement: &SyntaxNode| {
        let range = ast::first_significant_token(statement)
            .map_or(statement.text_range(), |t| t.text_range());
        ItemDiagnostic::in_segment(
            segment,
            Diagnostic::error(
                range,
                Code::TopLevelStatementInModule,
                "a module's autoloaded file may only contain definitions (class, define, function, type); this statement belongs in a class".to_string(),
            ),
        )
    };
    let content = item.content(db);
    if matches!(content, ItemContent::TopLevel { .. }) {
        return content
            .top_level_code()
            .iter()
            .filter(|(_, statement)| {
                !matches!(
                    statement,
                    Expr::ClassDef(_)
                        | Expr::DefineDef(_)
                        | Expr::FunctionDef(_)
                        | Expr::TypeAlias(_)
                        | Expr::PlanDef(_)
                )
            })
            .map(|(segment, statement)| statement_problem(*segment, statement.syntax()))
            .collect();
    }
    let Some(def) = item.signature(db).as_ref() else {
        return Vec::new();
    };
    let name = def.name.to_lowercase();
    let ok = match def.kind {
        DefKind::TypeAlias => expected.dir == "types" && name == expected.namespace,
        DefKind::Node => {
            // A node statement is not a definition autoloading can find.
            return content
                .segments()
                .first()
                .filter(|_| !item.in_class(db))
                .map(|root| statement_problem(0, root))
                .into_iter()
                .collect();
        }
        DefKind::Function => expected.dir == "functions" && name.starts_with(&expected.namespace),
        DefKind::Plan => expected.dir == "plans" && name.starts_with(&expected.namespace),
        DefKind::Class | DefKind::DefinedType => {
            expected.dir == "manifests" && name.starts_with(&expected.namespace)
        }
    };
    if ok {
        return Vec::new();
    }
    vec![ItemDiagnostic::in_segment(
        0,
        Diagnostic::error(
            name_range(db, item),
            Code::DefinitionLocation,
            format!(
                "the {} '{}' cannot be autoloaded from this file: this file may only define '{}'",
                def.kind.describe(),
                def.name,
                expected.namespace
            ),
        ),
    )]
}

/// Why a definition is a duplicate, when it is: another definition of the
/// workspace has its name (classes and defined types are both resource
/// types, so a name may not be both). Position-free, so a keystroke
/// elsewhere leaves it as it was.
#[salsa::tracked(returns(ref))]
fn duplicate_definition(
    db: &dyn salsa::Database,
    workspace: Workspace,
    item: Item,
) -> Option<String> {
    let def = item.signature(db).as_ref()?;
    if def.kind == DefKind::Node {
        return None;
    }
    let namespace = Namespace::of(def.kind);
    let mut namespaces = vec![namespace];
    match namespace {
        Namespace::Class => namespaces.push(Namespace::DefinedType),
        Namespace::DefinedType => namespaces.push(Namespace::Class),
        _ => {}
    }
    let other = namespaces
        .into_iter()
        .flat_map(|ns| lookup(db, workspace, ns, &def.name))
        .map(|r| r.location)
        .find(|l| l.item != item)?;
    let where_ = if other.file == item.file(db) {
        "in this file".to_string()
    } else {
        format!("in {}", other.file.path(db).display())
    };
    Some(format!(
        "'{}' is defined more than once (also {where_})",
        def.name
    ))
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

impl<'a> Suggestion<'a> {
    /// The closest name: one Puppet itself defines first, else one of the
    /// workspace's (each list ordered best first).
    pub fn best(core: &'a [String], workspace: &'a [String]) -> Option<Suggestion<'a>> {
        core.first()
            .map(|name| Suggestion { name, core: true })
            .or_else(|| {
                workspace
                    .first()
                    .map(|name| Suggestion { name, core: false })
            })
    }
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
    code: Code,
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

/// The classes an include-like declaration names: `include x`,
/// `contain x`, `require x` and their call forms, with several names or
/// arrays of them; the function's name, and each name that is static
/// (computed ones are left out) with where it is written.
pub(super) fn included_classes(node: &SyntaxNode) -> Option<(String, Vec<(String, TextRange)>)> {
    let (name, args): (Option<String>, Vec<Expr>) = match Expr::cast(node.clone()) {
        Some(Expr::StatementCall(c)) => (c.name(), c.args().collect()),
        Some(Expr::CallExpr(c)) => (c.function_name(), c.args()),
        _ => return None,
    };
    let name = name.filter(|n| matches!(n.as_str(), "include" | "contain" | "require"))?;
    let mut classes = Vec::new();
    for arg in &args {
        let items: Vec<Expr> = match arg {
            Expr::ArrayExpr(a) => a.elements().collect(),
            other => vec![other.clone()],
        };
        for item in items {
            if let Some(class) = item.static_string() {
                classes.push((class, item.syntax().text_range()));
            }
        }
    }
    Some((name, classes))
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
        let Some((_, classes)) = included_classes(node) else {
            return;
        };
        for (class, range) in classes {
            self.resolve_class(&class, range, out);
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
        if name.is_empty() || name == "settings" {
            return;
        }
        if !lookup(self.db, self.workspace, Namespace::Class, &name).is_empty() {
            self.refused_module(&name, range, out);
            return;
        }
        report_unknown(
            self.layout,
            range,
            Code::UnknownClass,
            "class",
            &name,
            None,
            None,
            out,
        );
    }

    /// Under `strict = error`, Puppet refuses a module whose metadata.json
    /// does not parse: declaring one of its classes fails ("Could not find
    /// class").
    fn refused_module(&self, class: &str, range: TextRange, out: &mut Vec<Diagnostic>) {
        let target = self.workspace.target(self.db);
        let module = class.split("::").next().unwrap_or_default();
        if target.strict_errors()
            && crate::metadata::unparsable_metadata_modules(self.db, self.workspace)
                .contains(module)
        {
            out.push(Diagnostic::error(
                range,
                Code::UnknownClass,
                format!(
                    "Could not find class ::{class}: Puppet {} refuses module '{module}', whose metadata.json does not parse (strict = error)",
                    target.version
                ),
            ));
        }
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
                Code::UnknownType,
                "type",
                &name,
                None,
                None,
                out,
            );
        }
    }
}
