//! Heredocs: `@(TAG:syntax/escapes)` headers and their out-of-band bodies.
//!
//! The body starts on the line after the header (or after the previous
//! heredoc's end line when several start on one line). Its extent is found
//! at the header, as Puppet does; its tokens are emitted when lexing reaches
//! the line break, so the token list stays in text order.

use super::strings::TextEnd;
use super::{is_blank, Lexer, PendingHeredoc};
use crate::syntax_kind::SyntaxKind::*;
use crate::Code;

/// The parts of a heredoc header, `@(` and `)` excluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeredocHeader<'a> {
    /// The end tag, quotes removed and trimmed.
    pub tag: &'a str,
    /// `@("TAG")`: the body interpolates.
    pub interpolate: bool,
    /// `:json` and the like, if given.
    pub syntax: Option<&'a str>,
    /// `/tn$`: `None` without a slash; `Some("")` turns all escapes on.
    pub escapes: Option<&'a str>,
}

/// Parses the inside of `@( ... )`, with the problem on failure.
pub fn parse_heredoc_header(inner: &str) -> Result<HeredocHeader<'_>, &'static str> {
    let tag_end = inner.find([':', '/']).unwrap_or(inner.len());
    let raw_tag = &inner[..tag_end];
    if raw_tag.is_empty() {
        return Err("invalid heredoc syntax: the end tag is missing");
    }
    let mut rest = &inner[tag_end..];
    let mut syntax = None;
    if let Some(after) = rest.strip_prefix(':') {
        let after = after.trim_start_matches(is_blank);
        let len = after
            .char_indices()
            .take_while(|&(i, c)| {
                if i == 0 {
                    c.is_ascii_lowercase()
                } else {
                    c.is_ascii_alphanumeric() || c == '_' || c == '+'
                }
            })
            .count();
        if len < 2 {
            return Err("invalid heredoc syntax: the syntax after ':' must be a name like 'json'");
        }
        syntax = Some(&after[..len]);
        rest = after[len..].trim_start_matches(is_blank);
    }
    let mut escapes = None;
    if let Some(after) = rest.strip_prefix('/') {
        let len = after
            .bytes()
            .take_while(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
            .count();
        escapes = Some(&after[..len]);
        rest = after[len..].trim_start_matches(is_blank);
    }
    if !rest.is_empty() {
        return Err("invalid heredoc syntax: expected @(TAG), @(TAG:syntax) or @(TAG/escapes)");
    }
    let mut tag = raw_tag.trim_matches(|c: char| is_blank(c) || c == '\r');
    let mut interpolate = false;
    if tag.len() >= 2 && tag.starts_with('"') && tag.ends_with('"') {
        interpolate = true;
        tag = tag[1..tag.len() - 1].trim_matches(is_blank);
    }
    if tag.is_empty() {
        return Err("invalid heredoc: the end tag is empty");
    }
    Ok(HeredocHeader {
        tag,
        interpolate,
        syntax,
        escapes,
    })
}

/// Checks the escape letters of a header: only `t r n s u L $`, each once.
pub fn check_heredoc_escapes(escapes: &str) -> Result<(), String> {
    for (i, c) in escapes.char_indices() {
        if !matches!(c, 't' | 'r' | 'n' | 's' | 'u' | 'L' | '$') {
            return Err(format!(
                "invalid heredoc escape '{c}': only t, r, n, s, u, L and $ are allowed"
            ));
        }
        if escapes[..i].contains(c) {
            return Err(format!("heredoc escape '{c}' is given more than once"));
        }
    }
    Ok(())
}

/// If `line` (without its line break) ends a heredoc with `tag`, returns
/// true. Puppet matches the end marker anywhere on the line, as long as the
/// tag is followed only by blanks.
pub fn is_heredoc_end_line(line: &str, tag: &str) -> bool {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let line = line.trim_end_matches(is_blank);
    line.ends_with(tag)
}

impl Lexer<'_> {
    /// Lexes `@(...)` and records where its body is.
    pub(super) fn heredoc_header(&mut self) {
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let close = bytes[start..]
            .iter()
            .position(|&b| b == b')' || b == b'\n')
            .map(|off| start + off)
            .filter(|&i| bytes[i] == b')');
        let Some(close) = close else {
            self.push_error(
                start,
                start + 2,
                "unclosed heredoc: '@(' has no closing ')' on its line",
                Code::InvalidHeredoc,
            );
            // The rest of the line is the broken header: lexing it as code
            // would only add confusing errors (`@` as a virtual resource).
            let line = &self.src[start..];
            let len = line.find(['\r', '\n']).unwrap_or(line.len());
            self.push(HEREDOC_HEADER, len);
            return;
        };
        let inner = &self.src[start + 2..close];
        let header = match parse_heredoc_header(inner) {
            Ok(header) => header,
            Err(message) => {
                self.push_error(start, close + 1, message, Code::InvalidHeredoc);
                self.push(HEREDOC_HEADER, close + 1 - start);
                return;
            }
        };
        if let Some(escapes) = header.escapes {
            if let Err(message) = check_heredoc_escapes(escapes) {
                self.push_error(start, close + 1, message, Code::InvalidHeredoc);
            }
        }
        let escape_dollar = header
            .escapes
            .is_some_and(|e| e.is_empty() || e.contains('$'));
        let tag = header.tag.to_string();
        let interpolate = header.interpolate;
        self.push(HEREDOC_HEADER, close + 1 - start);

        let body_start = match self.newline_jump {
            Some(jump) => jump,
            None => match self.src[self.pos..].find('\n') {
                Some(off) => self.pos + off + 1,
                None => {
                    self.push_error(
                        start,
                        close + 1,
                        "heredoc without text: the text must start on the next line",
                        Code::InvalidHeredoc,
                    );
                    return;
                }
            },
        };
        let mut line_start = body_start;
        let (content_end, end_line_end, next) = loop {
            if line_start >= self.src.len() {
                self.push_error(
                    start,
                    close + 1,
                    format!("heredoc without end tag: no line ends with '{tag}'"),
                    Code::InvalidHeredoc,
                );
                let len = self.src.len();
                break (len, len, len);
            }
            let line_end = self.src[line_start..]
                .find('\n')
                .map_or(self.src.len(), |off| line_start + off);
            let line = &self.src[line_start..line_end];
            if is_heredoc_end_line(line, &tag) {
                let content_end = line_start;
                let end_line_end = line_start + line.strip_suffix('\r').unwrap_or(line).len();
                let next = (line_end + 1).min(self.src.len());
                break (content_end, end_line_end, next);
            }
            line_start = line_end + 1;
        };
        self.newline_jump = Some(next);
        self.pending.push(PendingHeredoc {
            body_start,
            content_end,
            end_line_end,
            interpolate,
            escape_dollar,
        });
    }

    /// Truncates a token that would run into a pending heredoc body.
    pub(super) fn clip_to_pending_body(&self, len: usize) -> usize {
        match self.pending.first() {
            Some(p) if self.pos < p.body_start && p.body_start < self.pos + len => {
                p.body_start - self.pos
            }
            _ => len,
        }
    }

    /// At the start of pending heredoc bodies, emits them all; returns true
    /// if it did. Bodies that lexing has already passed are reported.
    pub(super) fn emit_heredoc_bodies_here(&mut self) -> bool {
        let Some(first) = self.pending.first() else {
            return false;
        };
        if first.body_start > self.pos {
            return false;
        }
        if first.body_start < self.pos {
            self.flush_unfound_heredocs();
            return false;
        }
        let pending = std::mem::take(&mut self.pending);
        self.newline_jump = None;
        for (i, body) in pending.iter().enumerate() {
            if i > 0 {
                // The line break after the previous end tag.
                let ws = body.body_start.saturating_sub(self.pos);
                self.push(WHITESPACE, ws);
            }
            let first_token = self.out.tokens.len();
            if body.interpolate {
                let mut sub = Lexer::new(&self.src[..body.content_end], self.pos);
                sub.nesting = self.nesting + 1;
                sub.interpolated_text(TextEnd::EndOfText, HEREDOC_TEXT, body.escape_dollar);
                // A heredoc started in an interpolation of this body has no
                // body of its own (its lines are this body's text).
                sub.flush_unfound_heredocs();
                let sub_first = self.out.tokens.len();
                self.out.tokens.extend(sub.out.tokens);
                self.out.errors.extend(sub.out.errors);
                self.out.heredoc_bodies.extend(
                    sub.out
                        .heredoc_bodies
                        .into_iter()
                        .map(|r| r.start + sub_first..r.end + sub_first),
                );
                self.pos = sub.pos;
            } else {
                self.push(HEREDOC_TEXT, body.content_end - self.pos);
            }
            self.push(HEREDOC_END, body.end_line_end - self.pos);
            self.out
                .heredoc_bodies
                .push(first_token..self.out.tokens.len());
        }
        self.prev = HEREDOC_END;
        true
    }

    /// Reports heredoc bodies that lexing ran past (a token on the header's
    /// line spilled into them) and forgets them.
    pub(super) fn flush_unfound_heredocs(&mut self) {
        for body in std::mem::take(&mut self.pending) {
            let at = body.body_start.min(self.src.len());
            self.push_error(
                at,
                at,
                "heredoc text could not be found: the line of its header continues into it",
                Code::InvalidHeredoc,
            );
        }
        self.newline_jump = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        let h = parse_heredoc_header("END").unwrap();
        assert_eq!(
            (h.tag, h.interpolate, h.syntax, h.escapes),
            ("END", false, None, None)
        );
        let h = parse_heredoc_header(" \"END\" :json/t$ ").unwrap();
        assert_eq!(
            (h.tag, h.interpolate, h.syntax, h.escapes),
            ("END", true, Some("json"), Some("t$"))
        );
        let h = parse_heredoc_header("Verse 8 of The Raven/").unwrap();
        assert_eq!((h.tag, h.escapes), ("Verse 8 of The Raven", Some("")));
        assert!(parse_heredoc_header("").is_err());
        assert!(parse_heredoc_header(":json").is_err());
        assert!(parse_heredoc_header("END:j").is_err());
        assert!(parse_heredoc_header("\"\"").is_err());
        assert!(check_heredoc_escapes("tt").is_err());
        assert!(check_heredoc_escapes("x").is_err());
        assert!(check_heredoc_escapes("trnsuL$").is_ok());
    }

    #[test]
    fn end_lines() {
        assert!(is_heredoc_end_line("END", "END"));
        assert!(is_heredoc_end_line("  |- END  \r", "END"));
        assert!(is_heredoc_end_line("foo END", "END"));
        assert!(!is_heredoc_end_line("END foo", "END"));
    }
}
