//! Folding ranges: bracketed blocks and lists that span lines, heredoc
//! bodies, runs of line comments, block comments, and `# region` /
//! `# endregion` markers. Ranges are byte ranges from the first to the last
//! character folded (the opening bracket to the closing one); the server
//! turns them into lines.

use super::tree_helpers::bracket_pair;
use super::Cancellable;
use crate::Analysis;
use puppet_syntax::ast::{AstNode, HeredocExpr};
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange};
use std::path::Path;

/// What a fold hides, so editors can offer "fold all comments".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FoldKind {
    Region,
    Comment,
}

/// One foldable range of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fold {
    pub range: TextRange,
    pub kind: FoldKind,
}

impl Analysis {
    /// The folding ranges of a file, sorted by start (empty for unknown
    /// files). Only ranges that span more than one line are returned.
    pub fn folding_ranges(&self, path: &Path) -> Cancellable<Vec<Fold>> {
        self.with_db(|a| {
            let Some(root) = a.syntax(path) else {
                return Vec::new();
            };
            let text = root.text().to_string();
            let mut folds = Vec::new();
            node_folds(&root, &mut folds);
            comment_folds(&root, &mut folds);
            folds.retain(|f| spans_lines(&text, f.range));
            folds.sort_by_key(|f| (f.range.start(), std::cmp::Reverse(f.range.end())));
            folds.dedup();
            folds
        })
    }
}

fn spans_lines(text: &str, range: TextRange) -> bool {
    text.get(usize::from(range.start())..usize::from(range.end()))
        .is_some_and(|s| s.contains('\n'))
}

/// Bracketed constructs and heredocs.
fn node_folds(root: &SyntaxNode, out: &mut Vec<Fold>) {
    for node in root.descendants() {
        if node.kind() == SyntaxKind::HEREDOC_EXPR {
            // From the header to the end tag: the header line stays visible.
            let Some(heredoc) = HeredocExpr::cast(node.clone()) else {
                continue;
            };
            if let Some(body) = heredoc.body() {
                let start = node.text_range().start();
                if start <= body.syntax().text_range().end() {
                    out.push(region(TextRange::new(
                        start,
                        body.syntax().text_range().end(),
                    )));
                }
            }
            continue;
        }
        if let Some((open, close)) = bracket_pair(&node) {
            // An unclosed bracket folds to the end of what was parsed.
            let Some(end) = close.or_else(|| last_significant_token(&node)) else {
                continue;
            };
            let end = end.text_range().end();
            if open.text_range().start() <= end {
                out.push(region(TextRange::new(open.text_range().start(), end)));
            }
        }
    }
}

/// The last token of a node that is not trivia (where an unclosed
/// construct really ends).
fn last_significant_token(node: &SyntaxNode) -> Option<SyntaxToken> {
    node.descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
        .last()
}

fn region(range: TextRange) -> Fold {
    Fold {
        range,
        kind: FoldKind::Region,
    }
}

/// What a `#` comment says about regions.
enum Marker {
    Start,
    End,
}

/// Whether only blanks precede the token on its line.
fn starts_line(token: &SyntaxToken) -> bool {
    match token.prev_token() {
        None => true,
        Some(prev) => {
            prev.kind() == SyntaxKind::WHITESPACE
                && (prev.text().contains('\n') || prev.prev_token().is_none())
        }
    }
}

fn marker(comment: &str) -> Option<Marker> {
    let body = comment.trim_start_matches('#').trim_start();
    let word = body.split_whitespace().next()?;
    match word {
        "region" => Some(Marker::Start),
        "endregion" => Some(Marker::End),
        _ => None,
    }
}

/// Runs of line comments on consecutive lines, multi-line block comments,
/// and region markers.
fn comment_folds(root: &SyntaxNode, out: &mut Vec<Fold>) {
    let mut run: Option<(SyntaxToken, SyntaxToken)> = None;
    let mut regions: Vec<SyntaxToken> = Vec::new();
    let flush = |run: &mut Option<(SyntaxToken, SyntaxToken)>, out: &mut Vec<Fold>| {
        if let Some((first, last)) = run.take() {
            if first != last {
                out.push(Fold {
                    range: TextRange::new(first.text_range().start(), last.text_range().end()),
                    kind: FoldKind::Comment,
                });
            }
        }
    };
    for token in root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        match token.kind() {
            SyntaxKind::COMMENT => match marker(token.text()) {
                Some(Marker::Start) => {
                    flush(&mut run, out);
                    regions.push(token);
                }
                Some(Marker::End) => {
                    flush(&mut run, out);
                    if let Some(start) = regions.pop() {
                        out.push(region(TextRange::new(
                            start.text_range().start(),
                            token.text_range().end(),
                        )));
                    }
                }
                // A comment after code on its line starts no run.
                None if !starts_line(&token) => flush(&mut run, out),
                None => match &mut run {
                    Some((_, last)) => *last = token,
                    None => run = Some((token.clone(), token)),
                },
            },
            // A line break continues a run; a blank line ends it.
            SyntaxKind::WHITESPACE if token.text().matches('\n').count() <= 1 => {}
            SyntaxKind::BLOCK_COMMENT | SyntaxKind::EPP_COMMENT => {
                flush(&mut run, out);
                out.push(Fold {
                    range: token.text_range(),
                    kind: FoldKind::Comment,
                });
            }
            _ => flush(&mut run, out),
        }
    }
    flush(&mut run, out);
}
