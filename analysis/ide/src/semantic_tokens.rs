//! Semantic tokens: what each token of a file is, for highlighting beyond
//! what a grammar can see. Classified by the tree (definitions, resource
//! types, attributes, calls, type references) and by cheap resolution
//! (variables through `scopes.rs`, built-in functions, types and resource
//! types through `builtins`). Tokens never overlap and never span lines:
//! a multi-line token (heredoc text, block comment) is split per line.

use super::Cancellable;
use crate::Analysis;
use puppet_analysis::builtins::Builtins;
use puppet_analysis::model::Type;
use puppet_analysis::resolve::resolution::{variable_resolution, FileTarget, Resolution};
use puppet_analysis::resolve::scope::Target;
use puppet_analysis::ruby_plugins::{ruby_function_deprecations, RubyDeprecation};
use puppet_analysis::stdlib::WorkspaceStdlib;
use puppet_syntax::ast::{self, AstNode};
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The kinds of semantic tokens; `kind as u32` is the index into
/// [`SemanticTokenKind::LEGEND`], whose names are LSP's standard types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SemanticTokenKind {
    Namespace,
    Type,
    Class,
    Enum,
    Parameter,
    Variable,
    Property,
    EnumMember,
    Function,
    Keyword,
    Comment,
    String,
    Number,
    Regexp,
    Operator,
    Decorator,
    Macro,
}

impl SemanticTokenKind {
    /// Every kind in legend order.
    pub const ALL: [SemanticTokenKind; 17] = [
        SemanticTokenKind::Namespace,
        SemanticTokenKind::Type,
        SemanticTokenKind::Class,
        SemanticTokenKind::Enum,
        SemanticTokenKind::Parameter,
        SemanticTokenKind::Variable,
        SemanticTokenKind::Property,
        SemanticTokenKind::EnumMember,
        SemanticTokenKind::Function,
        SemanticTokenKind::Keyword,
        SemanticTokenKind::Comment,
        SemanticTokenKind::String,
        SemanticTokenKind::Number,
        SemanticTokenKind::Regexp,
        SemanticTokenKind::Operator,
        SemanticTokenKind::Decorator,
        SemanticTokenKind::Macro,
    ];

    /// The token type names the server publishes, in index order.
    pub const LEGEND: [&'static str; 17] = [
        "namespace",
        "type",
        "class",
        "enum",
        "parameter",
        "variable",
        "property",
        "enumMember",
        "function",
        "keyword",
        "comment",
        "string",
        "number",
        "regexp",
        "operator",
        "decorator",
        "macro",
    ];

    /// The LSP name of the kind.
    pub fn name(self) -> &'static str {
        Self::LEGEND[self as usize]
    }
}

/// Modifier bits of [`SemanticToken::modifiers`]: bit `i` is
/// `MODIFIER_LEGEND[i]`.
pub mod modifiers {
    pub const DECLARATION: u32 = 1 << 0;
    pub const DEFINITION: u32 = 1 << 1;
    pub const READONLY: u32 = 1 << 2;
    pub const DEFAULT_LIBRARY: u32 = 1 << 3;
    pub const DEPRECATED: u32 = 1 << 4;
}

/// The token modifier names the server publishes, in bit order.
pub const MODIFIER_LEGEND: [&str; 5] = [
    "declaration",
    "definition",
    "readonly",
    "defaultLibrary",
    "deprecated",
];

/// One highlighted range, on a single line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SemanticToken {
    pub range: TextRange,
    pub kind: SemanticTokenKind,
    /// Bits from [`modifiers`].
    pub modifiers: u32,
}

impl Analysis {
    /// The semantic tokens of a file in text order, restricted to those
    /// touching `range` when given (empty for unknown files).
    pub fn semantic_tokens(
        &self,
        path: &Path,
        range: Option<TextRange>,
    ) -> Cancellable<Vec<SemanticToken>> {
        self.with_db(|a| {
            let Some(file) = a.file(path) else {
                return Vec::new();
            };
            let Some(root) = a.syntax(path) else {
                return Vec::new();
            };
            let resolution = variable_resolution(a.db(), a.workspace(), file);
            let deprecated = ruby_function_deprecations(a.db(), a.workspace());
            let classifier = Classifier::new(resolution, a.stdlib(), deprecated, a.builtins());
            let mut out = Vec::new();
            for token in root
                .descendants_with_tokens()
                .filter_map(|e| e.into_token())
            {
                let token_range = token.text_range();
                if let Some(r) = range {
                    if token_range.end() <= r.start() || r.end() <= token_range.start() {
                        continue;
                    }
                }
                if let Some((kind, modifiers)) = classifier.classify(&token) {
                    push_lines(&token, kind, modifiers, &mut out);
                }
            }
            out
        })
    }
}

/// Emits a token, one piece per line (line breaks themselves excluded).
fn push_lines(
    token: &SyntaxToken,
    kind: SemanticTokenKind,
    mods: u32,
    out: &mut Vec<SemanticToken>,
) {
    let start = token.text_range().start();
    let mut piece_start = 0usize;
    let text = token.text();
    let mut emit = |from: usize, to: usize| {
        if from < to {
            out.push(SemanticToken {
                range: TextRange::new(start + offset(from), start + offset(to)),
                kind,
                modifiers: mods,
            });
        }
    };
    for (i, c) in text.char_indices() {
        if c == '\n' || c == '\r' {
            emit(piece_start, i);
            piece_start = i + 1;
        }
    }
    emit(piece_start, text.len());
}

fn offset(n: usize) -> TextSize {
    TextSize::try_from(n).unwrap_or_default()
}

/// Functions whose arguments are class names.
const CLASS_FUNCTIONS: &[&str] = &["include", "contain", "require"];

struct Classifier<'a> {
    resolution: &'a Resolution,
    /// Variable definitions and references by token start.
    definitions: HashMap<TextSize, usize>,
    references: HashMap<TextSize, usize>,
    /// The workspace's stdlib functions, which count as built in.
    stdlib: &'a WorkspaceStdlib,
    /// The workspace's Ruby functions that call `deprecation()`.
    deprecated: &'a BTreeMap<String, RubyDeprecation>,
    /// The built-ins of the Puppet checked for.
    builtins: &'static Builtins,
}

impl<'a> Classifier<'a> {
    fn new(
        resolution: &'a Resolution,
        stdlib: &'a WorkspaceStdlib,
        deprecated: &'a BTreeMap<String, RubyDeprecation>,
        builtins: &'static Builtins,
    ) -> Self {
        Classifier {
            resolution,
            stdlib,
            deprecated,
            builtins,
            definitions: resolution
                .definitions
                .iter()
                .enumerate()
                .map(|(i, d)| (d.range.start(), i))
                .collect(),
            references: resolution
                .references
                .iter()
                .enumerate()
                .map(|(i, r)| (r.range.start(), i))
                .collect(),
        }
    }

    fn classify(&self, token: &SyntaxToken) -> Option<(SemanticTokenKind, u32)> {
        use SemanticTokenKind as K;
        use SyntaxKind::*;
        let parent = token.parent()?;
        let plain = |k| Some((k, 0));
        match token.kind() {
            COMMENT | BLOCK_COMMENT | EPP_COMMENT => plain(K::Comment),
            NUMBER => plain(K::Number),
            REGEX => plain(K::Regexp),
            SQ_STRING | DQUOTE | STRING_TEXT => {
                let string_node = if token.kind() == SQ_STRING {
                    Some(parent)
                } else {
                    parent.ancestors().find(|n| n.kind() == DQ_STRING_EXPR)
                };
                if string_node.is_some_and(|n| is_class_name_position(&n)) {
                    plain(K::Class)
                } else {
                    plain(K::String)
                }
            }
            HEREDOC_HEADER | HEREDOC_TEXT | HEREDOC_END | WORD => plain(K::String),
            DOLLAR_BRACE | INTERP_CLOSE => plain(K::Operator),
            AT | ATAT => plain(K::Decorator),
            EPP_OPEN | EPP_CLOSE | EPP_RENDER_OPEN | EPP_RENDER_CLOSE => plain(K::Macro),
            VARIABLE => self.variable(token, &parent),
            TYPE_REF => type_ref(self.builtins, token, &parent),
            NAME => self.name(token, &parent),
            k if k.is_keyword() => {
                if parent.kind() == ATTRIBUTE && is_first_significant(token, &parent) {
                    plain(K::Property)
                } else {
                    plain(K::Keyword)
                }
            }
            EQ | PLUS_EQ | MINUS_EQ | EQ2 | NEQ | MATCH | NOMATCH | LT | LTEQ | GT | GTEQ
            | FAT_ARROW | PLUS_ARROW | SHL | SHR | LCOLLECT | LLCOLLECT | RCOLLECT | RRCOLLECT
            | PLUS | MINUS | STAR | SLASH | PERCENT | BANG | IN_EDGE | IN_EDGE_SUB | OUT_EDGE
            | OUT_EDGE_SUB | QUESTION => plain(K::Operator),
            _ => None,
        }
    }

    /// `$x`: a parameter where declared, otherwise what resolution says.
    fn variable(
        &self,
        token: &SyntaxToken,
        parent: &SyntaxNode,
    ) -> Option<(SemanticTokenKind, u32)> {
        use SemanticTokenKind as K;
        if parent.kind() == SyntaxKind::PARAM {
            return Some((K::Parameter, modifiers::DECLARATION));
        }
        let start = token.text_range().start();
        if let Some(def) = self
            .definitions
            .get(&start)
            .and_then(|&i| self.resolution.definitions.get(i))
        {
            let kind = if def.kind.is_param() {
                K::Parameter
            } else {
                K::Variable
            };
            return Some((kind, modifiers::DECLARATION));
        }
        let reference = self
            .references
            .get(&start)
            .and_then(|&i| self.resolution.references.get(i));
        Some(match reference.map(|r| &r.target) {
            Some(FileTarget::Local(defs)) => {
                let param = defs
                    .first()
                    .and_then(|&d| self.resolution.definitions.get(d))
                    .is_some_and(|d| d.kind.is_param());
                (if param { K::Parameter } else { K::Variable }, 0)
            }
            Some(FileTarget::Other(Target::BuiltIn | Target::Fact { .. })) => (
                K::Variable,
                modifiers::READONLY | modifiers::DEFAULT_LIBRARY,
            ),
            Some(FileTarget::Other(Target::MatchVariable)) => (K::Variable, modifiers::READONLY),
            _ => (K::Variable, 0),
        })
    }

    /// Lower-case names: definitions, calls, resource types, attributes,
    /// class names, bare-word values.
    fn name(&self, token: &SyntaxToken, parent: &SyntaxNode) -> Option<(SemanticTokenKind, u32)> {
        use SemanticTokenKind as K;
        use SyntaxKind::*;
        let declared = modifiers::DECLARATION | modifiers::DEFINITION;
        let text = token.text();
        Some(match parent.kind() {
            CLASS_DEF => (K::Class, declared),
            DEFINE_DEF => (K::Type, declared),
            FUNCTION_DEF => (K::Function, declared),
            PLAN_DEF if is_first_significant(token, parent) => (K::Keyword, 0),
            PLAN_DEF => (K::Function, declared),
            INHERITS_CLAUSE => (K::Class, 0),
            ATTRIBUTE => (K::Property, 0),
            METHOD_CALL_EXPR => self.function(text),
            VARIABLE_EXPR => return self.variable(token, parent),
            HOSTNAME => (K::String, 0),
            QUALIFIED_NAME => {
                let grand = parent.parent()?;
                let first_child = grand.first_child().as_ref() == Some(parent);
                match grand.kind() {
                    CALL_EXPR | STATEMENT_CALL if first_child => self.function(text),
                    APPLY_EXPR if first_child => (K::Keyword, 0),
                    RESOURCE_EXPR | COLLECTOR if first_child => resource_type(self.builtins, text),
                    _ if is_class_name_position(parent) => (K::Class, 0),
                    ATTRIBUTE => (K::EnumMember, 0),
                    _ => (K::String, 0),
                }
            }
            _ => return None,
        })
    }
}

impl Classifier<'_> {
    /// A function name: built-in ones (Puppet's, and those the workspace's
    /// stdlib defines) are marked, and so are a module's Ruby functions
    /// that call `deprecation()` (Puppet's own win over them).
    fn function(&self, name: &str) -> (SemanticTokenKind, u32) {
        let core = self.builtins.function(name).is_some();
        let mut bits = 0;
        if core || self.stdlib.defines(name) {
            bits |= modifiers::DEFAULT_LIBRARY;
        }
        let key = name.trim_start_matches("::").to_ascii_lowercase();
        if !core && self.deprecated.contains_key(&key) {
            bits |= modifiers::DEPRECATED;
        }
        (SemanticTokenKind::Function, bits)
    }
}

fn is_first_significant(token: &SyntaxToken, node: &SyntaxNode) -> bool {
    ast::first_significant_token(node).as_ref() == Some(token)
}

/// A resource type name in a declaration: `class`, built-in or defined.
fn resource_type(builtins: &Builtins, name: &str) -> (SemanticTokenKind, u32) {
    let builtin = builtins.resource_type(name).is_some();
    (
        SemanticTokenKind::Type,
        if builtin {
            modifiers::DEFAULT_LIBRARY
        } else {
            0
        },
    )
}

/// `String`, `File`, `My::Alias`: declared at an alias's name, built in
/// when Puppet knows the data type or resource type.
fn type_ref(
    builtins: &Builtins,
    token: &SyntaxToken,
    parent: &SyntaxNode,
) -> Option<(SemanticTokenKind, u32)> {
    use SyntaxKind::*;
    let declared = modifiers::DECLARATION | modifiers::DEFINITION;
    let is_name = parent.kind() == TYPE_REFERENCE
        && parent.parent().is_some_and(|g| {
            matches!(g.kind(), TYPE_ALIAS | TYPE_DEF) && g.first_child().as_ref() == Some(parent)
        });
    if is_name {
        return Some((SemanticTokenKind::Type, declared));
    }
    let name = token.text().trim_start_matches("::");
    let builtin =
        Type::from_name(name).is_some() || builtins.resource_type(&name.to_lowercase()).is_some();
    Some((
        SemanticTokenKind::Type,
        if builtin {
            modifiers::DEFAULT_LIBRARY
        } else {
            0
        },
    ))
}

/// Whether an expression node stands where a class name is expected:
/// arguments of `include`/`contain`/`require`, `Class['x']`, the title of
/// `class { 'x': }` (also inside an array there).
fn is_class_name_position(node: &SyntaxNode) -> bool {
    use SyntaxKind::*;
    let Some(parent) = node.parent() else {
        return false;
    };
    match parent.kind() {
        ARRAY_EXPR => is_class_name_position(&parent),
        STATEMENT_CALL => {
            parent.first_child().as_ref() != Some(node)
                && ast::StatementCall::cast(parent.clone())
                    .and_then(|c| c.name())
                    .is_some_and(|n| CLASS_FUNCTIONS.contains(&n.as_str()))
        }
        ARG_LIST => match parent.parent() {
            Some(call) if call.kind() == CALL_EXPR => ast::CallExpr::cast(call)
                .and_then(|c| c.function_name())
                .is_some_and(|n| CLASS_FUNCTIONS.contains(&n.as_str())),
            Some(access) if access.kind() == ACCESS_EXPR => {
                ast::AccessExpr::cast(access).and_then(|a| a.target()).is_some_and(|t| {
                    matches!(t, ast::Expr::TypeReference(r) if r.name().eq_ignore_ascii_case("class"))
                })
            }
            _ => false,
        },
        RESOURCE_BODY => {
            let is_title = ast::ResourceBody::cast(parent.clone())
                .and_then(|b| b.title())
                .is_some_and(|t| t.syntax() == node);
            is_title
                && parent
                    .parent()
                    .and_then(ast::ResourceExpr::cast)
                    .and_then(|r| r.type_name())
                    .is_some_and(|n| n == "class")
        }
        _ => false,
    }
}
