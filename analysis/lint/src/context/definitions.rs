//! The `Definition` view of a file, computed once per lint run and shared by the checks that read it.

use super::LintContext;
use puppet_syntax::ast::{AstNode, ClassDef, ParamList};
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken};

/// A class or a defined type.
pub(crate) struct Definition {
    pub node: SyntaxNode,
    pub keyword: SyntaxToken,
    pub name: SyntaxToken,
}

impl Definition {
    pub fn is_class(&self) -> bool {
        self.node.kind() == SyntaxKind::CLASS_DEF
    }

    /// "class" or "defined type", as puppet-lint's messages say.
    pub fn kind_name(&self) -> &'static str {
        if self.is_class() {
            "class"
        } else {
            "defined type"
        }
    }

    pub fn params(&self) -> Option<ParamList> {
        self.node.children().find_map(ParamList::cast)
    }

    /// The name of the class this one inherits from.
    pub fn parent(&self) -> Option<SyntaxToken> {
        ClassDef::cast(self.node.clone())?
            .parent()?
            .syntax()
            .children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| !t.kind().is_trivia() && t.kind() != SyntaxKind::INHERITS_KW)
    }
}

/// Every class and defined type of the file, nested ones included, in
/// text order.
pub(crate) fn definitions(ctx: &LintContext) -> Vec<Definition> {
    let nodes = ctx
        .nodes(SyntaxKind::CLASS_DEF)
        .chain(ctx.nodes(SyntaxKind::DEFINE_DEF));
    let mut definitions: Vec<Definition> = nodes
        .filter_map(|node| {
            // The keyword and the name are the first code tokens of the
            // node, after its documentation comments.
            let (at, keyword) = ctx.code_at_or_after(node.text_range().start())?;
            let (_, name) = ctx.next_code(at)?;
            let keyword_kinds = [SyntaxKind::CLASS_KW, SyntaxKind::DEFINE_KW];
            let name_kinds = [SyntaxKind::NAME, SyntaxKind::WORD, SyntaxKind::TYPE_REF];
            if !keyword_kinds.contains(&keyword.kind()) || !name_kinds.contains(&name.kind()) {
                return None;
            }
            Some(Definition {
                keyword: ctx.syntax_token(keyword)?,
                name: ctx.syntax_token(name)?,
                node,
            })
        })
        .collect();
    definitions.sort_by_key(|d| d.node.text_range().start());
    definitions
}
