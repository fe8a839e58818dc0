//! Values of literal tokens: numbers, string escapes, heredoc text.

use crate::lexer::{is_blank, parse_heredoc_header};
use rowan::TextRange;

/// A number literal's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    Integer(i64),
    Float(f64),
}

/// Why a number literal has no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumberError {
    /// Digits not valid in the radix (`0x`, `089`, `1a`).
    Invalid,
    /// An integer outside the 64-bit signed range.
    Overflow,
}

/// Parses a number as Puppet does: `0x` hex, leading-zero octal, decimal,
/// and floats with a fraction or an exponent.
pub fn parse_number(text: &str) -> Result<Number, NumberError> {
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return parse_radix(hex, 16);
    }
    if text.contains(['.', 'e', 'E']) {
        let valid = text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-'));
        return match text.parse::<f64>() {
            Ok(f) if valid && f.is_finite() => Ok(Number::Float(f)),
            _ => Err(NumberError::Invalid),
        };
    }
    if text.len() > 1 && text.starts_with('0') {
        return parse_radix(&text[1..], 8);
    }
    parse_radix(text, 10)
}

fn parse_radix(digits: &str, radix: u32) -> Result<Number, NumberError> {
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(NumberError::Invalid);
    }
    i64::from_str_radix(digits, radix)
        .map(Number::Integer)
        .map_err(|_| NumberError::Overflow)
}

/// Whether the text ends with an odd number of backslashes before its last
/// character (so a closing quote there would be escaped).
pub(crate) fn ends_with_escape(inner: &str) -> bool {
    let without_last = &inner[..inner.len().saturating_sub(1)];
    without_last
        .bytes()
        .rev()
        .take_while(|&b| b == b'\\')
        .count()
        % 2
        == 1
}

/// Where each byte of a literal's value comes from in the written text.
/// A quoted string's or heredoc's value differs from its source by escapes
/// (`\\` is one byte of value written as two) and a heredoc's margin, so a
/// position in the value (in an `inline_epp()` template, say) needs this to
/// be shown in the source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TextOrigin {
    /// For each byte of the value, the source range it comes from.
    spans: Vec<(u32, u32)>,
    /// Where the value ends in the source.
    end: u32,
}

impl TextOrigin {
    /// Where the value's byte at `offset` starts in the source (the end of
    /// the value for an offset past it).
    fn start_of(&self, offset: usize) -> u32 {
        self.spans.get(offset).map_or(self.end, |s| s.0)
    }

    /// Where the value's bytes before `offset` end in the source.
    fn end_of(&self, offset: usize) -> u32 {
        match offset.checked_sub(1).and_then(|i| self.spans.get(i)) {
            Some(s) => s.1,
            None => self.start_of(offset),
        }
    }

    /// The source range of a range of the value: exact, an escape being
    /// all of its source text.
    pub fn source_range(&self, range: TextRange) -> TextRange {
        let (a, b) = (usize::from(range.start()), usize::from(range.end()));
        let start = self.start_of(a);
        let end = if b > a { self.end_of(b) } else { start };
        TextRange::new(start.into(), end.max(start).into())
    }

    /// The range of the value whose bytes come exactly from `source` (a
    /// range [`TextOrigin::source_range`] gives), if there is one.
    pub fn value_range(&self, source: TextRange) -> Option<TextRange> {
        let (start, end) = (u32::from(source.start()), u32::from(source.end()));
        let a = self.spans.iter().position(|s| s.0 == start)?;
        let b = if end == start {
            a
        } else {
            a + 1 + self.spans[a..].iter().position(|s| s.1 == end)?
        };
        Some(TextRange::new(offset(a).into(), offset(b).into()))
    }

    /// This origin, whose source is a value of `outer`, in `outer`'s source.
    fn through(&self, outer: &TextOrigin) -> TextOrigin {
        let spans = self
            .spans
            .iter()
            .map(|&(s, e)| {
                let r = outer.source_range(TextRange::new(s.into(), e.into()));
                (u32::from(r.start()), u32::from(r.end()))
            })
            .collect();
        TextOrigin {
            spans,
            end: outer.start_of(self.end as usize),
        }
    }
}

/// A literal's value with the origin of each of its bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MappedText {
    pub text: String,
    pub origin: TextOrigin,
}

impl MappedText {
    /// Appends another value, keeping each byte's origin.
    pub fn append(&mut self, other: MappedText) {
        self.text.push_str(&other.text);
        self.origin.spans.extend(other.origin.spans);
        self.origin.end = other.origin.end;
    }
}

/// Where unescaping and heredoc processing write: the value alone
/// (`String`), or the value with its origin ([`MappedText`]). One
/// implementation of the rules serves both.
pub(crate) trait Sink: Default {
    /// `text`, copied from the source at `at`.
    fn copied(&mut self, text: &str, at: usize);
    /// `text`, standing for the `len` source bytes at `at` (an escape).
    fn replaced(&mut self, text: &str, at: usize, len: usize);
    /// The value ends at `at` in the source.
    fn ends_at(&mut self, at: usize);
    fn value(&self) -> &str;
    /// Keeps the value's first `len` bytes.
    fn truncate(&mut self, len: usize);
    /// The value with the escapes of `allowed` processed (see [`unescape`]).
    fn unescaped(self, allowed: &str) -> Self;
}

impl Sink for String {
    fn copied(&mut self, text: &str, _at: usize) {
        self.push_str(text);
    }
    fn replaced(&mut self, text: &str, _at: usize, _len: usize) {
        self.push_str(text);
    }
    fn ends_at(&mut self, _at: usize) {}
    fn value(&self) -> &str {
        self
    }
    fn truncate(&mut self, len: usize) {
        String::truncate(self, len);
    }
    fn unescaped(self, allowed: &str) -> String {
        let mut out = String::with_capacity(self.len());
        unescape(&self, allowed, 0, &mut out);
        out
    }
}

/// Offsets beyond `u32` (texts over 4 GiB) are clamped: never reached by
/// a text a tree holds.
fn offset(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

impl Sink for MappedText {
    fn copied(&mut self, text: &str, at: usize) {
        self.text.push_str(text);
        let spans = (0..text.len()).map(|i| (offset(at + i), offset(at + i + 1)));
        self.origin.spans.extend(spans);
        self.origin.end = offset(at + text.len());
    }
    fn replaced(&mut self, text: &str, at: usize, len: usize) {
        self.text.push_str(text);
        let span = (offset(at), offset(at + len));
        self.origin
            .spans
            .extend(std::iter::repeat_n(span, text.len()));
        self.origin.end = span.1;
    }
    fn ends_at(&mut self, at: usize) {
        self.origin.end = offset(at);
    }
    fn value(&self) -> &str {
        &self.text
    }
    fn truncate(&mut self, len: usize) {
        if len < self.text.len() {
            self.origin.end = self.origin.start_of(len);
            self.text.truncate(len);
            self.origin.spans.truncate(len);
        }
    }
    fn unescaped(self, allowed: &str) -> MappedText {
        let mut out = MappedText::default();
        unescape(&self.text, allowed, 0, &mut out);
        out.ends_at(self.text.len());
        out.origin = out.origin.through(&self.origin);
        out
    }
}

/// Single-quoted text whose value is `text` (the inverse of
/// [`unescape_single_quoted`]).
pub fn escape_single_quoted(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\'', "\\'")
}

/// Double-quoted text whose value is `text`, without interpolation (the
/// inverse of [`unescape_double_quoted`]).
pub fn escape_double_quoted(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('$', "\\$")
}

/// Heredoc text whose value is `text` (a heredoc's line breaks and margin
/// aside), without interpolation: `None` when the heredoc interpolates
/// and cannot escape a `$` of `text`.
pub fn escape_heredoc(info: &HeredocInfo, text: &str) -> Option<String> {
    let mut out = text.to_string();
    if !info.escapes.is_empty() {
        out = out.replace('\\', "\\\\");
    }
    if info.interpolate && out.contains('$') {
        if !info.escapes.contains('$') {
            return None;
        }
        out = out.replace('$', "\\$");
    }
    Some(out)
}

/// Processes the escapes of single-quoted text: `\\` and `\'`.
pub fn unescape_single_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    single_quoted(text, 0, &mut out);
    out
}

/// [`unescape_single_quoted`] of text written at `at`, with its origin.
pub fn single_quoted_mapped(text: &str, at: usize) -> MappedText {
    let mut out = MappedText::default();
    single_quoted(text, at, &mut out);
    out.ends_at(at + text.len());
    out
}

fn single_quoted<S: Sink>(text: &str, at: usize, out: &mut S) {
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\\' {
            if let Some(&(_, next @ ('\\' | '\''))) = chars.peek() {
                out.replaced(next.encode_utf8(&mut [0; 4]), at + i, 2);
                chars.next();
                continue;
            }
        }
        out.copied(&text[i..i + c.len_utf8()], at + i);
    }
}

const DOUBLE_QUOTED_ESCAPES: &str = "\\$'\"rntsu\n";

/// Processes the escapes of double-quoted text.
pub fn unescape_double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    unescape(text, DOUBLE_QUOTED_ESCAPES, 0, &mut out);
    out
}

/// [`unescape_double_quoted`] of text written at `at`, with its origin.
pub fn double_quoted_mapped(text: &str, at: usize) -> MappedText {
    let mut out = MappedText::default();
    unescape(text, DOUBLE_QUOTED_ESCAPES, at, &mut out);
    out.ends_at(at + text.len());
    out
}

/// Processes escapes of text written at `at`, allowing those in `allowed`
/// (`\n` in `allowed` means an escaped line break is removed). Unknown
/// escapes keep their backslash.
fn unescape<S: Sink>(text: &str, allowed: &str, at: usize, out: &mut S) {
    let mut pos = 0;
    while let Some(found) = text[pos..].find('\\') {
        let slash = pos + found;
        out.copied(&text[pos..slash], at + pos);
        let after = &text[slash + 1..];
        let Some(c) = after.chars().next() else {
            out.copied("\\", at + slash);
            return;
        };
        let mut consumed = c.len_utf8();
        let allowed_here = allowed.contains(c)
            || (c == '\r' && allowed.contains('\n') && after[1..].starts_with('\n'));
        let whole = |consumed: usize| 1 + consumed;
        if !allowed_here {
            out.copied(&text[slash..slash + whole(consumed)], at + slash);
        } else {
            match c {
                'n' => out.replaced("\n", at + slash, 2),
                'r' => out.replaced("\r", at + slash, 2),
                't' => out.replaced("\t", at + slash, 2),
                's' => out.replaced(" ", at + slash, 2),
                '\n' => {}
                '\r' => consumed = 2,
                'u' => match unicode_escape(&after[1..]) {
                    Some((ch, len)) => {
                        consumed += len;
                        let ch = ch.encode_utf8(&mut [0; 4]).to_string();
                        out.replaced(&ch, at + slash, whole(consumed));
                    }
                    None => out.copied("\\u", at + slash),
                },
                other => out.replaced(other.encode_utf8(&mut [0; 4]), at + slash, whole(consumed)),
            }
        }
        pos = slash + whole(consumed);
    }
    out.copied(&text[pos..], at + pos);
}

/// `XXXX` or `{X...}` after `\u`: the character and the length consumed.
fn unicode_escape(text: &str) -> Option<(char, usize)> {
    if let Some(braced) = text.strip_prefix('{') {
        let end = braced.find('}')?;
        let digits = &braced[..end];
        if digits.is_empty() || digits.len() > 6 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let ch = char::from_u32(u32::from_str_radix(digits, 16).ok()?)?;
        return Some((ch, end + 2));
    }
    let digits = text.get(..4)?;
    if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let ch = char::from_u32(u32::from_str_radix(digits, 16).ok()?)?;
    Some((ch, 4))
}

/// What a heredoc header says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeredocInfo {
    pub tag: String,
    pub interpolate: bool,
    pub syntax: Option<String>,
    /// The escapes turned on (`t r n s u L $`), empty when none.
    pub escapes: String,
}

/// Reads a `@(...)` header token's text.
pub(crate) fn heredoc_info(header: &str) -> Option<HeredocInfo> {
    let inner = header.strip_prefix("@(")?.strip_suffix(')')?;
    let parsed = parse_heredoc_header(inner).ok()?;
    let escapes = match parsed.escapes {
        None => String::new(),
        Some("") => "trnsuL$".to_string(),
        Some(e) => e.to_string(),
    };
    Some(HeredocInfo {
        tag: parsed.tag.to_string(),
        interpolate: parsed.interpolate,
        syntax: parsed.syntax.map(str::to_lowercase),
        escapes,
    })
}

/// The value of heredoc text pieces (`None` stands for an interpolation):
/// the margin given by the end line's `|` is removed from each line, the
/// last line break is trimmed with `-`, and the enabled escapes applied.
pub fn heredoc_text(
    info: &HeredocInfo,
    end_line: &str,
    pieces: &[Option<&str>],
) -> Vec<Option<String>> {
    let pieces: Vec<Option<(&str, usize)>> = pieces.iter().map(|p| p.map(|t| (t, 0))).collect();
    heredoc_pieces(info, end_line, &pieces)
}

/// [`heredoc_text`] of pieces written at the given offsets, with their
/// origins.
pub fn heredoc_text_mapped(
    info: &HeredocInfo,
    end_line: &str,
    pieces: &[Option<(&str, usize)>],
) -> Vec<Option<MappedText>> {
    heredoc_pieces(info, end_line, pieces)
}

fn heredoc_pieces<S: Sink>(
    info: &HeredocInfo,
    end_line: &str,
    pieces: &[Option<(&str, usize)>],
) -> Vec<Option<S>> {
    let (margin, trim) = end_line_marks(end_line);
    let mut at_line_start = true;
    let mut out: Vec<Option<S>> = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let Some((text, at)) = piece else {
            out.push(None);
            at_line_start = false;
            continue;
        };
        let mut value = S::default();
        let mut line_at = *at;
        for line in text.split_inclusive('\n') {
            let kept = match margin {
                Some(m) if at_line_start && !m.is_empty() => line.strip_prefix(m).unwrap_or(line),
                _ => line,
            };
            value.copied(kept, line_at + (line.len() - kept.len()));
            at_line_start = kept.ends_with('\n');
            line_at += line.len();
        }
        value.ends_at(at + text.len());
        out.push(Some(value));
    }
    if trim {
        if let Some(Some(last)) = out.last_mut() {
            if last.value().ends_with('\n') {
                last.truncate(last.value().len() - 1);
                if last.value().ends_with('\r') {
                    last.truncate(last.value().len() - 1);
                }
            }
        }
    }
    let mut allowed = String::new();
    if !info.escapes.is_empty() {
        allowed.push('\\');
        for c in info.escapes.chars() {
            match c {
                'L' => allowed.push('\n'),
                c => allowed.push(c),
            }
        }
    }
    out.into_iter()
        .map(|piece| {
            piece.map(|text| {
                if allowed.is_empty() {
                    text
                } else {
                    text.unescaped(&allowed)
                }
            })
        })
        .collect()
}

/// The margin (blanks before `|`) and the trim flag (`-`) of an end line.
fn end_line_marks(end_line: &str) -> (Option<&str>, bool) {
    let leading_len = end_line.len() - end_line.trim_start_matches(is_blank).len();
    let leading = &end_line[..leading_len];
    let rest = &end_line[leading_len..];
    let (margin, rest) = match rest.strip_prefix('|') {
        Some(r) => (Some(leading), r.trim_start_matches(is_blank)),
        None => (None, rest),
    };
    (margin, rest.starts_with('-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_number("0"), Ok(Number::Integer(0)));
        assert_eq!(parse_number("010"), Ok(Number::Integer(8)));
        assert_eq!(parse_number("0xDeadBeef"), Ok(Number::Integer(3735928559)));
        assert_eq!(parse_number("1.5e3"), Ok(Number::Float(1500.0)));
        assert_eq!(parse_number("1e-2"), Ok(Number::Float(0.01)));
        assert_eq!(parse_number("089"), Err(NumberError::Invalid));
        assert_eq!(
            parse_number("9223372036854775808"),
            Err(NumberError::Overflow)
        );
        assert_eq!(
            parse_number("9223372036854775807"),
            Ok(Number::Integer(i64::MAX))
        );
    }

    #[test]
    fn escapes() {
        assert_eq!(unescape_single_quoted(r"a\'b\\c\n"), r"a'b\c\n");
        assert_eq!(
            unescape_double_quoted(r#"a\"b\$c\n\t\s\q"#),
            "a\"b$c\n\t \\q"
        );
        assert_eq!(
            unescape_double_quoted(r"\u00e9\u{1F600}\u{}"),
            "\u{e9}\u{1f600}\\u{}"
        );
        assert_eq!(unescape_double_quoted("a\\\nb"), "ab");
    }

    #[test]
    fn heredoc_margin_trim_and_escapes() {
        let info = heredoc_info("@(END/t)").unwrap();
        let text = heredoc_text(&info, "  |- END", &[Some("  a\\tb\n    c\n")]);
        assert_eq!(text, vec![Some("a\tb\n  c".to_string())]);
        let info = heredoc_info("@(END)").unwrap();
        let text = heredoc_text(&info, "END", &[Some("a\\tb\n")]);
        assert_eq!(text, vec![Some("a\\tb\n".to_string())]);
    }

    /// The source text each byte range of a mapped value comes from.
    fn source_of(source: &str, mapped: &MappedText, value: &str) -> String {
        let at = mapped.text.find(value).expect("the value has it");
        let range = TextRange::new((at as u32).into(), ((at + value.len()) as u32).into());
        source[mapped.origin.source_range(range)].to_string()
    }

    #[test]
    fn single_quoted_values_map_back_through_escapes() {
        let source = r"x'a\\b \' <%= $v %>'";
        let inner = &source[2..source.len() - 1];
        let mapped = single_quoted_mapped(inner, 2);
        assert_eq!(mapped.text, unescape_single_quoted(inner));
        assert_eq!(mapped.text, r"a\b ' <%= $v %>");
        assert_eq!(source_of(source, &mapped, "$v"), "$v");
        assert_eq!(source_of(source, &mapped, "\\b"), "\\\\b");
        assert_eq!(source_of(source, &mapped, "' <"), "\\' <");
        // Past the end: the end of the text.
        let end = mapped.text.len() as u32;
        let range = TextRange::new(end.into(), end.into());
        assert_eq!(
            usize::from(mapped.origin.source_range(range).start()),
            source.len() - 1
        );
    }

    #[test]
    fn values_are_found_from_their_source() {
        let source = r"a\\b <%= $v %>";
        let mapped = single_quoted_mapped(source, 0);
        let at = |from: usize, to: usize| TextRange::new((from as u32).into(), (to as u32).into());
        let v = mapped.text.find("$v").unwrap();
        assert_eq!(mapped.origin.value_range(at(9, 11)), Some(at(v, v + 2)));
        // The escape whole, not half of it.
        assert_eq!(mapped.origin.value_range(at(1, 3)), Some(at(1, 2)));
        assert_eq!(mapped.origin.value_range(at(2, 3)), None);
    }

    #[test]
    fn escaping_inverts_unescaping() {
        let text = r#"$facts['a'] \ "x""#;
        assert_eq!(unescape_single_quoted(&escape_single_quoted(text)), text);
        assert_eq!(unescape_double_quoted(&escape_double_quoted(text)), text);
        let info = heredoc_info("@(\"END\"/$)").unwrap();
        let written = escape_heredoc(&info, text).unwrap();
        assert_eq!(written, r#"\$facts['a'] \\ "x""#);
        assert_eq!(
            heredoc_text(&info, "END", &[Some(&written)]),
            [Some(text.to_string())]
        );
        assert_eq!(
            escape_heredoc(&heredoc_info("@(\"END\")").unwrap(), text),
            None
        );
        assert_eq!(
            escape_heredoc(&heredoc_info("@(END)").unwrap(), text).as_deref(),
            Some(text)
        );
    }

    #[test]
    fn double_quoted_values_map_back_through_escapes() {
        let source = r#"\t\u{1F600}<%= $v %>\q"#;
        let mapped = double_quoted_mapped(source, 0);
        assert_eq!(mapped.text, unescape_double_quoted(source));
        assert_eq!(source_of(source, &mapped, "$v"), "$v");
        assert_eq!(source_of(source, &mapped, "\t"), "\\t");
        assert_eq!(source_of(source, &mapped, "\u{1f600}<"), "\\u{1F600}<");
        assert_eq!(source_of(source, &mapped, "\\q"), "\\q");
    }

    #[test]
    fn heredoc_values_map_back_through_margins_and_escapes() {
        let info = heredoc_info("@(END/t)").unwrap();
        let source = "  a\\tb\n    <%= $v %>\n";
        let pieces = [Some((source, 0))];
        let mapped = heredoc_text_mapped(&info, "  |- END", &pieces);
        let [Some(mapped)] = &mapped[..] else {
            panic!("one piece");
        };
        let plain = heredoc_text(&info, "  |- END", &[Some(source)]);
        assert_eq!(Some(mapped.text.clone()), plain[0]);
        assert_eq!(mapped.text, "a\tb\n  <%= $v %>");
        assert_eq!(source_of(source, mapped, "$v"), "$v");
        assert_eq!(source_of(source, mapped, "a\tb"), "a\\tb");
        // Across a line: the margin removed is inside the range.
        assert_eq!(source_of(source, mapped, "b\n  <"), "b\n    <");
    }
}
