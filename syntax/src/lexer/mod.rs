//! Turns Puppet source text into a flat list of tokens, trivia included.
//!
//! Puppet's lexer is context sensitive, so a driver walks the text with an
//! explicit mode: code, double-quoted string, interpolation (`${ ... }`),
//! heredoc body and EPP text. Code tokens come from logos (`code.rs`); the
//! driver decides what depends on context, exactly as Puppet 7's `Lexer2`
//! does. The token list always covers the whole input: concatenating the
//! token texts gives the input back.

mod code;
mod heredoc;
mod strings;

use crate::syntax_kind::SyntaxKind::{self, *};
use crate::Code;
use crate::{SyntaxError, TextRange};
use code::{raw_token, RawToken};
pub(crate) use heredoc::parse_heredoc_header;
use std::ops::Range;

/// One token: its kind and its length in bytes. Offsets are implied by order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: SyntaxKind,
    pub len: u32,
}

/// What kind of source the text is: a manifest or an EPP template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SourceKind {
    #[default]
    Manifest,
    Template,
}

impl SourceKind {
    /// `.epp` files are templates, everything else is a manifest.
    pub fn from_path(path: &std::path::Path) -> SourceKind {
        match path.extension().and_then(|e| e.to_str()) {
            Some("epp") => SourceKind::Template,
            _ => SourceKind::Manifest,
        }
    }
}

/// The lexer's output.
#[derive(Debug, Clone, Default)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub errors: Vec<SyntaxError>,
    /// Token index ranges of heredoc bodies (text, interpolations and end
    /// tag), in text order. The n-th body belongs to the n-th heredoc header.
    pub heredoc_bodies: Vec<Range<usize>>,
    /// The first `/` where a regex could start but no closing `/` follows:
    /// any `/` added after it changes how it lexes.
    pub pending_regex_start: Option<usize>,
}

/// Nesting of strings within interpolations within strings is capped so that
/// hostile input cannot overflow the stack.
const MAX_STRING_NESTING: u32 = 64;

/// Lexes `text` as a manifest or template.
pub fn lex(text: &str, kind: SourceKind) -> Lexed {
    let mut lexer = Lexer::new(text, 0);
    if text.starts_with('\u{FEFF}') {
        lexer.push_error(
            0,
            3,
            "illegal byte order mark: Puppet source must be UTF-8 without a BOM",
            Code::IllegalBom,
        );
        // Trivia, so the parser does not report it a second time.
        lexer.push(WHITESPACE, 3);
    }
    match kind {
        SourceKind::Manifest => {
            lexer.code(Stop::Eof);
        }
        SourceKind::Template => lexer.template(),
    }
    lexer.flush_unfound_heredocs();
    lexer.out.heredoc_bodies.sort_by_key(|body| body.start);
    debug_assert_eq!(
        lexer
            .out
            .tokens
            .iter()
            .map(|t| t.len as usize)
            .sum::<usize>(),
        text.len()
    );
    lexer.out
}

/// Where a code-mode run ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// End of input.
    Eof,
    /// The `}` closing a `${` at brace depth zero.
    InterpClose,
    /// `%>` or `-%>` in a template; the flag says whether it closes `<%=`.
    EppClose { render: bool },
}

/// A heredoc whose header has been seen and whose body waits to be emitted
/// at the next line break.
#[derive(Debug, Clone)]
struct PendingHeredoc {
    body_start: usize,
    content_end: usize,
    end_line_end: usize,
    interpolate: bool,
    escape_dollar: bool,
}

struct Lexer<'a> {
    /// The text being lexed; a sub-lexer sees a prefix of the whole input.
    src: &'a str,
    pos: usize,
    out: Lexed,
    /// The previous significant token, for regex and `{` decisions.
    prev: SyntaxKind,
    pending: Vec<PendingHeredoc>,
    /// Where the next heredoc body on the current line would start.
    newline_jump: Option<usize>,
    nesting: u32,
}

impl<'a> Lexer<'a> {
    fn new(src: &'a str, pos: usize) -> Lexer<'a> {
        Lexer {
            src,
            pos,
            out: Lexed::default(),
            prev: EOF,
            pending: Vec::new(),
            newline_jump: None,
            nesting: 0,
        }
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.src.as_bytes().get(self.pos + ahead).copied()
    }

    fn push(&mut self, kind: SyntaxKind, len: usize) {
        if len == 0 {
            return;
        }
        self.out.tokens.push(Token {
            kind,
            len: len as u32,
        });
        self.pos += len;
        if !kind.is_trivia() {
            self.prev = kind;
        }
    }

    fn push_error(&mut self, start: usize, end: usize, message: impl Into<String>, code: Code) {
        let range = TextRange::new((start as u32).into(), (end as u32).into());
        self.out
            .errors
            .push(SyntaxError::error(range, message, code));
    }

    // ----- code mode -----

    /// Lexes code until `stop`; returns true when the stop token was found.
    fn code(&mut self, stop: Stop) -> bool {
        let mut brace_depth = 0u32;
        while self.pos < self.src.len() {
            if self.emit_heredoc_bodies_here() {
                continue;
            }
            if let Stop::EppClose { render } = stop {
                let rest = self.rest();
                let close = if rest.starts_with("%>") {
                    2
                } else if rest.starts_with("-%>") {
                    3
                } else {
                    0
                };
                if close > 0 {
                    self.push(if render { EPP_RENDER_CLOSE } else { EPP_CLOSE }, close);
                    return true;
                }
            }
            let c = self.rest().chars().next().unwrap_or('\0');
            match c {
                '"' => {
                    self.double_quoted();
                    continue;
                }
                '\'' => {
                    self.single_quoted();
                    continue;
                }
                '0'..='9' => {
                    self.number();
                    continue;
                }
                '@' if self.peek_byte(1) == Some(b'(') => {
                    self.heredoc_header();
                    continue;
                }
                // `regex` consumes only when it finds the closing slash;
                // otherwise `/` falls through to division below.
                '/' if self.peek_byte(1) != Some(b'*') && self.regex_acceptable() => {
                    if self.regex() {
                        continue;
                    }
                    // Division for now; a `/` typed later would make it a
                    // regex reaching to there (incremental reparsing must know).
                    self.out.pending_regex_start.get_or_insert(self.pos);
                }
                '/' if self.peek_byte(1) == Some(b'*') && !self.rest()[2..].contains("*/") => {
                    let len = self.src.len() - self.pos;
                    self.push_error(
                        self.pos,
                        self.pos + 2,
                        "unclosed multi-line comment: '/*' has no matching '*/'",
                        Code::UnclosedComment,
                    );
                    self.push(BLOCK_COMMENT, len);
                    continue;
                }
                _ => {}
            }
            let Some((raw, len)) = raw_token(self.rest()) else {
                let len = c.len_utf8().max(1);
                self.push(UNKNOWN, len);
                continue;
            };
            let kind = match raw {
                RawToken::Whitespace => {
                    let len = self.clip_to_pending_body(len);
                    self.push(WHITESPACE, len);
                    continue;
                }
                RawToken::Comment => {
                    // `#` comments end before the line break; with CRLF the
                    // `\r` belongs to the line break.
                    let text = &self.rest()[..len];
                    let len = if text.ends_with('\r') { len - 1 } else { len };
                    self.push(COMMENT, len);
                    continue;
                }
                RawToken::BlockComment => BLOCK_COMMENT,
                RawToken::BareWord => {
                    let word = &self.rest()[..len];
                    self.word_kind(word)
                }
                RawToken::TypeRef => {
                    let len = self.type_ref_len(len);
                    self.push(TYPE_REF, len);
                    continue;
                }
                RawToken::Variable | RawToken::Dollar => VARIABLE,
                RawToken::LBrack => {
                    if self.preceded_by_blank_or_start() {
                        L_BRACK_LIST
                    } else {
                        L_BRACK
                    }
                }
                RawToken::RBrack => R_BRACK,
                RawToken::LBrace => {
                    brace_depth += 1;
                    L_BRACE
                }
                RawToken::RBrace => {
                    if stop == Stop::InterpClose && brace_depth == 0 {
                        self.push(INTERP_CLOSE, 1);
                        return true;
                    }
                    brace_depth = brace_depth.saturating_sub(1);
                    R_BRACE
                }
                RawToken::LParen => {
                    if self.first_on_line() {
                        L_PAREN_WS
                    } else {
                        L_PAREN
                    }
                }
                RawToken::RParen => R_PAREN,
                RawToken::Semicolon => SEMICOLON,
                RawToken::Comma => COMMA,
                RawToken::Dot => DOT,
                RawToken::Colon => COLON,
                RawToken::ColonColon => {
                    self.push_error(
                        self.pos,
                        self.pos + 2,
                        "illegal fully qualified name: '::' must be followed by a name",
                        Code::IllegalName,
                    );
                    UNKNOWN
                }
                RawToken::Question => QUESTION,
                RawToken::Pipe => PIPE,
                RawToken::At => AT,
                RawToken::AtAt => ATAT,
                RawToken::Eq => EQ,
                RawToken::PlusEq => PLUS_EQ,
                RawToken::MinusEq => MINUS_EQ,
                RawToken::Eq2 => EQ2,
                RawToken::Neq => NEQ,
                RawToken::Match => MATCH,
                RawToken::NoMatch => NOMATCH,
                RawToken::Lt => LT,
                RawToken::LtEq => LTEQ,
                RawToken::Gt => GT,
                RawToken::GtEq => GTEQ,
                RawToken::FatArrow => FAT_ARROW,
                RawToken::PlusArrow => PLUS_ARROW,
                RawToken::Shl => SHL,
                RawToken::Shr => SHR,
                RawToken::LCollect => LCOLLECT,
                RawToken::LLCollect => LLCOLLECT,
                RawToken::RCollect => RCOLLECT,
                RawToken::RRCollect => RRCOLLECT,
                RawToken::Plus => PLUS,
                RawToken::Minus => MINUS,
                RawToken::Star => STAR,
                RawToken::Slash => SLASH,
                RawToken::Percent => PERCENT,
                RawToken::Bang => BANG,
                RawToken::Tilde => TILDE,
                RawToken::InEdge => IN_EDGE,
                RawToken::InEdgeSub => IN_EDGE_SUB,
                RawToken::OutEdge => OUT_EDGE,
                RawToken::OutEdgeSub => OUT_EDGE_SUB,
            };
            let len = self.clip_to_pending_body(len);
            self.push(kind, len);
        }
        self.emit_heredoc_bodies_here();
        false
    }

    /// Keyword, `NAME` or `WORD` for a bare word, as Puppet's lexer decides.
    fn word_kind(&self, word: &str) -> SyntaxKind {
        if is_name(word) {
            SyntaxKind::from_keyword(word).unwrap_or(NAME)
        } else {
            WORD
        }
    }

    /// A type reference followed by `::lower` is one illegal token.
    fn type_ref_len(&mut self, len: usize) -> usize {
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let mut end = start + len;
        if bytes.get(end) == Some(&b':') && bytes.get(end + 1) == Some(&b':') {
            end += 2;
            while end < bytes.len()
                && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_' || bytes[end] == b':')
            {
                end += 1;
            }
            self.push_error(
                start,
                end,
                "illegal type reference: every segment must start with an upper-case letter",
                Code::IllegalTypeReference,
            );
        }
        end - start
    }

    fn preceded_by_blank_or_start(&self) -> bool {
        match self.src[..self.pos].chars().next_back() {
            None => true,
            Some(c) => c == '\r' || c == '\n' || is_blank(c),
        }
    }

    /// True when only blanks stand between the line start and the position.
    fn first_on_line(&self) -> bool {
        for c in self.src[..self.pos].chars().rev() {
            if c == '\n' {
                return true;
            }
            if !(is_blank(c) || c == '\r') {
                return false;
            }
        }
        true
    }

    /// Puppet lexes `/` as a regex except after tokens that end an operand.
    fn regex_acceptable(&self) -> bool {
        !matches!(
            self.prev,
            R_PAREN
                | R_BRACK
                | RRCOLLECT
                | RCOLLECT
                | NAME
                | TYPE_REF
                | NUMBER
                | SQ_STRING
                | DQUOTE
                | TRUE_KW
                | FALSE_KW
                | HEREDOC_HEADER
                | HEREDOC_END
                | REGEX
                | VARIABLE
                | WORD
        )
    }

    /// Scans `/.../`; an escaped `/` does not end it. Returns false (and
    /// consumes nothing) if there is no closing slash.
    fn regex(&mut self) -> bool {
        let bytes = self.src.as_bytes();
        let mut i = self.pos + 1;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'/' => {
                    let len = i + 1 - self.pos;
                    let len = self.clip_to_pending_body(len);
                    self.push(REGEX, len);
                    return true;
                }
                _ => i += 1,
            }
        }
        false
    }

    /// Numbers: decimal, octal, hex, float; invalid digits are errors.
    fn number(&mut self) {
        let bytes = self.src.as_bytes();
        let start = self.pos;
        let mut i = start;
        let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let mut error: Option<&'static str> = None;
        if bytes[i] == b'0' && matches!(bytes.get(i + 1), Some(b'x' | b'X')) {
            i += 2;
            let digits = i;
            while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                i += 1;
            }
            if i == digits {
                error = Some("not a valid hexadecimal number");
            }
        } else {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(|b| b.is_ascii_digit()) {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if matches!(bytes.get(i), Some(b'e' | b'E')) {
                let mut j = i + 1;
                if bytes.get(j) == Some(&b'-') {
                    j += 1;
                }
                if bytes.get(j).is_some_and(|b| b.is_ascii_digit()) {
                    i = j;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            // As in Puppet's `assert_numeric`, a leading `0` not followed by
            // `.` makes the whole literal octal: `01.5` and `0e5` are invalid
            // octal numbers, not floats.
            let digits = &self.src[start..i];
            if digits.len() > 1
                && digits.starts_with('0')
                && digits.as_bytes()[1] != b'.'
                && !digits[1..].bytes().all(|b| (b'0'..=b'7').contains(&b))
            {
                error = Some("not a valid octal number");
            }
        }
        if i < bytes.len() && is_word(bytes[i]) {
            while i < bytes.len() && is_word(bytes[i]) {
                i += 1;
            }
            error = Some("not a valid number");
        }
        if let Some(message) = error {
            let text = &self.src[start..i];
            self.push_error(
                start,
                i,
                format!("illegal number '{text}': {message}"),
                Code::IllegalNumber,
            );
        }
        let len = self.clip_to_pending_body(i - start);
        self.push(NUMBER, len);
    }

    // ----- templates -----

    /// EPP: text with `<% %>`, `<%= %>`, `<%# %>` and `<%%`.
    ///
    /// Text is classified as Puppet's `EppScanner` sees it: the pieces of
    /// text between two code tags (and the comments among them) form one
    /// string, from which `-%>` trims the blanks and line break that follow
    /// it and `<%-` (or `<%#-`) the blanks that precede it. When nothing is
    /// left, Puppet renders nothing and the code continues across the tags,
    /// so those pieces become trivia ([`EPP_TRIMMED_TEXT`]).
    fn template(&mut self) {
        let mut run = TextRun::default();
        // The previous tag ended with `-%>`.
        let mut trim_leading = false;
        while self.pos < self.src.len() {
            // Text up to the next `<%` that is not `<%%`.
            let bytes = self.src.as_bytes();
            let mut i = self.pos;
            let open = loop {
                match self.src[i..].find("<%") {
                    None => break None,
                    Some(off) => {
                        let at = i + off;
                        if bytes.get(at + 2) == Some(&b'%') {
                            i = at + 3;
                        } else {
                            break Some(at);
                        }
                    }
                }
            };
            let text_end = open.unwrap_or(self.src.len());
            let has_text = text_end > self.pos;
            if has_text {
                let piece = &self.src[self.pos..text_end];
                run.push(self.out.tokens.len(), piece, trim_leading);
                self.push(EPP_TEXT, text_end - self.pos);
            }
            trim_leading = false;
            let Some(open) = open else {
                run.finish(
                    RunEnd::Eof {
                        after_text: has_text,
                    },
                    &mut self.out.tokens,
                );
                break;
            };
            match bytes.get(open + 2) {
                Some(b'#') => {
                    let body = &self.src[open + 3..];
                    if body.starts_with('-') {
                        run.trim_trailing_blanks();
                    }
                    match find_epp_comment_end(body) {
                        Some(end) => {
                            trim_leading = body[..end].ends_with("-%>");
                            self.push(EPP_COMMENT, 3 + end);
                        }
                        None => {
                            self.push_error(
                                open,
                                open + 3,
                                "unbalanced EPP comment: '<%#' has no closing '%>'",
                                Code::UnclosedEppTag,
                            );
                            self.push(EPP_COMMENT, self.src.len() - open);
                        }
                    }
                    if self.pos >= self.src.len() {
                        run.finish(RunEnd::Eof { after_text: false }, &mut self.out.tokens);
                    }
                    continue;
                }
                Some(b'=') => {
                    run.finish(RunEnd::Tag, &mut self.out.tokens);
                    self.push(EPP_RENDER_OPEN, 3);
                    if !self.code(Stop::EppClose { render: true }) {
                        self.unclosed_epp_tag(open);
                    }
                }
                Some(b'-') => {
                    run.trim_trailing_blanks();
                    run.finish(RunEnd::Tag, &mut self.out.tokens);
                    self.push(EPP_OPEN, 3);
                    if !self.code(Stop::EppClose { render: false }) {
                        self.unclosed_epp_tag(open);
                    }
                }
                _ => {
                    run.finish(RunEnd::Tag, &mut self.out.tokens);
                    self.push(EPP_OPEN, 2);
                    if !self.code(Stop::EppClose { render: false }) {
                        self.unclosed_epp_tag(open);
                    }
                }
            }
            trim_leading = self.src[..self.pos].ends_with("-%>");
        }
    }

    fn unclosed_epp_tag(&mut self, open: usize) {
        self.push_error(
            open,
            open + 2,
            "unbalanced EPP tag: reached the end of the template without a closing '%>'",
            Code::UnclosedEppTag,
        );
    }
}

/// The pieces of EPP text that Puppet's scanner joins into one string:
/// text between two code tags, split by comments.
#[derive(Default)]
struct TextRun {
    /// Token index of each piece and what is left of it after trimming.
    pieces: Vec<(usize, String)>,
}

/// What ends a run of EPP text.
enum RunEnd {
    /// A code or render tag: empty text is not rendered at all.
    Tag,
    /// The end of the template. Puppet renders the last piece even when
    /// trimmed to nothing, but drops the whole run when a comment ends the
    /// template (`after_text` false).
    Eof { after_text: bool },
}

impl TextRun {
    /// Adds a piece; after `-%>` Puppet drops its leading blanks and one
    /// line break (`^[ \t]*\r?(\n|\z)?`).
    fn push(&mut self, token: usize, text: &str, trim_leading: bool) {
        let mut kept = text;
        if trim_leading {
            kept = kept.trim_start_matches([' ', '\t']);
            kept = kept.strip_prefix('\r').unwrap_or(kept);
            kept = kept.strip_prefix('\n').unwrap_or(kept);
        }
        self.pieces.push((token, kept.to_string()));
    }

    /// `<%-` and `<%#-` drop the blanks at the end of the text so far.
    fn trim_trailing_blanks(&mut self) {
        for (_, kept) in self.pieces.iter_mut().rev() {
            let trimmed_len = kept.trim_end_matches([' ', '\t']).len();
            kept.truncate(trimmed_len);
            if !kept.is_empty() {
                break;
            }
        }
    }

    /// Classifies the run's tokens: pieces left empty are trivia, unless
    /// Puppet renders them.
    fn finish(&mut self, end: RunEnd, tokens: &mut [Token]) {
        let pieces = std::mem::take(&mut self.pieces);
        let rendered_empty = matches!(end, RunEnd::Eof { after_text: true });
        let dropped = matches!(end, RunEnd::Eof { after_text: false });
        let last = pieces.len().saturating_sub(1);
        for (i, (token, kept)) in pieces.iter().enumerate() {
            let keep = !dropped && (!kept.is_empty() || (rendered_empty && i == last));
            if !keep {
                if let Some(t) = tokens.get_mut(*token) {
                    t.kind = EPP_TRIMMED_TEXT;
                }
            }
        }
    }
}

/// Finds the end (exclusive, relative) of an EPP comment body: the first
/// `%>` not preceded by `%`.
fn find_epp_comment_end(body: &str) -> Option<usize> {
    let bytes = body.as_bytes();
    let mut i = 0;
    while let Some(off) = body[i..].find("%>") {
        let at = i + off;
        if at > 0 && bytes[at - 1] != b'%' {
            return Some(at + 2);
        }
        i = at + 1;
    }
    None
}

/// Ruby's `[[:blank:]]`: tab and Unicode space separators.
pub(crate) fn is_blank(c: char) -> bool {
    c == '\t'
        || matches!(
            c,
            ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
                ..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
        )
}

/// Puppet's strict `NAME` rule: `(::)?[a-z]\w*(::[a-z]\w*)*`.
pub fn is_name(word: &str) -> bool {
    let word = word.strip_prefix("::").unwrap_or(word);
    !word.is_empty()
        && word.split("::").all(|seg| {
            let mut chars = seg.chars();
            matches!(chars.next(), Some('a'..='z'))
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}
