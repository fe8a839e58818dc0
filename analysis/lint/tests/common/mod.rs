//! Applying fixes and telling whether they kept what the code means,
//! shared by `fixtures.rs`, `fixes.rs` and `ignore_comments.rs`.
#![allow(dead_code)] // each user takes what it needs

use puppet_lint_checks::SourceKind;
use puppet_syntax::ast::{AstNode, DqStringExpr, SqStringExpr, StringPart};
use puppet_syntax::{SyntaxKind, SyntaxNode};

/// Fixes that rewrite a value on purpose: `ensure => '/x'` into `link` and
/// a target, `644` into `'0644'`, `// x` into a comment.
pub const VALUE_CHANGING_FIXES: &[&str] = &[
    "ensure_not_symlink_target",
    "file_mode",
    "unquoted_file_mode",
    "slash_comments",
];

pub use puppet_lint_checks::apply_fixes as apply;

/// What the code means, as far as fixes are concerned: its significant
/// tokens, with strings, bare-word titles and host names by value and
/// `"$x"` the same as `"${x}"`.
pub fn meaning(text: &str) -> Vec<String> {
    let root = puppet_syntax::parse(text, SourceKind::Manifest).syntax_node();
    let mut out = Vec::new();
    walk_meaning(&root, &mut out);
    out
}

fn walk_meaning(node: &SyntaxNode, out: &mut Vec<String>) {
    for element in node.children_with_tokens() {
        match element {
            puppet_syntax::NodeOrToken::Node(child) => match child.kind() {
                SyntaxKind::SQ_STRING_EXPR => out.push(format!(
                    "string {:?}",
                    SqStringExpr::cast(child).expect("a string").value()
                )),
                SyntaxKind::DQ_STRING_EXPR => {
                    let string = DqStringExpr::cast(child).expect("a string");
                    if let Some(value) = string.static_value() {
                        out.push(format!("string {value:?}"));
                        continue;
                    }
                    for part in string.parts() {
                        match part {
                            StringPart::Text(t) => out.push(format!("string {t:?}")),
                            StringPart::Interpolation(i) => {
                                out.push("interpolation".to_string());
                                walk_meaning(i.syntax(), out);
                            }
                        }
                    }
                }
                // `$x`, `"$x"` and `"${x}"` (where the name may be read as a
                // word, `${_x}`) are the same variable.
                SyntaxKind::VARIABLE_EXPR => out.push(format!(
                    "variable {}",
                    child.text().to_string().trim_start_matches('$')
                )),
                SyntaxKind::HOSTNAME => out.push(format!("string {:?}", child.text().to_string())),
                SyntaxKind::QUALIFIED_NAME | SyntaxKind::BARE_WORD
                    if child.parent().is_some_and(|p| {
                        p.kind() == SyntaxKind::RESOURCE_BODY || p.kind() == SyntaxKind::ARRAY_EXPR
                    }) =>
                {
                    out.push(format!("string {:?}", child.text().to_string()))
                }
                _ => walk_meaning(&child, out),
            },
            puppet_syntax::NodeOrToken::Token(token) if token.kind() == SyntaxKind::VARIABLE => {
                out.push(format!("variable {}", token.text().trim_start_matches('$')))
            }
            puppet_syntax::NodeOrToken::Token(token) => {
                if !token.kind().is_trivia()
                    && !matches!(
                        token.kind(),
                        SyntaxKind::DOLLAR_BRACE | SyntaxKind::INTERP_CLOSE
                    )
                {
                    out.push(format!("{:?} {}", token.kind(), token.text()));
                }
            }
        }
    }
}

pub fn syntax_errors(text: &str) -> usize {
    puppet_syntax::parse(text, SourceKind::Manifest)
        .errors()
        .len()
}
