//! IDE features over the database, for the language server: hover,
//! completion, navigation, refactoring, symbols. Everything here answers in
//! plain data (paths, byte offsets and ranges, strings); the server turns
//! that into LSP types and positions.
//!
//! Each feature is one module adding methods to [`Analysis`]: the semantic
//! crate's read-only snapshot with the IDE's questions on top (it derefs to
//! the snapshot for diagnostics, paths and line indexes). Every method
//! returns `Err(Cancelled)` when a newer edit interrupts it, so the server
//! can drop the request.

pub mod document_links;
pub mod document_symbols;
pub mod folding;
pub mod selection;
pub mod semantic_tokens;
pub mod signature_help;
pub(crate) mod targets;
mod tree_helpers;
mod type_aliases;
mod untyped_parameter;
pub mod variable_types;

pub use document_links::DocumentLink;
pub use document_symbols::DocumentSymbol;
pub use folding::{Fold, FoldKind};
pub use semantic_tokens::{modifiers, SemanticToken, SemanticTokenKind, MODIFIER_LEGEND};
pub use signature_help::{ParamInfo, SignatureHelp, SignatureInfo};
pub use variable_types::VariableType;

use puppet_syntax::{TextRange, TextSize};
use std::collections::BTreeMap;
use std::path::PathBuf;

pub mod call_hierarchy;
pub mod code_lens;
pub mod completion;
pub mod cursor;
pub mod goto_definition;
mod hiera_data;
pub mod hover;
pub mod inlay_hints;
pub mod linked_editing;
mod module_metadata;
pub mod occurrences;
mod parameter_info;
pub mod quick_fixes;
pub mod references;
pub mod rename;
pub mod workspace_symbols;

pub use references::HighlightKind;
pub use salsa::Cancelled;

/// The result of every IDE query: `Err` when a newer edit cancelled it.
pub type Cancellable<T> = Result<T, Cancelled>;

/// A place in a file, as a byte offset.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FilePosition {
    pub path: PathBuf,
    pub offset: TextSize,
}

/// A range of a file, in bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FileRange {
    pub path: PathBuf,
    pub range: TextRange,
}

/// What a symbol or navigation target is, for icons and filtering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymbolKind {
    Class,
    DefinedType,
    Node,
    Function,
    Plan,
    TypeAlias,
    ResourceType,
    Resource,
    Attribute,
    Parameter,
    Variable,
    Template,
    Fact,
    /// A file's top-level code (a caller in a call hierarchy).
    File,
    /// A module (its `metadata.json`).
    Module,
}

/// Something to jump to: `full_range` covers the whole definition (for
/// previews), `focus_range` only its name (where the cursor lands).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NavigationTarget {
    pub path: PathBuf,
    pub full_range: TextRange,
    pub focus_range: TextRange,
    pub name: String,
    pub kind: SymbolKind,
}

/// One replacement in a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

/// A change to the workspace: text edits per file (ranges refer to the
/// text before the change) and files to move afterwards.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceChange {
    pub edits: BTreeMap<PathBuf, Vec<TextEdit>>,
    pub file_moves: Vec<(PathBuf, PathBuf)>,
}

/// A snapshot of the analysis at one revision, asked IDE questions. Made
/// from the semantic crate's snapshot (`AnalysisHost::analysis`).
#[derive(Clone)]
pub struct Analysis(puppet_analysis::host::Analysis);

/// The IDE's snapshot of a host's current revision.
pub fn snapshot(host: &puppet_analysis::host::AnalysisHost) -> Analysis {
    Analysis(host.analysis())
}

impl From<puppet_analysis::host::Analysis> for Analysis {
    fn from(snapshot: puppet_analysis::host::Analysis) -> Analysis {
        Analysis(snapshot)
    }
}

impl std::ops::Deref for Analysis {
    type Target = puppet_analysis::host::Analysis;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Analysis {
    /// Runs `f` on the snapshot, turning a cancellation into `Err`.
    pub(crate) fn with_db<T>(&self, f: impl FnOnce(&Self) -> T) -> Cancellable<T> {
        Cancelled::catch(std::panic::AssertUnwindSafe(|| f(self)))
    }
}
