//! Whether two parses are the same program: the check that formatting
//! never changes meaning, run on every result and by the corpus tests.
//!
//! Both trees are walked in a normal form: node kinds and significant
//! tokens, with string literals compared by value (`'a'` is `"a"`), the
//! two spellings of `(` and `[` (which only say what stood before them)
//! taken as one, and commas and semicolons left out (the tree's shape
//! already says what they separate). Comments and heredoc bodies are
//! compared on their own, in order, as they may move between lines.

use puppet_syntax::ast::{unescape_double_quoted, unescape_single_quoted};
use puppet_syntax::SyntaxKind::{self, *};
use puppet_syntax::{NodeOrToken, SyntaxNode};

/// One step of the normal form.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Atom<'t> {
    Enter(SyntaxKind),
    Leave,
    Token(SyntaxKind, &'t str),
    /// A string literal without interpolation, by value.
    Str(String),
}

/// What a tree holds besides its normal form.
#[derive(Debug, Default, PartialEq, Eq)]
struct Asides<'t> {
    /// Comments, each line without trailing blanks.
    comments: Vec<String>,
    heredoc_bodies: Vec<&'t str>,
}

/// `Ok` when the trees over `a` and `b` are the same program, else a
/// description of the first difference.
pub fn same_program(
    a_root: &SyntaxNode,
    a: &str,
    b_root: &SyntaxNode,
    b: &str,
) -> Result<(), String> {
    let mut a_asides = Asides::default();
    let mut b_asides = Asides::default();
    let mut a_atoms = Vec::new();
    let mut b_atoms = Vec::new();
    normal_form(a_root, a, &mut a_atoms, &mut a_asides);
    normal_form(b_root, b, &mut b_atoms, &mut b_asides);
    if let Some(at) = a_atoms.iter().zip(&b_atoms).position(|(x, y)| x != y) {
        let context = |atoms: &[Atom<'_>]| {
            format!(
                "{:?}",
                &atoms[at.saturating_sub(3)..(at + 3).min(atoms.len())]
            )
        };
        return Err(format!(
            "the programs differ at step {at}: {} versus {}",
            context(&a_atoms),
            context(&b_atoms)
        ));
    }
    if a_atoms.len() != b_atoms.len() {
        return Err(format!(
            "one program is longer: {} versus {} steps",
            a_atoms.len(),
            b_atoms.len()
        ));
    }
    if a_asides.comments != b_asides.comments {
        let first = a_asides
            .comments
            .iter()
            .zip(&b_asides.comments)
            .find(|(x, y)| x != y);
        return Err(format!(
            "the comments differ ({} versus {}): first {first:?}",
            a_asides.comments.len(),
            b_asides.comments.len()
        ));
    }
    if a_asides.heredoc_bodies != b_asides.heredoc_bodies {
        return Err("the heredoc bodies differ".to_string());
    }
    Ok(())
}

fn normal_form<'t>(
    root: &SyntaxNode,
    text: &'t str,
    atoms: &mut Vec<Atom<'t>>,
    asides: &mut Asides<'t>,
) {
    let slice = |range: puppet_syntax::TextRange| {
        &text[usize::from(range.start())..usize::from(range.end())]
    };
    let mut walk = root.preorder_with_tokens();
    // A skipped subtree still ends with a `Leave` of its node.
    let mut skipped: Option<SyntaxNode> = None;
    while let Some(event) = walk.next() {
        match event {
            rowan::WalkEvent::Enter(NodeOrToken::Node(node)) => {
                if node.kind() == HEREDOC_BODY {
                    asides.heredoc_bodies.push(slice(node.text_range()));
                    comments_in(&node, asides);
                    walk.skip_subtree();
                    skipped = Some(node);
                } else if let Some(value) = string_value(&node) {
                    atoms.push(Atom::Str(value));
                    walk.skip_subtree();
                    skipped = Some(node);
                } else {
                    atoms.push(Atom::Enter(node.kind()));
                }
            }
            rowan::WalkEvent::Leave(NodeOrToken::Node(node)) => {
                if skipped.as_ref() == Some(&node) {
                    skipped = None;
                } else {
                    atoms.push(Atom::Leave);
                }
            }
            rowan::WalkEvent::Enter(NodeOrToken::Token(token)) => match token.kind() {
                COMMENT | BLOCK_COMMENT => asides.comments.push(trimmed(token.text())),
                COMMA | SEMICOLON => {}
                kind if kind.is_trivia() => {}
                kind => atoms.push(Atom::Token(same_spelling(kind), slice(token.text_range()))),
            },
            rowan::WalkEvent::Leave(NodeOrToken::Token(_)) => {}
        }
    }
}

fn comments_in(node: &SyntaxNode, asides: &mut Asides<'_>) {
    for token in node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        if matches!(token.kind(), COMMENT | BLOCK_COMMENT) {
            asides.comments.push(trimmed(token.text()));
        }
    }
}

/// `(` and `[` whatever stood before them.
fn same_spelling(kind: SyntaxKind) -> SyntaxKind {
    match kind {
        L_PAREN_WS => L_PAREN,
        L_BRACK_LIST => L_BRACK,
        other => other,
    }
}

fn trimmed(comment: &str) -> String {
    comment
        .split('\n')
        .map(|line| line.trim_end_matches([' ', '\t', '\r']))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The value of a string literal without interpolation.
fn string_value(node: &SyntaxNode) -> Option<String> {
    match node.kind() {
        SQ_STRING_EXPR => {
            let token = node.first_token()?;
            let inner = token.text().strip_prefix('\'')?.strip_suffix('\'')?;
            Some(unescape_single_quoted(inner))
        }
        DQ_STRING_EXPR => {
            let mut inner = String::new();
            for element in node.children_with_tokens() {
                match element {
                    NodeOrToken::Token(token) if token.kind() == DQUOTE => {}
                    NodeOrToken::Token(token) if token.kind() == STRING_TEXT => {
                        inner.push_str(token.text())
                    }
                    _ => return None,
                }
            }
            Some(unescape_double_quoted(&inner))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::same_program;
    use puppet_syntax::{parse, SourceKind};

    fn same(a: &str, b: &str) -> Result<(), String> {
        let pa = parse(a, SourceKind::Manifest);
        let pb = parse(b, SourceKind::Manifest);
        same_program(&pa.syntax_node(), a, &pb.syntax_node(), b)
    }

    #[test]
    fn layout_quotes_and_separators_do_not_count() {
        assert!(same("$a = [1,2,]\n$b = \"x\"", "$a = [\n  1,\n  2\n];$b = 'x'\n").is_ok());
        assert!(same("foo(1) # c\n", "foo(\n  1,\n) # c\n").is_ok());
    }

    #[test]
    fn meaning_and_comments_do() {
        assert!(same("$a = 1\n-1\n", "$a = 1;\n-1\n").is_err());
        assert!(same("foo\n($x)\n", "foo ($x)\n").is_err());
        assert!(same("$a = \"\\n\"\n", "$a = '\\n'\n").is_err());
        assert!(same("$a = 1 # x\n", "$a = 1 # y\n").is_err());
    }
}
