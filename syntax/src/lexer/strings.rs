//! Quoted strings and interpolated text (double-quoted strings and heredoc
//! bodies share the same scanner).

use super::{Lexer, Stop, MAX_STRING_NESTING};
use crate::syntax_kind::SyntaxKind::{self, *};
use crate::Code;

/// What ends a run of interpolated text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TextEnd {
    /// A closing `"`.
    Quote,
    /// The end of the (sub-)lexer's text: a heredoc body.
    EndOfText,
}

impl Lexer<'_> {
    /// `'...'`: only `\\` and `\'` are escapes.
    pub(super) fn single_quoted(&mut self) {
        let bytes = self.src.as_bytes();
        let start = self.pos;
        let mut i = start + 1;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'\'' => {
                    self.push(SQ_STRING, i + 1 - start);
                    return;
                }
                _ => i += 1,
            }
        }
        self.unclosed_quote(start, '\'');
        self.push(SQ_STRING, bytes.len() - start);
    }

    /// `"..."` with escapes and interpolation.
    pub(super) fn double_quoted(&mut self) {
        let start = self.pos;
        if self.nesting >= MAX_STRING_NESTING {
            self.push_error(
                start,
                start + 1,
                "strings are nested too deeply",
                Code::NestingTooDeep,
            );
            self.push(UNKNOWN, 1);
            return;
        }
        self.push(DQUOTE, 1);
        self.nesting += 1;
        let closed = self.interpolated_text(TextEnd::Quote, STRING_TEXT, true);
        self.nesting -= 1;
        if !closed {
            self.unclosed_quote(start, '"');
        }
    }

    fn unclosed_quote(&mut self, start: usize, quote: char) {
        self.push_error(
            start,
            start + 1,
            format!("unclosed quote: the string starting with {quote} is never closed"),
            Code::UnclosedQuote,
        );
    }

    /// Scans text with `$var` and `${expr}` interpolation. `backslash_escapes`
    /// says whether `\` hides the next character (always in double-quoted
    /// strings; in heredocs only when the `$` escape is on). Returns whether
    /// the end was found.
    pub(super) fn interpolated_text(
        &mut self,
        end: TextEnd,
        text_kind: SyntaxKind,
        backslash_escapes: bool,
    ) -> bool {
        let mut i = self.pos;
        loop {
            let bytes = self.src.as_bytes();
            if i >= bytes.len() {
                self.push(text_kind, i - self.pos);
                return end == TextEnd::EndOfText;
            }
            match bytes[i] {
                b'\\' if backslash_escapes => i += 2,
                b'"' if end == TextEnd::Quote => {
                    self.push(text_kind, i - self.pos);
                    self.push(DQUOTE, 1);
                    return true;
                }
                b'$' if bytes.get(i + 1) == Some(&b'{') => {
                    self.push(text_kind, i - self.pos);
                    let open = self.pos;
                    self.push(DOLLAR_BRACE, 2);
                    if !self.code(Stop::InterpClose) {
                        self.push_error(
                            open,
                            open + 2,
                            "unclosed interpolation: '${' has no matching '}'",
                            Code::UnclosedInterpolation,
                        );
                    }
                    i = self.pos;
                }
                b'$' => match interpolated_variable_len(&self.src[i + 1..]) {
                    Some(len) => {
                        self.push(text_kind, i - self.pos);
                        self.push(VARIABLE, 1 + len);
                        i = self.pos;
                    }
                    None => i += 1,
                },
                _ => i += 1,
            }
            i = i.min(self.src.len());
        }
    }
}

/// Length of the variable name after `$` in a string: `(::)?(\w+::)*\w+`.
fn interpolated_variable_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    if text.starts_with("::") {
        i = 2;
    }
    let mut end = None;
    loop {
        let seg_start = i;
        while i < bytes.len() && is_word(bytes[i]) {
            i += 1;
        }
        if i == seg_start {
            break;
        }
        end = Some(i);
        if text[i..].starts_with("::") && bytes.get(i + 2).is_some_and(|&b| is_word(b)) {
            i += 2;
        } else {
            break;
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::interpolated_variable_len;

    #[test]
    fn variable_names_in_strings() {
        assert_eq!(interpolated_variable_len("foo bar"), Some(3));
        assert_eq!(interpolated_variable_len("foo::bar::baz."), Some(13));
        assert_eq!(interpolated_variable_len("foo::"), Some(3));
        assert_eq!(interpolated_variable_len("::foo"), Some(5));
        assert_eq!(interpolated_variable_len("::"), None);
        assert_eq!(interpolated_variable_len("0080,"), Some(4));
        assert_eq!(interpolated_variable_len(" x"), None);
    }
}
