//! Parameter knowledge: what is known of one parameter of a class, defined
//! type, function or plan (its declared type and what the type's aliases
//! expand to, its default, where it is declared, its puppet-strings
//! `@param` and `@option`s, the Hiera key that binds a class parameter),
//! gathered in one place so that every answer about a parameter says the
//! same: hover on its declaration, on its uses and on the attribute that
//! sets it in a declaration (`class { 'web': port => 1 }`), completion of
//! attribute names and signature help. Plain data; hover renders it as
//! Markdown ([`ParameterInfo::markdown`]), completion and signature help,
//! whose editors show text, as text ([`ParameterInfo::text`]).

use super::type_aliases::expanded_text;
use super::FileRange;
use puppet_analysis::db::{parse, Item, SourceFile, Workspace};
use puppet_analysis::declared::strings::{OptionDoc, ParamDoc};
use puppet_analysis::hiera::data::hiera_key_index;
use puppet_analysis::hir::{
    file_definitions, item_documentation, item_node, DefKind, Documentation, ParamSummary,
    Signature,
};
use puppet_analysis::index::{lookup, Namespace, Resolved};
use puppet_syntax::ast::{self, AstNode};
use puppet_syntax::{SyntaxNode, TextRange};
use std::fmt::Write;

/// One parameter of a definition of the workspace, as people read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParameterInfo {
    /// What declares it.
    pub owner_kind: DefKind,
    /// The definition's name, as the index knows it (`web::vhost`).
    pub owner: String,
    pub name: String,
    /// The declared type as written (whitespace normalised); `None` when
    /// the parameter is untyped (it takes anything).
    pub type_text: Option<String>,
    /// The declared type with the workspace's aliases expanded, when it
    /// names any (`Web::Port` is `Integer[1, 65535]`).
    pub expanded_type: Option<String>,
    /// The default value as written.
    pub default: Option<String>,
    /// The whole declaration as written: `Web::Port $port = 80`.
    pub written: String,
    /// The `$name` of its declaration, and that line (1-based).
    pub declaration: FileRange,
    pub line: usize,
    /// Its `@param` tag (text, types in brackets), when documented.
    pub doc: Option<ParamDoc>,
    /// The `@option`s documenting its keys (a hash parameter).
    pub options: Vec<OptionDoc>,
    /// The definition's doc comment when it has no puppet-strings tags:
    /// older modules describe their parameters in prose.
    pub owner_doc: Option<String>,
    /// The key automatic parameter lookup reads (`class::param`), when
    /// some data file binds it (class parameters only).
    pub hiera_key: Option<String>,
}

/// The parameter declared by the `$name` token at `range` of `file` (a
/// parameter of a class, define, function or plan; `None` for lambda and
/// template parameters, and for anything else).
pub(crate) fn parameter_at(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    range: TextRange,
) -> Option<ParameterInfo> {
    let root = parse(db, file).syntax_node();
    let param = super::cursor::token_at(&root, range.start())?
        .parent_ancestors()
        .find_map(ast::Param::cast)?;
    let name = param.name()?;
    let definition = param.syntax().parent()?.parent()?;
    let (item, signature, _) =
        file_definitions(db, file).find(|(_, _, place)| place.range == definition.text_range())?;
    let summary = signature.params.iter().find(|p| p.name == name)?;
    let docs = item_documentation(db, item);
    Builder::new(db, workspace, item, signature, docs, &definition).build(summary)
}

/// Parameter `param` of the class or defined type (or function or plan)
/// `owner`, when the workspace defines it.
pub(crate) fn parameter_of(
    db: &dyn salsa::Database,
    workspace: Workspace,
    namespace: Namespace,
    owner: &str,
    param: &str,
) -> Option<ParameterInfo> {
    let found = lookup(db, workspace, namespace, owner);
    parameters_of(db, workspace, found.first()?)
        .into_iter()
        .find(|p| p.name == param)
}

/// Every parameter of a definition, in declaration order.
pub(crate) fn parameters_of(
    db: &dyn salsa::Database,
    workspace: Workspace,
    resolved: &Resolved,
) -> Vec<ParameterInfo> {
    let item = resolved.location.item;
    let Some(node) = item_node(db, item) else {
        return Vec::new();
    };
    let docs = item_documentation(db, item);
    let builder = Builder::new(db, workspace, item, &resolved.definition, docs, &node);
    resolved
        .definition
        .params
        .iter()
        .filter_map(|p| builder.build(p))
        .collect()
}

/// A parameter's declaration as written: `Type *$name = default`.
pub(crate) fn written(param: &ParamSummary, docs: &Documentation) -> String {
    let mut s = String::new();
    if let Some(t) = &param.type_text {
        s.push_str(t);
        s.push(' ');
    }
    if param.captures_rest {
        s.push('*');
    }
    s.push('$');
    s.push_str(&param.name);
    if let Some(default) = docs.default_of(&param.name) {
        s.push_str(" = ");
        s.push_str(default);
    }
    s
}

/// What the parameters of one definition share.
struct Builder<'a> {
    db: &'a dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    signature: &'a Signature,
    docs: &'a Documentation,
    /// Each parameter of the definition: its name and the range of its
    /// `$name` token.
    sites: Vec<(String, TextRange)>,
}

impl<'a> Builder<'a> {
    fn new(
        db: &'a dyn salsa::Database,
        workspace: Workspace,
        item: Item,
        signature: &'a Signature,
        docs: &'a Documentation,
        definition: &SyntaxNode,
    ) -> Self {
        let sites = definition
            .children()
            .find_map(ast::ParamList::cast)
            .into_iter()
            .flat_map(|list| list.params())
            .filter_map(|p| Some((p.name()?, p.variable_token()?.text_range())))
            .collect();
        Builder {
            db,
            workspace,
            file: item.file(db),
            signature,
            docs,
            sites,
        }
    }

    fn build(&self, summary: &ParamSummary) -> Option<ParameterInfo> {
        let (db, workspace) = (self.db, self.workspace);
        let range = self
            .sites
            .iter()
            .find(|(name, _)| *name == summary.name)
            .map(|(_, range)| *range)?;
        let text = self.file.text(db);
        let line = text
            .get(..usize::from(range.start()))
            .map_or(1, |before| before.matches('\n').count() + 1);
        let strings = &self.docs.strings;
        let hiera_key = (self.signature.kind == DefKind::Class)
            .then(|| format!("{}::{}", self.signature.name, summary.name))
            .filter(|key| hiera_key_index(db, workspace).contains_key(key));
        Some(ParameterInfo {
            owner_kind: self.signature.kind,
            owner: self.signature.name.clone(),
            name: summary.name.clone(),
            type_text: summary.type_text.clone(),
            expanded_type: summary
                .type_text
                .as_deref()
                .and_then(|t| expanded_text(db, workspace, t)),
            default: self.docs.default_of(&summary.name).map(str::to_string),
            written: written(summary, self.docs),
            declaration: FileRange {
                path: self.file.path(db).clone(),
                range,
            },
            line,
            doc: strings.param(&summary.name).cloned(),
            options: strings
                .options
                .iter()
                .filter(|o| o.param == summary.name)
                .cloned()
                .collect(),
            owner_doc: self
                .docs
                .doc
                .clone()
                .filter(|_| !strings.is_tagged())
                .filter(|d| !d.trim().is_empty()),
            hiera_key,
        })
    }
}

/// The keyword declaring a definition of this kind.
fn keyword(kind: DefKind) -> &'static str {
    match kind {
        DefKind::Class => "class",
        DefKind::DefinedType => "define",
        DefKind::Function => "function",
        DefKind::Plan => "plan",
        DefKind::TypeAlias => "type",
        DefKind::Node => "node",
    }
}

impl ParameterInfo {
    /// Markdown for hover: the declaration inside its definition's header,
    /// what its type expands to, what declares it and where, then its
    /// documentation. The Hiera data is the hover's to add (it reads the
    /// data files, and the node the user chose).
    pub fn markdown(&self) -> String {
        let mut md = format!(
            "```puppet\n{} {}(\n  {}\n)\n```\n",
            keyword(self.owner_kind),
            self.owner,
            self.written
        );
        if let Some(expanded) = &self.expanded_type {
            let _ = writeln!(md, "\nExpands to `{expanded}`");
        }
        let _ = writeln!(
            md,
            "\nParameter `${}` of {} `{}`, declared on line {} of `{}`",
            self.name,
            self.owner_kind.describe(),
            self.owner,
            self.line,
            self.declaration.path.display()
        );
        if let Some(doc) = self.doc_line() {
            let _ = writeln!(md, "\n{doc}");
        }
        if !self.options.is_empty() {
            let _ = writeln!(md, "\n**Options**\n");
            for o in &self.options {
                let types = o
                    .types
                    .as_deref()
                    .map(|t| format!(" `[{t}]`"))
                    .unwrap_or_default();
                let text = o.text.replace('\n', " ");
                let sep = if text.is_empty() { "" } else { ": " };
                let _ = writeln!(md, "- `{}`{types}{sep}{text}", o.key);
            }
        }
        if let Some(doc) = &self.owner_doc {
            let _ = writeln!(md, "\n{doc}");
        }
        md
    }

    /// Text for completion and signature help (their detail or label
    /// already shows the type and default): the documentation, the keys,
    /// the type's expansion, the Hiera key. `None` when there is nothing.
    pub fn text(&self) -> Option<String> {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.doc_line());
        for o in &self.options {
            let types = o
                .types
                .as_deref()
                .map(|t| format!(" [{t}]"))
                .unwrap_or_default();
            let text = o.text.replace('\n', " ");
            let sep = if text.is_empty() { "" } else { ": " };
            parts.push(format!("Option {}{types}{sep}{text}", o.key));
        }
        if let Some(expanded) = &self.expanded_type {
            parts.push(format!("{} expands to {expanded}", self.type_text_or_any()));
        }
        if let Some(key) = &self.hiera_key {
            parts.push(format!("Bound in Hiera by {key}"));
        }
        (!parts.is_empty()).then(|| parts.join("\n\n"))
    }

    /// A completion item's detail: the type, and the default when there
    /// is one (`Web::Port = 80`).
    pub fn detail(&self) -> String {
        match &self.default {
            Some(default) => format!("{} = {default}", self.type_text_or_any()),
            None => self.type_text_or_any().to_string(),
        }
    }

    /// The type an answer about the parameter's type gives: the declared
    /// type, `Any` only when none is declared.
    pub fn type_text_or_any(&self) -> &str {
        self.type_text.as_deref().unwrap_or("Any")
    }

    /// The `@param` text, with its bracketed types when it has them.
    fn doc_line(&self) -> Option<String> {
        let doc = self.doc.as_ref()?;
        let text = doc.text.trim();
        match &doc.types {
            Some(t) if text.is_empty() => Some(format!("[{t}]")),
            Some(t) => Some(format!("[{t}] {text}")),
            None if text.is_empty() => None,
            None => Some(text.to_string()),
        }
    }
}
