//! The template of an `inline_epp()` call whose text is written out: a
//! single-quoted string, or a double-quoted string or heredoc without
//! interpolation (one with interpolation is a text computed at run time).
//!
//! Puppet parses the text as EPP when it evaluates the call (failing on a
//! syntax error there: "inline_epp(): Invalid EPP") and renders it as a
//! lambda whose closure is the calling scope (checked against Puppet 7.23
//! and 8.10):
//! - the template sees every variable the call sees at that point (the
//!   class's or define's variables assigned before the call, a lambda's
//!   parameters, node and top scope, facts);
//! - the hash passed binds its keys in the template's own scope, in front
//!   of those;
//! - a parameter header (`<%- |$x, $y = 1| -%>`) makes the hash a call by
//!   name: a parameter without a default must be given (an `Optional` type
//!   does not make it optional), a key that names no parameter fails, an
//!   empty header included;
//! - the template's assignments are its own (it may assign a name the
//!   calling scope has; reassigning one of its parameters fails).
//!
//! Positions in the text are positions in the manifest through the text's
//! [`TextOrigin`], so what is reported in a template points into the
//! string as written, escapes and a heredoc's margin accounted for.

use puppet_syntax::ast::{self, TextOrigin};
use puppet_syntax::{Parse, Severity, SourceKind};

/// The function whose first argument is a template text.
pub const INLINE_EPP: &str = "inline_epp";

/// Templates nested deeper than this (a template calling `inline_epp()` on
/// a text of its own...) are not analysed: each level parses its text
/// again.
pub const MAX_TEMPLATE_NESTING: usize = 8;

/// An `inline_epp()` template, parsed.
pub struct InlineEpp {
    /// The text parsed as a template (positions in the text).
    pub parse: Parse,
    /// Where each byte of the text is in the call's tree.
    pub origin: TextOrigin,
    /// The first argument, the written text.
    pub literal: ast::Expr,
}

impl InlineEpp {
    /// Whether Puppet fails to parse the text (so it renders nothing).
    pub fn has_syntax_errors(&self) -> bool {
        self.parse
            .errors()
            .iter()
            .any(|e| e.severity == Severity::Error)
    }
}

/// The template of an `inline_epp()` call, when its text is written out.
pub fn inline_epp(call: &ast::CallExpr) -> Option<InlineEpp> {
    if call.function_name().as_deref() != Some(INLINE_EPP) {
        return None;
    }
    let literal = call.args().into_iter().next()?;
    let mapped = literal.static_text_mapped()?;
    Some(InlineEpp {
        parse: puppet_syntax::parse(&mapped.text, SourceKind::Template),
        origin: mapped.origin,
        literal,
    })
}
