//! The layout document: what to print and where lines may break, built
//! from the syntax tree and laid out by `printer.rs`.
//!
//! A Wadler/Prettier-style document kept in an arena: nodes refer to their
//! children by index, so building, printing and dropping never recurse
//! (hostile input may nest thousands of levels deep). Children are always
//! created before their parent, which lets every node know at creation
//! whether it holds a line break that must be printed (`forces_break`).

use std::borrow::Cow;

/// A node of the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocId(u32);

/// A group whose printed mode an `IfBreak` elsewhere may ask about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupId(u32);

impl GroupId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a line break prints when its group stays on one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// A space on one line.
    Space,
    /// Nothing on one line.
    Soft,
    /// Always a line break.
    Hard,
}

#[derive(Debug, Clone)]
pub enum Node<'a> {
    Nil,
    /// Text without line breaks, with its width in characters.
    Text(Cow<'a, str>, u32),
    /// Source text printed exactly as it is, possibly over several lines
    /// (a string literal holding line breaks, a block comment). The
    /// printer never trims it.
    Verbatim(Cow<'a, str>),
    Line(LineKind),
    Concat(Vec<DocId>),
    /// The content, with lines it breaks indented one level more.
    Indent(DocId),
    /// Printed on one line if it fits (and nothing forces a break), else
    /// with its line breaks broken.
    Group {
        content: DocId,
        id: Option<GroupId>,
        /// Broken whatever the width (the source had it broken, or the
        /// style wants it so).
        broken: bool,
    },
    /// One of two documents depending on whether a group (by default the
    /// enclosing one) was broken.
    IfBreak {
        broken: DocId,
        flat: DocId,
        group: Option<GroupId>,
    },
    /// A trailing comment: printed just before the next line break.
    LineSuffix(Cow<'a, str>),
    /// A heredoc body: printed just after the next line break.
    HeredocBody(Cow<'a, str>),
    /// A line break unless the printer is at the start of a line already
    /// (before a comment that stood on its own line).
    LineStart,
    /// The content laid out on one line whatever the width.
    Flat(DocId),
}

/// The arena of a document under construction.
#[derive(Debug, Default)]
pub struct Docs<'a> {
    nodes: Vec<Node<'a>>,
    /// Per node: it holds a hard line break (or a trailing comment, which
    /// needs one, or a broken group), so every group around it must break.
    forces_break: Vec<bool>,
    groups: u32,
}

impl<'a> Docs<'a> {
    pub fn node(&self, id: DocId) -> &Node<'a> {
        &self.nodes[id.0 as usize]
    }

    pub fn forces_break(&self, id: DocId) -> bool {
        self.forces_break[id.0 as usize]
    }

    pub fn group_count(&self) -> usize {
        self.groups as usize
    }

    fn push(&mut self, node: Node<'a>, forces_break: bool) -> DocId {
        let id = DocId(self.nodes.len() as u32);
        self.nodes.push(node);
        self.forces_break.push(forces_break);
        id
    }

    pub fn nil(&mut self) -> DocId {
        self.push(Node::Nil, false)
    }

    /// Text without line breaks (a line break inside makes it verbatim).
    pub fn text(&mut self, text: impl Into<Cow<'a, str>>) -> DocId {
        let text = text.into();
        if text.contains('\n') {
            return self.verbatim(text);
        }
        let width = text_width(&text);
        self.push(Node::Text(text, width), false)
    }

    pub fn verbatim(&mut self, text: impl Into<Cow<'a, str>>) -> DocId {
        self.push(Node::Verbatim(text.into()), false)
    }

    pub fn line(&mut self) -> DocId {
        self.push(Node::Line(LineKind::Space), false)
    }

    pub fn soft_line(&mut self) -> DocId {
        self.push(Node::Line(LineKind::Soft), false)
    }

    pub fn hard_line(&mut self) -> DocId {
        self.push(Node::Line(LineKind::Hard), true)
    }

    pub fn line_start(&mut self) -> DocId {
        self.push(Node::LineStart, true)
    }

    pub fn concat(&mut self, parts: Vec<DocId>) -> DocId {
        let forces = parts.iter().any(|&p| self.forces_break(p));
        self.push(Node::Concat(parts), forces)
    }

    pub fn indent(&mut self, content: DocId) -> DocId {
        let forces = self.forces_break(content);
        self.push(Node::Indent(content), forces)
    }

    /// A new group id, for `group_with_id` and `if_break_of`.
    pub fn new_group_id(&mut self) -> GroupId {
        self.groups += 1;
        GroupId(self.groups - 1)
    }

    pub fn group(&mut self, content: DocId, broken: bool) -> DocId {
        self.group_with_id(content, None, broken)
    }

    /// A group; a broken one breaks every group around it too (a list
    /// holding a broken list cannot stay on one line).
    pub fn group_with_id(&mut self, content: DocId, id: Option<GroupId>, broken: bool) -> DocId {
        let forces = broken || self.forces_break(content);
        self.push(
            Node::Group {
                content,
                id,
                broken,
            },
            forces,
        )
    }

    /// `broken` when the enclosing group breaks, else `flat`.
    pub fn if_break(&mut self, broken: DocId, flat: DocId) -> DocId {
        self.if_break_of(broken, flat, None)
    }

    pub fn if_break_of(&mut self, broken: DocId, flat: DocId, group: Option<GroupId>) -> DocId {
        let forces = self.forces_break(flat);
        self.push(
            Node::IfBreak {
                broken,
                flat,
                group,
            },
            forces,
        )
    }

    pub fn line_suffix(&mut self, text: impl Into<Cow<'a, str>>) -> DocId {
        self.push(Node::LineSuffix(text.into()), true)
    }

    pub fn heredoc_body(&mut self, text: impl Into<Cow<'a, str>>) -> DocId {
        self.push(Node::HeredocBody(text.into()), false)
    }

    pub fn flat(&mut self, content: DocId) -> DocId {
        let forces = self.forces_break(content);
        self.push(Node::Flat(content), forces)
    }

    /// The width of a document printed on one line, ignoring trailing
    /// comments (they go to the end of the line); `None` when it cannot be
    /// printed on one line (a hard break, text over several lines).
    pub fn flat_width(&self, id: DocId) -> Option<usize> {
        if self.forces_break(id) && !self.only_trailing_comments(id) {
            return None;
        }
        let mut width = 0usize;
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            match self.node(id) {
                Node::Nil | Node::LineSuffix(_) | Node::HeredocBody(_) => {}
                Node::Text(_, w) => width += *w as usize,
                Node::Verbatim(_) | Node::LineStart => return None,
                Node::Line(LineKind::Space) => width += 1,
                Node::Line(LineKind::Soft) => {}
                Node::Line(LineKind::Hard) => return None,
                Node::Concat(parts) => stack.extend(parts.iter().rev()),
                Node::Indent(c) | Node::Flat(c) => stack.push(*c),
                Node::Group { content, .. } => stack.push(*content),
                Node::IfBreak { flat, .. } => stack.push(*flat),
            }
        }
        Some(width)
    }
}

impl Docs<'_> {
    /// Whether the only thing forcing a break in `id` is a trailing
    /// comment (which goes to the end of the line, so the rest stays flat).
    fn only_trailing_comments(&self, id: DocId) -> bool {
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            if !self.forces_break(id) {
                continue;
            }
            match self.node(id) {
                Node::LineSuffix(_) => {}
                Node::Concat(parts) => stack.extend(parts.iter()),
                Node::Indent(c) | Node::Flat(c) => stack.push(*c),
                Node::Group {
                    content, broken, ..
                } => {
                    if *broken {
                        return false;
                    }
                    stack.push(*content);
                }
                Node::IfBreak { flat, .. } => stack.push(*flat),
                _ => return false,
            }
        }
        true
    }
}

/// Width in characters (columns as puppet-lint counts them).
pub fn text_width(text: &str) -> u32 {
    if text.is_ascii() {
        text.len() as u32
    } else {
        text.chars().count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hard_breaks_propagate_to_parents_but_not_through_flat_branches() {
        let mut docs = Docs::default();
        let a = docs.text("a");
        let hard = docs.hard_line();
        let inner = docs.concat(vec![a, hard]);
        let group = docs.group(inner, false);
        assert!(docs.forces_break(group));
        let nil = docs.nil();
        let if_break = docs.if_break(hard, nil);
        assert!(!docs.forces_break(if_break));
    }

    #[test]
    fn flat_width_counts_characters_and_spaces() {
        let mut docs = Docs::default();
        let a = docs.text("é=");
        let line = docs.line();
        let b = docs.text("b");
        let all = docs.concat(vec![a, line, b]);
        assert_eq!(docs.flat_width(all), Some(4));
        let hard = docs.hard_line();
        let broken = docs.concat(vec![all, hard]);
        assert_eq!(docs.flat_width(broken), None);
    }
}
