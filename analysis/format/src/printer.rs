//! Lays a document out in a width: Wadler's algorithm as Prettier runs
//! it, with an explicit work stack instead of recursion.
//!
//! A group is printed on one line when nothing in it forces a break and it
//! fits, together with what follows it up to the next possible line break,
//! in the remaining width. Indentation is written lazily, when the line
//! gets its first character, so blank lines never carry spaces; blanks the
//! printer itself produced are trimmed before a line break. Trailing
//! comments wait for the end of their line, heredoc bodies for the line
//! after their header, as Puppet's lexer expects them.

use crate::doc::{text_width, DocId, Docs, GroupId, LineKind, Node};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Flat,
    Break,
}

#[derive(Debug, Clone, Copy)]
struct Command {
    indent: u32,
    mode: Mode,
    doc: DocId,
}

/// Prints `root` with lines of at most `width` columns where the document
/// allows, indenting by `indent_width` spaces per level.
pub fn print(docs: &Docs<'_>, root: DocId, width: usize, indent_width: usize) -> String {
    let mut printer = Printer {
        docs,
        width: width as i64,
        indent_width: indent_width as u32,
        out: String::new(),
        column: 0,
        pending_indent: None,
        line_indent: 0,
        protected_len: 0,
        line_suffixes: Vec::new(),
        heredocs: Vec::new(),
        group_modes: vec![Mode::Flat; docs.group_count()],
    };
    printer.run(root);
    printer.out
}

struct Printer<'d, 'a> {
    docs: &'d Docs<'a>,
    width: i64,
    indent_width: u32,
    out: String,
    /// Column of the next character (indentation included once pending).
    column: u32,
    /// Indentation owed to the current line, written with its first text.
    pending_indent: Option<u32>,
    /// The indentation the current line started with.
    line_indent: u32,
    /// Output before this length is verbatim source: never trimmed.
    protected_len: usize,
    line_suffixes: Vec<&'d str>,
    heredocs: Vec<&'d str>,
    group_modes: Vec<Mode>,
}

impl<'d, 'a> Printer<'d, 'a> {
    fn run(&mut self, root: DocId) {
        let mut stack = vec![Command {
            indent: 0,
            mode: Mode::Break,
            doc: root,
        }];
        while let Some(cmd) = stack.pop() {
            match self.docs.node(cmd.doc) {
                Node::Nil => {}
                Node::Text(text, width) => self.write_text(text, *width),
                Node::Verbatim(text) => self.write_verbatim(text),
                Node::Line(kind) => match (cmd.mode, kind) {
                    (Mode::Flat, LineKind::Space) => self.write_text(" ", 1),
                    (Mode::Flat, LineKind::Soft) => {}
                    _ => self.newline(cmd.indent),
                },
                Node::LineStart => {
                    if !self.at_line_start() {
                        self.newline(cmd.indent);
                    }
                }
                Node::Concat(parts) => {
                    stack.extend(parts.iter().rev().map(|&doc| Command { doc, ..cmd }));
                }
                Node::Indent(content) => stack.push(Command {
                    indent: cmd.indent + self.indent_width,
                    doc: *content,
                    ..cmd
                }),
                Node::Flat(content) => stack.push(Command {
                    mode: Mode::Flat,
                    doc: *content,
                    ..cmd
                }),
                Node::Group {
                    content,
                    id,
                    broken,
                } => {
                    let mode = if cmd.mode == Mode::Flat && !self.docs.forces_break(cmd.doc) {
                        Mode::Flat
                    } else if *broken || self.docs.forces_break(cmd.doc) {
                        Mode::Break
                    } else {
                        let next = Command {
                            mode: Mode::Flat,
                            doc: *content,
                            ..cmd
                        };
                        if self.fits(next, &stack) {
                            Mode::Flat
                        } else {
                            Mode::Break
                        }
                    };
                    if let Some(id) = id {
                        self.group_modes[id.index()] = mode;
                    }
                    stack.push(Command {
                        mode,
                        doc: *content,
                        ..cmd
                    });
                }
                Node::IfBreak {
                    broken,
                    flat,
                    group,
                } => stack.push(Command {
                    doc: self.if_break(cmd.mode, *broken, *flat, *group),
                    ..cmd
                }),
                Node::LineSuffix(text) => self.line_suffixes.push(text),
                Node::HeredocBody(text) => self.heredocs.push(text),
            }
        }
        self.newline(0);
        // The document ends with its last line break, written above; no
        // indentation is owed after it.
        self.pending_indent = None;
    }

    /// Whether `next`, then the commands on `rest` (top first), fit on the
    /// current line up to the first line break.
    fn fits(&self, next: Command, rest: &[Command]) -> bool {
        let mut remaining = self.width - self.column as i64;
        let mut local = vec![next];
        let mut rest_index = rest.len();
        loop {
            let cmd = match local.pop() {
                Some(cmd) => cmd,
                None => {
                    if rest_index == 0 {
                        return true;
                    }
                    rest_index -= 1;
                    rest[rest_index]
                }
            };
            match self.docs.node(cmd.doc) {
                Node::Nil | Node::LineSuffix(_) | Node::HeredocBody(_) => {}
                Node::Text(_, width) => remaining -= *width as i64,
                Node::Verbatim(text) => {
                    let first_line = text.split('\n').next().unwrap_or("");
                    remaining -= text_width(first_line) as i64;
                    if text.contains('\n') {
                        return remaining >= 0;
                    }
                }
                Node::Line(kind) => match (cmd.mode, kind) {
                    (Mode::Flat, LineKind::Space) => remaining -= 1,
                    (Mode::Flat, LineKind::Soft) => {}
                    _ => return true,
                },
                Node::LineStart => return true,
                Node::Concat(parts) => {
                    local.extend(parts.iter().rev().map(|&doc| Command { doc, ..cmd }))
                }
                Node::Indent(content) => local.push(Command {
                    doc: *content,
                    ..cmd
                }),
                Node::Flat(content) => local.push(Command {
                    mode: Mode::Flat,
                    doc: *content,
                    ..cmd
                }),
                Node::Group {
                    content, broken, ..
                } => {
                    let mode = if *broken || self.docs.forces_break(cmd.doc) {
                        Mode::Break
                    } else {
                        cmd.mode
                    };
                    local.push(Command {
                        mode,
                        doc: *content,
                        ..cmd
                    });
                }
                Node::IfBreak {
                    broken,
                    flat,
                    group,
                } => local.push(Command {
                    doc: self.if_break(cmd.mode, *broken, *flat, *group),
                    ..cmd
                }),
            }
            if remaining < 0 {
                return false;
            }
        }
    }

    /// The document an `IfBreak` stands for: its group's printed mode
    /// decides (the enclosing command's mode when it names none).
    fn if_break(&self, mode: Mode, broken: DocId, flat: DocId, group: Option<GroupId>) -> DocId {
        let mode = group.map_or(mode, |g| self.group_modes[g.index()]);
        if mode == Mode::Break {
            broken
        } else {
            flat
        }
    }

    fn at_line_start(&self) -> bool {
        self.pending_indent.is_some() || self.out.is_empty()
    }

    fn write_indent(&mut self) {
        if let Some(indent) = self.pending_indent.take() {
            for _ in 0..indent {
                self.out.push(' ');
            }
        }
    }

    fn write_text(&mut self, text: &str, width: u32) {
        if text.is_empty() {
            return;
        }
        self.write_indent();
        self.out.push_str(text);
        self.column += width;
    }

    fn write_verbatim(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.write_indent();
        self.out.push_str(text);
        self.protected_len = self.out.len();
        match text.rfind('\n') {
            Some(at) => self.column = text_width(&text[at + 1..]),
            None => self.column += text_width(text),
        }
    }

    /// Ends the line: its trailing comments, the line break, then the
    /// heredoc bodies whose headers stood on it.
    fn newline(&mut self, indent: u32) {
        let mut after_line_comment = false;
        for suffix in std::mem::take(&mut self.line_suffixes) {
            // A `#` comment runs to the end of its line: what follows it
            // goes on the next.
            if after_line_comment {
                self.out.push('\n');
                self.pending_indent = Some(self.line_indent.max(indent));
            }
            self.write_indent();
            if !self.out.ends_with([' ', '\n']) && !self.out.is_empty() {
                self.out.push(' ');
            }
            self.out.push_str(suffix);
            self.protected_len = self.out.len();
            after_line_comment = suffix.starts_with('#');
        }
        self.pending_indent = None;
        let keep = self.out.trim_end_matches([' ', '\t']).len();
        self.out.truncate(keep.max(self.protected_len));
        self.out.push('\n');
        for body in std::mem::take(&mut self.heredocs) {
            self.out.push_str(body);
            self.out.push('\n');
            self.protected_len = self.out.len();
        }
        self.pending_indent = Some(indent);
        self.line_indent = indent;
        self.column = indent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(docs: &mut Docs<'static>, items: &[&'static str], broken: bool) -> DocId {
        let open = docs.text("[");
        let mut inner = vec![docs.soft_line()];
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                inner.push(docs.text(","));
                inner.push(docs.line());
            }
            inner.push(docs.text(*item));
        }
        let inner = docs.concat(inner);
        let indented = docs.indent(inner);
        let close_line = docs.soft_line();
        let close = docs.text("]");
        let all = docs.concat(vec![open, indented, close_line, close]);
        docs.group(all, broken)
    }

    #[test]
    fn groups_break_only_when_they_do_not_fit() {
        let mut docs = Docs::default();
        let root = list(&mut docs, &["aaa", "bbb"], false);
        assert_eq!(print(&docs, root, 20, 2), "[aaa, bbb]\n");
        assert_eq!(print(&docs, root, 5, 2), "[\n  aaa,\n  bbb\n]\n");
        let mut docs = Docs::default();
        let root = list(&mut docs, &["a"], true);
        assert_eq!(print(&docs, root, 80, 2), "[\n  a\n]\n");
    }

    #[test]
    fn trailing_comments_and_heredocs_wait_for_the_line_break() {
        let mut docs = Docs::default();
        let a = docs.text("$x = @(EOT)");
        let body = docs.heredoc_body("  text\n  | EOT");
        let comment = docs.line_suffix("# note");
        let b = docs.text(" ");
        let hard = docs.hard_line();
        let c = docs.text("$y = 1");
        let root = docs.concat(vec![a, body, comment, b, hard, c]);
        assert_eq!(
            print(&docs, root, 80, 2),
            "$x = @(EOT) # note\n  text\n  | EOT\n$y = 1\n"
        );
    }

    #[test]
    fn blank_lines_carry_no_indentation() {
        let mut docs = Docs::default();
        let a = docs.text("{");
        let h1 = docs.hard_line();
        let h2 = docs.hard_line();
        let b = docs.text("x");
        let inner = docs.concat(vec![h1, h2, b]);
        let indented = docs.indent(inner);
        let root = docs.concat(vec![a, indented]);
        assert_eq!(print(&docs, root, 80, 2), "{\n\n  x\n");
    }
}
