//! Values of literal tokens: numbers, string escapes, heredoc text.

use crate::lexer::{is_blank, parse_heredoc_header};

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

/// Processes the escapes of single-quoted text: `\\` and `\'`.
pub fn unescape_single_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&next @ ('\\' | '\'')) = chars.peek() {
                out.push(next);
                chars.next();
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Processes the escapes of double-quoted text.
pub fn unescape_double_quoted(text: &str) -> String {
    unescape(text, "\\$'\"rntsu\n")
}

/// Processes escapes, allowing those in `allowed` (`\n` in `allowed` means
/// an escaped line break is removed). Unknown escapes keep their backslash.
fn unescape(text: &str, allowed: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let Some(c) = after.chars().next() else {
            out.push('\\');
            rest = "";
            break;
        };
        let mut consumed = c.len_utf8();
        let allowed_here = allowed.contains(c)
            || (c == '\r' && allowed.contains('\n') && after[1..].starts_with('\n'));
        if !allowed_here {
            out.push('\\');
            out.push(c);
        } else {
            match c {
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                's' => out.push(' '),
                '\n' => {}
                '\r' => consumed = 2,
                'u' => match unicode_escape(&after[1..]) {
                    Some((ch, len)) => {
                        out.push(ch);
                        consumed += len;
                    }
                    None => out.push_str("\\u"),
                },
                other => out.push(other),
            }
        }
        rest = &after[consumed..];
    }
    out.push_str(rest);
    out
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
    let (margin, trim) = end_line_marks(end_line);
    let mut at_line_start = true;
    let mut out: Vec<Option<String>> = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let Some(text) = piece else {
            out.push(None);
            at_line_start = false;
            continue;
        };
        let mut value = String::with_capacity(text.len());
        for line in text.split_inclusive('\n') {
            let line = match margin {
                Some(m) if at_line_start && !m.is_empty() => line.strip_prefix(m).unwrap_or(line),
                _ => line,
            };
            value.push_str(line);
            at_line_start = line.ends_with('\n');
        }
        out.push(Some(value));
    }
    if trim {
        if let Some(Some(last)) = out.last_mut() {
            if last.ends_with('\n') {
                last.pop();
                if last.ends_with('\r') {
                    last.pop();
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
                    unescape(&text, &allowed)
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
}
