//! Regular expressions with Ruby (Onigmo) semantics approximated on the `regex`
//! crate.
//!
//! Puppet regexps are Ruby regexps. The translation keeps Ruby's meaning for the
//! common subset (line anchors, ASCII `\w`/`\d`/`\s`, `(?m)` meaning dot-all) and
//! reports constructs the crate cannot express (look-around, back-references,
//! atomic groups...) as [`RegexError::Unsupported`]: a "cannot evaluate
//! statically" condition, never a user error.

use std::fmt;

/// Why a pattern could not be compiled.
#[derive(Clone, Debug, PartialEq)]
pub enum RegexError {
    /// The pattern is invalid in Ruby too (a user error).
    Invalid(String),
    /// The pattern uses Ruby-only constructs; its result cannot be computed here.
    Unsupported(String),
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegexError::Invalid(m) | RegexError::Unsupported(m) => f.write_str(m),
        }
    }
}

/// A regexp value; `source` is the pattern exactly as written. It is
/// compiled when first matched: most regexps inference meets are only
/// carried as values and types, and a compiled one costs kilobytes.
#[derive(Clone, Debug)]
pub struct Regexp {
    source: String,
    compiled: std::sync::OnceLock<Result<regex::Regex, RegexError>>,
}

impl PartialEq for Regexp {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Regexp {
    /// A pattern, compiled when needed; never fails (errors surface when
    /// matching).
    pub fn new(source: &str) -> Regexp {
        Regexp {
            source: source.to_string(),
            compiled: std::sync::OnceLock::new(),
        }
    }

    /// Compiles a pattern, failing on an invalid or unsupported pattern.
    pub fn try_new(source: &str) -> Result<Regexp, RegexError> {
        let r = Regexp::new(source);
        match r.compiled() {
            Ok(_) => Ok(r),
            Err(e) => Err(e.clone()),
        }
    }

    fn compiled(&self) -> &Result<regex::Regex, RegexError> {
        self.compiled.get_or_init(|| compile_cached(&self.source))
    }

    /// The pattern source.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The compile error, if any.
    pub fn error(&self) -> Option<&RegexError> {
        self.compiled().as_ref().err()
    }

    /// Matches; `Ok(Some(groups))` gives `$0..$n` (unmatched groups are `None`).
    pub fn captures(&self, s: &str) -> Result<Option<Vec<Option<String>>>, RegexError> {
        let re = self.compiled().as_ref().map_err(Clone::clone)?;
        Ok(re.captures(s).map(|c| {
            c.iter()
                .map(|m| m.map(|m| m.as_str().to_string()))
                .collect()
        }))
    }

    /// The first match starting at byte offset `at`: its span and the groups
    /// `$1..$n` (used by split and substitution).
    #[allow(clippy::type_complexity)]
    pub fn captures_at(
        &self,
        s: &str,
        at: usize,
    ) -> Result<Option<(usize, usize, Vec<Option<String>>)>, RegexError> {
        let re = self.compiled().as_ref().map_err(Clone::clone)?;
        Ok(re.captures_at(s, at).and_then(|c| {
            let m = c.get(0)?;
            Some((
                m.start(),
                m.end(),
                c.iter()
                    .skip(1)
                    .map(|g| g.map(|g| g.as_str().to_string()))
                    .collect(),
            ))
        }))
    }

    /// True when the pattern matches somewhere in `s`.
    pub fn is_match(&self, s: &str) -> Result<bool, RegexError> {
        let re = self.compiled().as_ref().map_err(Clone::clone)?;
        Ok(re.is_match(s))
    }
}

const W: &str = "0-9A-Za-z_";
const D: &str = "0-9";
const S: &str = " \\t\\r\\n\\x0C\\x0B";
const H: &str = "0-9a-fA-F";

fn unsupported(what: &str) -> RegexError {
    RegexError::Unsupported(format!(
        "regular expression uses {} which cannot be evaluated here",
        what
    ))
}

/// Checks the bracket structure the way Ruby reports it.
fn check_balance(src: &str) -> Result<(), RegexError> {
    let mut depth: i32 = 0;
    let mut in_class = 0;
    let mut chars = src.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' => in_class += 1,
            ']' if in_class > 0 => in_class -= 1,
            '(' if in_class == 0 => depth += 1,
            ')' if in_class == 0 => {
                depth -= 1;
                if depth < 0 {
                    return Err(RegexError::Invalid(format!(
                        "unmatched close parenthesis: /{}/",
                        src
                    )));
                }
            }
            _ => {}
        }
    }
    if depth > 0 {
        return Err(RegexError::Invalid(format!(
            "end pattern with unmatched parenthesis: /{}/",
            src
        )));
    }
    if in_class > 0 {
        return Err(RegexError::Invalid(format!(
            "premature end of char-class: /{}/",
            src
        )));
    }
    Ok(())
}

fn translate(src: &str) -> Result<String, RegexError> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::from("(?m)");
    let mut class_depth = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let Some(&n) = chars.get(i + 1) else {
                    return Err(RegexError::Invalid(format!(
                        "too short escape sequence: /{}/",
                        src
                    )));
                };
                i += 2;
                let in_class = class_depth > 0;
                match n {
                    'w' => out.push_str(&if in_class {
                        W.to_string()
                    } else {
                        format!("[{}]", W)
                    }),
                    'd' => out.push_str(&if in_class {
                        D.to_string()
                    } else {
                        format!("[{}]", D)
                    }),
                    's' => out.push_str(&if in_class {
                        S.to_string()
                    } else {
                        format!("[{}]", S)
                    }),
                    'h' => out.push_str(&if in_class {
                        H.to_string()
                    } else {
                        format!("[{}]", H)
                    }),
                    'W' | 'D' | 'S' | 'H' if !in_class => {
                        let set = match n {
                            'W' => W,
                            'D' => D,
                            'S' => S,
                            _ => H,
                        };
                        out.push_str(&format!("[^{}]", set));
                    }
                    'W' | 'D' | 'S' | 'H' => {
                        return Err(unsupported(
                            "a negated class escape inside a character class",
                        ))
                    }
                    'b' if !in_class => out.push_str("(?-u:\\b)"),
                    'B' if !in_class => out.push_str("(?-u:\\B)"),
                    'A' | 'z' => {
                        out.push('\\');
                        out.push(n);
                    }
                    'Z' => return Err(unsupported("\\Z")),
                    'G' => return Err(unsupported("\\G")),
                    'k' | 'g' => return Err(unsupported("a back-reference or subexpression call")),
                    '1'..='9' if !in_class => return Err(unsupported("a back-reference")),
                    'R' | 'X' | 'K' => return Err(unsupported("an Onigmo-only escape")),
                    '/' => out.push('/'),
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
                continue;
            }
            '[' => {
                class_depth += 1;
                out.push('[');
                // POSIX bracket expressions such as [[:alpha:]] pass through.
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i + 1) == Some(&']') {
                    out.push_str("\\]");
                    i += 1;
                }
                i += 1;
                continue;
            }
            ']' if class_depth > 0 => {
                class_depth -= 1;
                out.push(']');
            }
            '&' if class_depth > 0 && chars.get(i + 1) == Some(&'&') => {
                out.push_str("&&");
                i += 2;
                continue;
            }
            '(' if class_depth == 0 && chars.get(i + 1) == Some(&'?') => {
                let rest: String = chars[i + 2..].iter().take(3).collect();
                if rest.starts_with('=')
                    || rest.starts_with('!')
                    || rest.starts_with("<=")
                    || rest.starts_with("<!")
                {
                    return Err(unsupported("a look-around assertion"));
                }
                if rest.starts_with('>') {
                    return Err(unsupported("an atomic group"));
                }
                if rest.starts_with('~') {
                    return Err(unsupported("an absence operator"));
                }
                if rest.starts_with('#') {
                    // comment group: drop it
                    let mut j = i + 2;
                    while j < chars.len() && chars[j] != ')' {
                        j += 1;
                    }
                    i = j + 1;
                    continue;
                }
                // Option groups: Ruby's `m` is dot-all (`s` for the crate).
                let mut j = i + 2;
                let mut flags = String::new();
                while j < chars.len() && (chars[j].is_ascii_alphabetic() || chars[j] == '-') {
                    flags.push(chars[j]);
                    j += 1;
                }
                if !flags.is_empty() && j < chars.len() && (chars[j] == ':' || chars[j] == ')') {
                    out.push_str("(?");
                    for f in flags.chars() {
                        match f {
                            'm' => out.push('s'),
                            'i' | 'x' | '-' => out.push(f),
                            _ => return Err(unsupported("an unknown group option")),
                        }
                    }
                    i = j;
                    continue;
                }
                out.push('(');
            }
            '*' | '+' | '?' | '}' if class_depth == 0 && chars.get(i + 1) == Some(&'+') => {
                return Err(unsupported("a possessive quantifier"));
            }
            other => out.push(other),
        }
        i += 1;
    }
    Ok(out)
}

/// [`compile`] through a bounded process-wide cache: inference evaluates
/// the same few patterns (`validate_re`, selectors, `=~`) in every item,
/// and a compiled `Regex` is cheap to clone.
fn compile_cached(src: &str) -> Result<regex::Regex, RegexError> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock, PoisonError};
    type Cache = Mutex<HashMap<String, Result<regex::Regex, RegexError>>>;
    const MAX_ENTRIES: usize = 4096;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    if let Some(found) = cache
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(src)
    {
        return found.clone();
    }
    let compiled = compile(src);
    let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
    if cache.len() >= MAX_ENTRIES {
        cache.clear();
    }
    cache.insert(src.to_string(), compiled.clone());
    compiled
}

fn compile(src: &str) -> Result<regex::Regex, RegexError> {
    check_balance(src)?;
    let translated = translate(src)?;
    regex::Regex::new(&translated)
        .map_err(|e| RegexError::Unsupported(format!("cannot evaluate regexp /{}/: {}", src, e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_semantics() {
        let r = Regexp::new("^b$");
        assert!(r.is_match("a\nb\nc").unwrap());
        let w = Regexp::new("\\w+");
        assert_eq!(
            w.captures("é-ab").unwrap().unwrap()[0].as_deref(),
            Some("ab")
        );
        let g = Regexp::new("(a)(x)?b(c)");
        assert_eq!(
            g.captures("zabc").unwrap().unwrap(),
            vec![
                Some("abc".to_string()),
                Some("a".to_string()),
                None,
                Some("c".to_string())
            ]
        );
    }

    #[test]
    fn errors() {
        assert!(matches!(Regexp::try_new("("), Err(RegexError::Invalid(_))));
        assert!(matches!(
            Regexp::try_new("a(?=b)"),
            Err(RegexError::Unsupported(_))
        ));
        assert!(matches!(
            Regexp::try_new("(a)\\1"),
            Err(RegexError::Unsupported(_))
        ));
        assert!(Regexp::try_new("[[:alpha:]]+").is_ok());
        assert!(Regexp::try_new("(?i:ab)").is_ok());
    }
}
