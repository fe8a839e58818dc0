//! Code completion: what may be typed at a position, by context.
//!
//! [`context`] reads the tree and the tokens before the cursor (code being
//! typed is usually incomplete, so the parser's recovery is not trusted
//! alone) and says what is expected there: a variable, a resource type or
//! keyword at a statement start, an attribute name or value, a class name,
//! a type, a key of `$facts` or of a Struct. One module per family of
//! items produces them: [`variables`], [`resources`] (types, attributes,
//! values), [`names`] (classes, functions, types, keywords), [`keys`].
//!
//! Items are not filtered by the typed prefix: the client filters on
//! `filter_text` (or the label) against the text in `replace_range`.

mod context;
mod hiera_keys;
mod keys;
mod names;
mod resources;
mod variables;

use crate::Analysis;
use crate::{Cancellable, FilePosition};
use context::{Context, ContextKind};
use puppet_analysis::db::{parse, SourceFile, Workspace};
use puppet_syntax::TextRange;

/// One completion proposal, in plain data.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CompletionItem {
    /// What the list shows (`$servers`, `ensure`, `lookup`).
    pub label: String,
    pub kind: CompletionKind,
    /// A type or signature (`Array[String]`, `lookup(Variant[...] $name, ...)`).
    pub detail: Option<String>,
    /// A one-line description from the built-ins or a doc comment.
    pub documentation: Option<String>,
    /// The text to insert when it differs from the label.
    pub insert_text: Option<String>,
    /// `insert_text` has snippet placeholders (`lookup(${1:name})`).
    pub is_snippet: bool,
    /// The text the insertion replaces: the partial word (with its `$`),
    /// or the content between quotes; empty at the cursor otherwise.
    pub replace_range: TextRange,
    /// Sorts before the label when set (required attributes first).
    pub sort_text: Option<String>,
    /// What the client matches the typed text against, when not the label.
    pub filter_text: Option<String>,
}

/// What a completion item is, for icons and grouping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CompletionKind {
    Variable,
    Parameter,
    Class,
    DefinedType,
    ResourceType,
    Attribute,
    Metaparameter,
    Value,
    Function,
    Type,
    TypeAlias,
    Keyword,
    Fact,
    Key,
    Snippet,
}

impl CompletionItem {
    /// A plain item inserting its label.
    pub fn new(label: impl Into<String>, kind: CompletionKind, replace_range: TextRange) -> Self {
        CompletionItem {
            label: label.into(),
            kind,
            detail: None,
            documentation: None,
            insert_text: None,
            is_snippet: false,
            replace_range,
            sort_text: None,
            filter_text: None,
        }
    }

    fn detail(mut self, detail: Option<String>) -> Self {
        self.detail = detail;
        self
    }

    fn documentation(mut self, documentation: Option<&str>) -> Self {
        self.documentation = documentation.map(first_line);
        self
    }

    fn insert(mut self, text: impl Into<String>) -> Self {
        self.insert_text = Some(text.into());
        self
    }

    fn snippet(mut self, text: impl Into<String>) -> Self {
        self.insert_text = Some(text.into());
        self.is_snippet = true;
        self
    }
}

/// The first line of a description, trimmed.
fn first_line(text: &str) -> String {
    text.trim().lines().next().unwrap_or("").trim().to_string()
}

/// What the item producers need: the database, the file, the context.
pub(crate) struct Ctx<'a> {
    pub db: &'a dyn salsa::Database,
    pub workspace: Workspace,
    pub file: SourceFile,
    pub context: Context,
}

impl Analysis {
    /// The completions at a position (empty for unknown files, comments,
    /// and places where nothing in particular is expected).
    pub fn completions(&self, pos: &FilePosition) -> Cancellable<Vec<CompletionItem>> {
        self.with_db(|analysis| {
            if let Some(data) = analysis.data_file(&pos.path) {
                let (db, workspace) = (analysis.db(), analysis.workspace());
                return hiera_keys::in_data_file(db, workspace, data, pos.offset);
            }
            let Some(file) = analysis.file(&pos.path) else {
                return Vec::new();
            };
            completions(analysis.db(), analysis.workspace(), file, pos.offset)
        })
    }
}

fn completions(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    offset: puppet_syntax::TextSize,
) -> Vec<CompletionItem> {
    let root = parse(db, file).syntax_node();
    if offset > root.text_range().end() {
        return Vec::new();
    }
    if let Some(keys) = hiera_keys::in_lookup_call(db, workspace, &root, offset) {
        return keys;
    }
    let Some(context) = context::analyze(&root, offset) else {
        return Vec::new();
    };
    let ctx = Ctx {
        db,
        workspace,
        file,
        context,
    };
    let mut items = match &ctx.context.kind {
        ContextKind::Variable { braced } => variables::complete(&ctx, *braced),
        ContextKind::StatementStart { branches } => {
            let mut items = names::keywords(&ctx, true);
            items.extend(names::branch_keywords(&ctx, branches));
            items.extend(resources::types(&ctx));
            items.extend(names::functions(&ctx));
            items
        }
        ContextKind::Expression => {
            let mut items = names::keywords(&ctx, false);
            items.extend(names::functions(&ctx));
            items
        }
        ContextKind::TypeName => names::types(&ctx),
        ContextKind::ClassName(style) => names::classes(&ctx, *style),
        ContextKind::AttributeName(target) => resources::attributes(&ctx, target),
        ContextKind::AttributeValue(target, attribute) => {
            let values = resources::values(&ctx, target, attribute);
            if values.is_empty() && !ctx.context.in_string {
                let mut items = names::keywords(&ctx, false);
                items.extend(names::functions(&ctx));
                items
            } else {
                values
            }
        }
        ContextKind::AccessKey { access, quoted } => keys::complete(&ctx, access, *quoted),
    };
    let mut seen = std::collections::HashSet::new();
    items.retain(|item| seen.insert((item.label.clone(), item.kind)));
    items
}
