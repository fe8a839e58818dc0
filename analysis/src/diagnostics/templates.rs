//! `epp('module/file.epp', { ... })` checked against the template: the
//! file must exist in the module's `templates/`, and when the template
//! declares parameters (`<%- |String $x, $y = 1| -%>`), the hash must give
//! every parameter without a default (an `Optional` type does not make one
//! optional; a key given undef counts) and no parameter the template does
//! not declare (a key given undef aside).
//!
//! `inline_epp('...', { ... })` whose text is written out (see
//! [`crate::hir::inline_template`]): the text must parse as EPP (Puppet
//! fails on it: "Invalid EPP"), and the hash must match its parameter
//! header in the same way. What the template reads is resolved with the
//! body it is written in ([`crate::resolve::scope`]).
//!
//! The other references to a module's files ([`crate::links`]) must name
//! files the module has: every template of `template()` (else compiling
//! fails), one of the names given to `file()` (else compiling fails), one
//! of the `puppet:///modules/` URLs of a `source` (else applying fails on
//! the agent, so only a warning).

use super::Diagnostic;
use crate::db::{parse, SourceFile, Workspace};
use crate::hir::inline_template::{inline_epp, InlineEpp, MAX_TEMPLATE_NESTING};
use crate::links::{links_at, LinkContext, LinkKind, ModuleLink};
use crate::workspace::{Layout, TemplateFunction};
use puppet_syntax::ast::{self, AstNode, Expr, LiteralValue, TextOrigin};
use puppet_syntax::{Code, SourceKind, TextRange};
use puppet_syntax::{SyntaxKind, SyntaxNode};
use std::collections::BTreeSet;

pub(super) struct TemplateChecks<'a> {
    pub db: &'a dyn salsa::Database,
    pub workspace: Workspace,
    pub layout: &'a Layout,
    /// The module of the file checked (for `"${module_name}/x"`).
    pub module_name: Option<&'a str>,
}

/// A template parameter: its name, and whether it must be given.
struct TemplateParam {
    name: String,
    required: bool,
}

impl TemplateChecks<'_> {
    pub fn check(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        self.check_links(node, out);
        self.check_epp(node, out);
        if let Some(call) = ast::CallExpr::cast(node.clone()) {
            self.check_inline_epp(&call, &mut Vec::new(), out);
        }
    }

    /// `template()`, `file()` and `source` naming files that do not exist.
    fn check_links(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let context = LinkContext {
            layout: self.layout,
            assets: self.workspace.assets(self.db),
            module_name: self.module_name,
        };
        let links = links_at(node, &context);
        let missing = |link: &&ModuleLink| !link.exists;
        let any_exists = links.iter().any(|l| l.exists);
        for link in links.iter().filter(missing) {
            let place = || in_module(self.layout, &link.target);
            let name = &link.reference;
            match link.kind {
                LinkKind::Template(TemplateFunction::Erb) => out.push(Diagnostic::error(
                    link.range,
                    Code::UnknownTemplate,
                    format!("template '{name}' does not exist (no {})", place()),
                )),
                LinkKind::Template(TemplateFunction::Epp) => {} // With its parameters below.
                // The first name that exists is read: an error only when
                // none does (and every name could be resolved).
                LinkKind::File if !any_exists && links.len() == file_args(node) => {
                    out.push(Diagnostic::error(
                        link.range,
                        Code::UnknownModuleFile,
                        format!("file '{name}' does not exist (no {})", place()),
                    ))
                }
                LinkKind::Source if !any_exists && links.len() == source_values(node) => {
                    out.push(Diagnostic::warning(
                        link.range,
                        Code::UnknownModuleFile,
                        format!(
                            "source '{name}' does not exist (no {}): applying the catalog fails",
                            place()
                        ),
                    ))
                }
                LinkKind::File | LinkKind::Source => {}
            }
        }
    }

    fn check_epp(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let Some(call) = ast::CallExpr::cast(node.clone()) else {
            return;
        };
        if call.function_name().as_deref() != Some("epp") {
            return;
        }
        let args = call.args();
        let Some(reference) = args.first() else {
            return;
        };
        let Some(name) = reference.static_string() else {
            return;
        };
        // Not checked when the module is not in the workspace.
        let Some(path) = self.layout.template_file(TemplateFunction::Epp, &name) else {
            return;
        };
        let Some(template) = self
            .workspace
            .files(self.db)
            .iter()
            .copied()
            .find(|f| *f.path(self.db) == path)
        else {
            out.push(Diagnostic::error(
                reference.syntax().text_range(),
                Code::UnknownTemplate,
                format!(
                    "template '{name}' does not exist (no {})",
                    in_module(self.layout, &path)
                ),
            ));
            return;
        };
        let Some(params) = template_params(self.db, template) else {
            // No parameter header: the template's variables are the keys of
            // the hash passed (and top-scope variables).
            self.check_unpassed_variables(template, &name, reference, args.get(1), out);
            return;
        };
        let template = format!("template '{name}'");
        let at = reference.syntax().text_range();
        check_arguments(&params, args.get(1), at, &template, &|r| r, out);
    }

    /// An `inline_epp()` call whose text is written out: the text must
    /// parse as EPP, and the hash must match the template's parameter
    /// header. Then the same for the `inline_epp()` calls of the template
    /// itself, whose positions go through `origins` (the texts around,
    /// innermost last).
    fn check_inline_epp(
        &self,
        call: &ast::CallExpr,
        origins: &mut Vec<TextOrigin>,
        out: &mut Vec<Diagnostic>,
    ) {
        let Some(InlineEpp {
            parse,
            origin,
            literal,
        }) = inline_epp(call)
        else {
            return;
        };
        let outward = |origins: &[TextOrigin], range: TextRange| {
            origins
                .iter()
                .rev()
                .fold(range, |range, origin| origin.source_range(range))
        };
        let target = self.workspace.target(self.db);
        let root = parse.syntax_node();
        let mut problems = parse.errors().to_vec();
        problems.extend(puppet_syntax::validation::validate(
            &root,
            SourceKind::Template,
        ));
        for problem in &problems {
            let mut d = Diagnostic::from(problem);
            d.range = outward(origins, origin.source_range(problem.range));
            d.message = format!("invalid EPP in inline_epp(): {}", problem.message).into();
            out.extend(super::under_strict(d, target));
        }
        if parse
            .errors()
            .iter()
            .any(|e| e.severity == puppet_syntax::Severity::Error)
        {
            // Puppet fails on the text before it renders anything.
            return;
        }
        if let Some(params) = header_params(&parse.tree()) {
            // The call is in the text around the template.
            let around = |range: TextRange| outward(origins, range);
            let at = around(literal.syntax().text_range());
            let hash = call.args().get(1).cloned();
            let what = "the inline_epp() template";
            check_arguments(&params, hash.as_ref(), at, what, &around, out);
        }
        if origins.len() + 1 >= MAX_TEMPLATE_NESTING {
            return;
        }
        origins.push(origin);
        for node in root.descendants() {
            if node.kind() == SyntaxKind::CALL_EXPR {
                if let Some(inner) = ast::CallExpr::cast(node) {
                    self.check_inline_epp(&inner, origins, out);
                }
            }
        }
        origins.pop();
    }
}

/// A call's hash against a template's parameters: every parameter without
/// a default must be a key (an `Optional` type does not make it optional,
/// a key given undef counts), and every key must name a parameter (Puppet
/// drops the keys given undef before matching names). Only when the hash
/// is written out (or absent). `at` is where a missing parameter is
/// reported; `place` places the hash's ranges.
fn check_arguments(
    params: &[TemplateParam],
    hash: Option<&Expr>,
    at: TextRange,
    template: &str,
    place: &dyn Fn(TextRange) -> TextRange,
    out: &mut Vec<Diagnostic>,
) {
    let declared: BTreeSet<&str> = params.iter().map(|p| p.name.as_str()).collect();
    let given: Vec<(String, Expr, bool)> = match hash {
        Some(Expr::HashExpr(hash)) => {
            let entries: Option<Vec<(String, Expr, bool)>> = hash
                .entries()
                .map(|e| {
                    let key = e.key()?;
                    let undef = matches!(e.value(), Some(Expr::Literal(l)) if l.value() == Some(LiteralValue::Undef));
                    Some((key.static_string()?, key, undef))
                })
                .collect();
            match entries {
                Some(entries) => entries,
                None => return, // Computed keys: not checkable.
            }
        }
        Some(_) => return, // A computed hash: not checkable.
        None => Vec::new(),
    };
    for (key, expr, undef) in &given {
        if !undef && !declared.contains(key.as_str()) {
            out.push(Diagnostic::error(
                place(expr.syntax().text_range()),
                Code::EppUnknownParameter,
                format!("{template} has no parameter '{key}'"),
            ));
        }
    }
    let given_names: BTreeSet<&str> = given.iter().map(|(k, _, _)| k.as_str()).collect();
    let missing: Vec<String> = params
        .iter()
        .filter(|p| p.required && !given_names.contains(p.name.as_str()))
        .map(|p| format!("'{}'", p.name))
        .collect();
    if !missing.is_empty() {
        out.push(Diagnostic::error(
            at,
            Code::EppMissingParameter,
            format!("{template} expects a value for {}", missing.join(", ")),
        ));
    }
}

impl TemplateChecks<'_> {
    /// A template without parameters reads its variables from the hash
    /// `epp()` passes: where reading an unknown variable fails (Puppet 8),
    /// a variable this call does not pass, and nothing else sets, fails in
    /// the template. Reported at the call, which decides it; only when the
    /// call's hash is written out (or absent).
    fn check_unpassed_variables(
        &self,
        template: SourceFile,
        name: &str,
        reference: &Expr,
        hash: Option<&Expr>,
        out: &mut Vec<Diagnostic>,
    ) {
        let target = self.workspace.target(self.db);
        if !target.unknown_variables_fail() {
            return;
        }
        let passed: BTreeSet<String> = match hash {
            Some(Expr::HashExpr(hash)) => {
                let keys: Option<BTreeSet<String>> =
                    hash.entries().map(|e| e.key()?.static_string()).collect();
                match keys {
                    Some(keys) => keys,
                    None => return,
                }
            }
            Some(_) => return,
            None => BTreeSet::new(),
        };
        let mut unpassed: BTreeSet<String> = BTreeSet::new();
        for &item in template.items(self.db) {
            let scopes = crate::resolve::scope::item_scopes(self.db, self.workspace, item);
            for reference in &scopes.refs {
                if reference.target == crate::resolve::scope::Target::TemplateArgument
                    && !passed.contains(reference.name.as_str())
                {
                    unpassed.insert(reference.name.to_string());
                }
            }
        }
        if unpassed.is_empty() {
            return;
        }
        let names: Vec<String> = unpassed.iter().map(|n| format!("'${n}'")).collect();
        out.push(Diagnostic::error(
            reference.syntax().text_range(),
            Code::UnknownVariable,
            format!(
                "template '{name}' reads {}, which this call does not pass and nothing else sets: Puppet {} fails in the template (Unknown variable)",
                names.join(", "),
                target.version
            ),
        ));
    }
}

/// A file of a module for messages: `files/x of module m`.
fn in_module(layout: &Layout, path: &std::path::Path) -> String {
    match layout.module_of(path) {
        Some((module, inside)) => format!("{} in module {}", inside.display(), module.name),
        None => path.display().to_string(),
    }
}

/// How many arguments a `file()` call has.
fn file_args(node: &SyntaxNode) -> usize {
    ast::CallExpr::cast(node.clone()).map_or(0, |call| call.args().len())
}

/// How many values a `source` attribute gives (one, or a list's).
fn source_values(node: &SyntaxNode) -> usize {
    match ast::Attribute::cast(node.clone()).and_then(|a| a.value()) {
        Some(Expr::ArrayExpr(array)) => array.elements().count(),
        Some(_) => 1,
        None => 0,
    }
}

/// The parameters a template file declares, or `None` without a header.
fn template_params(db: &dyn salsa::Database, template: SourceFile) -> Option<Vec<TemplateParam>> {
    header_params(&parse(db, template).tree())
}

/// The parameters a template's header declares, or `None` without one.
/// One without a default must be given, whatever its type.
fn header_params(tree: &ast::SourceFile) -> Option<Vec<TemplateParam>> {
    let list = tree.epp_params()?.params()?;
    Some(
        list.params()
            .filter_map(|p| {
                Some(TemplateParam {
                    required: p.default_value().is_none() && !p.captures_rest(),
                    name: p.name()?,
                })
            })
            .collect(),
    )
}
