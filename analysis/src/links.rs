//! References from code to the files of modules: `template('mod/x.erb')`,
//! `epp('mod/x.epp')`, `file('mod/x')` and `source => 'puppet:///modules/
//! mod/x'`. Each is resolved as Puppet resolves it (see [`Layout`]) and
//! checked against the workspace's assets. The editor shows them as links;
//! the diagnostics report the ones that point nowhere.

use crate::db::{parse, SourceFile, Workspace};
use crate::layout::{Layout, TemplateFunction};
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{SyntaxNode, TextRange, TextSize};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// How a file is referenced, which says what a missing one costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinkKind {
    /// A template of `template()` or `epp()`: every one must exist.
    Template(TemplateFunction),
    /// One of the names given to `file()`: the first that exists is read.
    File,
    /// A `puppet:///modules/` URL of a `source` attribute: the first of
    /// the list that exists is fetched, by the agent.
    Source,
}

/// A string in the code naming a file of a module of the workspace.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ModuleLink {
    /// The string's text, without its quotes.
    pub range: TextRange,
    pub kind: LinkKind,
    /// The reference as written (`mod/x.erb`, `puppet:///modules/mod/x`).
    pub reference: String,
    /// The file it names.
    pub target: PathBuf,
    pub exists: bool,
}

/// What the links of a file are resolved with: the workspace's modules and
/// their files, and the module the file is in (for `$module_name`).
pub struct LinkContext<'a> {
    pub layout: &'a Layout,
    pub assets: &'a BTreeSet<PathBuf>,
    pub module_name: Option<&'a str>,
}

/// The links of one call or attribute: `template('a', 'b')` has two, as
/// has a `source` list. Strings that are not static (other than
/// `"${module_name}/x"`), and modules that are not in the workspace, give
/// none.
pub fn links_at(node: &SyntaxNode, context: &LinkContext<'_>) -> Vec<ModuleLink> {
    let layout = context.layout;
    let link = |expr: &Expr, kind: LinkKind| -> Option<ModuleLink> {
        let reference = expr
            .static_string()
            .or_else(|| with_module_name(expr, context.module_name?))?;
        let target = match kind {
            LinkKind::Template(function) => layout.template_file(function, &reference)?,
            LinkKind::File => layout.module_file(&reference)?,
            LinkKind::Source => layout.module_file(module_url_path(&reference)?)?,
        };
        Some(ModuleLink {
            range: string_content(expr.syntax()),
            kind,
            exists: context.assets.contains(&target),
            reference,
            target,
        })
    };
    if let Some(call) = ast::CallExpr::cast(node.clone()) {
        let kind = match call.function_name().as_deref() {
            Some("file") => LinkKind::File,
            Some(name) => match TemplateFunction::from_name(name) {
                // `epp()` takes one template and its parameters.
                Some(TemplateFunction::Epp) => {
                    let args = call.args();
                    return args
                        .first()
                        .and_then(|a| link(a, LinkKind::Template(TemplateFunction::Epp)))
                        .into_iter()
                        .collect();
                }
                Some(function) => LinkKind::Template(function),
                None => return Vec::new(),
            },
            None => return Vec::new(),
        };
        return call.args().iter().filter_map(|a| link(a, kind)).collect();
    }
    if let Some(attribute) = ast::Attribute::cast(node.clone()) {
        if attribute.name().as_deref() != Some("source") {
            return Vec::new();
        }
        return match attribute.value() {
            Some(Expr::ArrayExpr(array)) => array
                .elements()
                .filter_map(|e| link(&e, LinkKind::Source))
                .collect(),
            Some(value) => link(&value, LinkKind::Source).into_iter().collect(),
            None => Vec::new(),
        };
    }
    Vec::new()
}

/// `mod/x` of `puppet:///modules/mod/x` or `puppet://server/modules/mod/x`;
/// `None` for other mount points, which the server's configuration defines.
fn module_url_path(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("puppet://")?;
    let (_server, path) = rest.split_once('/')?;
    path.strip_prefix("modules/")
}

/// A double-quoted string whose only interpolation is the module's name
/// (`"puppet:///modules/${module_name}/x"`, a common idiom), with the name
/// put in.
fn with_module_name(expr: &Expr, module_name: &str) -> Option<String> {
    let Expr::DqStringExpr(_) = expr else {
        return None;
    };
    let text = expr.syntax().text().to_string();
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let replaced = inner
        .replace("${module_name}", module_name)
        .replace("$module_name", module_name);
    (replaced != inner && !replaced.contains(['$', '\\'])).then_some(replaced)
}

/// A string literal's range without its quotes.
fn string_content(node: &SyntaxNode) -> TextRange {
    let range = node.text_range();
    let quoted = node
        .first_token()
        .is_some_and(|t| t.text().starts_with(['\'', '"']));
    if quoted && range.len() >= TextSize::from(2) {
        TextRange::new(
            range.start() + TextSize::from(1),
            range.end() - TextSize::from(1),
        )
    } else {
        range
    }
}

/// Every link of a file, in order.
#[salsa::tracked(returns(ref))]
pub fn file_links(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<ModuleLink> {
    let layout = workspace.layout(db);
    let context = LinkContext {
        layout,
        assets: workspace.assets(db),
        module_name: layout
            .module_of(file.path(db))
            .map(|(m, _)| m.name.as_str()),
    };
    parse(db, file)
        .syntax_node()
        .descendants()
        .flat_map(|node| links_at(&node, &context))
        .collect()
}
