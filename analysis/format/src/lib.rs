//! Formatter for Puppet manifests, following the Puppet Language Style
//! Guide: two-space indentation, `=>` aligned in each resource body, hash
//! and attribute block, one attribute per line in resources with several,
//! trailing commas in broken lists, single quotes where nothing needs
//! double ones, normal spacing, comments where they stood, heredoc bodies
//! verbatim.
//!
//! The pipeline: parse (`puppet-syntax`), attach comments to tokens
//! (`trivia`), build a layout document from the tree (`build`), lay it out
//! in the line width (`printer`), then parse the result and compare it
//! with the input (`equivalence`): a result that is not the same program
//! is never returned. EPP templates are left as they are: their text is
//! output, where no whitespace is insignificant.
//!
//! Plain data in and out: text, byte ranges and edits; the language
//! server converts them.

mod build;
mod doc;
mod edits;
mod equivalence;
mod printer;
mod trivia;

pub use edits::{format_document, format_on_type, format_range, Typed};
pub use puppet_syntax::TextEdit;
use puppet_syntax::{parse, Parse, SourceKind, SyntaxError};

/// Settings of the layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatOptions {
    /// Spaces per indentation level.
    pub indent_width: usize,
    /// Lines longer than this are broken where the syntax allows.
    pub max_width: usize,
}

impl Default for FormatOptions {
    /// The style guide's: two spaces, 140 columns (puppet-lint's limit).
    fn default() -> FormatOptions {
        FormatOptions {
            indent_width: 2,
            max_width: 140,
        }
    }
}

/// Why a text was not formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotFormatted {
    /// The text does not parse: formatting would guess at its meaning.
    SyntaxErrors {
        /// The first error.
        first: SyntaxError,
        count: usize,
    },
    /// EPP templates are not formatted: their text is output.
    Template,
    /// Nested deeper than the formatter goes.
    TooDeep,
    /// The formatter's result would not be the same program (a bug: the
    /// text is left as it is).
    Internal(String),
}

impl std::fmt::Display for NotFormatted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotFormatted::SyntaxErrors { first, count } => {
                write!(f, "{count} syntax error(s), the first: {}", first.message)
            }
            NotFormatted::Template => write!(
                f,
                "EPP templates are not formatted: their text is output as it is"
            ),
            NotFormatted::TooDeep => write!(
                f,
                "nested more than {} levels deep: not formatted",
                build::MAX_NESTING
            ),
            NotFormatted::Internal(why) => {
                write!(f, "internal formatter error, text left unchanged: {why}")
            }
        }
    }
}

impl std::error::Error for NotFormatted {}

/// The tree of a manifest the formatter may rewrite: templates and text
/// with syntax errors are left alone.
pub(crate) fn parse_formattable(text: &str, kind: SourceKind) -> Result<Parse, NotFormatted> {
    if kind == SourceKind::Template {
        return Err(NotFormatted::Template);
    }
    let parsed = parse(text, kind);
    if let Some(first) = parsed.errors().first() {
        return Err(NotFormatted::SyntaxErrors {
            first: first.clone(),
            count: parsed.errors().len(),
        });
    }
    Ok(parsed)
}

/// The formatted text of a manifest, or why it was not formatted.
pub fn format_source(
    text: &str,
    kind: SourceKind,
    options: &FormatOptions,
) -> Result<String, NotFormatted> {
    let root = parse_formattable(text, kind)?.syntax_node();
    format_tree(&root, text, options)
}

/// [`format_source`] for a manifest already parsed without errors: `root`
/// is the tree of `text`. A result other than `text` is checked to be the
/// same program.
pub fn format_tree(
    root: &puppet_syntax::SyntaxNode,
    text: &str,
    options: &FormatOptions,
) -> Result<String, NotFormatted> {
    let formatted = print(root, text, options)?;
    if formatted != text {
        check_same_program(root, text, &formatted, SourceKind::Manifest)?;
    }
    Ok(formatted)
}

/// Whether formatting would change a manifest parsed without errors
/// (`root` is the tree of `text`), and where first: the byte offset of the
/// first difference. The result is not checked to be the same program, as
/// nothing is written (`format_tree` checks what is).
pub fn first_change(
    root: &puppet_syntax::SyntaxNode,
    text: &str,
    options: &FormatOptions,
) -> Result<Option<usize>, NotFormatted> {
    let formatted = print(root, text, options)?;
    Ok(text
        .bytes()
        .zip(formatted.bytes())
        .position(|(a, b)| a != b)
        .or_else(|| (text.len() != formatted.len()).then(|| text.len().min(formatted.len()))))
}

/// The formatted text of a tree, unchecked.
fn print(
    root: &puppet_syntax::SyntaxNode,
    text: &str,
    options: &FormatOptions,
) -> Result<String, NotFormatted> {
    let mut builder = build::Builder::new(root, text);
    let doc = builder.source_file(root);
    if builder.too_deep {
        return Err(NotFormatted::TooDeep);
    }
    let mut formatted = printer::print(
        &builder.docs,
        doc,
        options.max_width,
        options.indent_width.max(1),
    );
    if formatted.trim().is_empty() {
        formatted.clear();
    }
    Ok(formatted)
}

/// Fails unless `after` parses without error into the program `before`
/// (parsed into `root`) is.
fn check_same_program(
    root: &puppet_syntax::SyntaxNode,
    before: &str,
    after: &str,
    kind: SourceKind,
) -> Result<(), NotFormatted> {
    let reparsed = parse(after, kind);
    if let Some(error) = reparsed.errors().first() {
        return Err(NotFormatted::Internal(format!(
            "the result does not parse: {} at {:?}",
            error.message, error.range
        )));
    }
    equivalence::same_program(root, before, &reparsed.syntax_node(), after)
        .map_err(NotFormatted::Internal)
}

/// Whether two texts are the same program (both must parse): what the
/// formatter guarantees of its input and output, for tests and tools.
pub fn same_program(a: &str, b: &str, kind: SourceKind) -> Result<(), String> {
    let pa = parse(a, kind);
    let pb = parse(b, kind);
    equivalence::same_program(&pa.syntax_node(), a, &pb.syntax_node(), b)
}
