//! Hiera's interpolations, `%{...}` in data values and hierarchy paths,
//! read as Puppet's lookup reads them: `%{` up to the next `}` is one
//! interpolation (an unclosed `%{` is plain text); its content, trimmed,
//! is either empty (`%{}`, `%{::}`, `%{''}`: nothing), a method call
//! `name('key')` / `name("key")`, or else a variable name with optional
//! dotted sub-keys (`facts.os.family`, `::fqdn`, `trusted.certname`).

use std::ops::Range;

/// The interpolation methods of Hiera 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// `lookup('k')`: the value of another key, as a string.
    Lookup,
    /// `hiera('k')`: the same as `lookup`.
    Hiera,
    /// `alias('k')`: the value of another key, of any type; must be the
    /// whole string.
    Alias,
    /// `literal('x')`: `x` itself (to write `%{` as text).
    Literal,
    /// `scope('x')`: a variable, like the bare form.
    Scope,
}

impl Method {
    pub fn from_name(name: &str) -> Option<Method> {
        Some(match name {
            "lookup" => Method::Lookup,
            "hiera" => Method::Hiera,
            "alias" => Method::Alias,
            "literal" => Method::Literal,
            "scope" => Method::Scope,
            _ => return None,
        })
    }
}

/// What an interpolation asks for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expression {
    /// `%{}` and its spellings: an empty string.
    Empty,
    /// A variable, with the keys to dig into it: `facts.os.family` is
    /// `facts` then `os`, `family`. A leading `::` is dropped.
    Variable(Vec<String>),
    /// A method with its (unquoted) argument.
    Call { method: Method, argument: String },
}

/// One `%{...}` of a string.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Interpolation {
    /// The byte range of `%{...}` in the string.
    pub range: Range<usize>,
    /// What it asks for, or why Puppet rejects it.
    pub expression: Result<Expression, String>,
}

/// The interpolations of a string, in order.
pub fn interpolations(text: &str) -> Vec<Interpolation> {
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(found) = text[rest..].find("%{") {
        let start = rest + found;
        let Some(length) = text[start + 2..].find('}') else {
            break;
        };
        let end = start + 2 + length + 1;
        let content = text[start + 2..end - 1].trim();
        out.push(Interpolation {
            range: start..end,
            expression: expression(content),
        });
        rest = end;
    }
    out
}

/// Whether a string has any interpolation.
pub fn has_interpolation(text: &str) -> bool {
    !interpolations(text).is_empty()
}

/// The alias a string consists of: `%{alias('k')}` as the whole string.
pub fn whole_alias(text: &str) -> Option<&str> {
    let [only] = interpolations(text).try_into().ok()?;
    if only.range != (0..text.len()) {
        return None;
    }
    match only.expression {
        Ok(Expression::Call {
            method: Method::Alias,
            ..
        }) => {
            let content = text[2..text.len() - 1].trim();
            let open = content.find('(')?;
            Some(&content[open + 2..content.len() - 2])
        }
        _ => None,
    }
}

fn expression(content: &str) -> Result<Expression, String> {
    if matches!(content, "" | "::" | "''" | "\"\"" | "'::'" | "\"::\"") {
        return Ok(Expression::Empty);
    }
    if let Some((name, argument)) = method_call(content) {
        let method = Method::from_name(name)
            .ok_or_else(|| format!("unknown interpolation method '{name}'"))?;
        return Ok(Expression::Call {
            method,
            argument: argument.to_string(),
        });
    }
    // Anything else names a variable, even `lookup()` (which never exists).
    let name = content.strip_prefix("::").unwrap_or(content);
    split_key(name)
        .map(Expression::Variable)
        .ok_or_else(|| format!("syntax error in the key '{content}'"))
}

/// `name('arg')` or `name("arg")`: a word, a quoted non-empty argument
/// without its own quote character, nothing else.
fn method_call(content: &str) -> Option<(&str, &str)> {
    let open = content.find('(')?;
    let name = &content[..open];
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let inner = content[open + 1..].strip_suffix(')')?;
    let quote = inner.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let argument = inner[1..].strip_suffix(quote)?;
    (!argument.is_empty() && !argument.contains(quote)).then_some((name, argument))
}

/// A dotted key split as Hiera splits it: `a."b.c".d` is `a`, `b.c`,
/// `d`; `None` for a syntax error (`a..b`, an unclosed quote).
pub fn split_key(key: &str) -> Option<Vec<String>> {
    if !key.contains(['\'', '"', '.']) {
        return Some(vec![key.to_string()]);
    }
    static SEGMENT: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let segment = SEGMENT.get_or_init(|| {
        regex::Regex::new(r#"\s*"[^"]+"\s*|\s*'[^']+'\s*|[^'".]+"#).expect("a valid pattern")
    });
    let mut segments = Vec::new();
    let mut expected_start = 0;
    for found in segment.find_iter(key) {
        let gap = &key[expected_start..found.start()];
        if gap != if segments.is_empty() { "" } else { "." } {
            return None;
        }
        let text = found.as_str().trim();
        let unquoted = match text.chars().next() {
            Some('\'' | '"') => &text[1..text.len() - 1],
            _ => text,
        };
        segments.push(unquoted.to_string());
        expected_start = found.end();
    }
    (expected_start == key.len() && !segments.is_empty()).then_some(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Vec<Result<Expression, String>> {
        interpolations(text)
            .into_iter()
            .map(|i| i.expression)
            .collect()
    }

    #[test]
    fn variables_methods_and_empty_forms() {
        let variable = |parts: &[&str]| {
            Ok(Expression::Variable(
                parts.iter().map(|p| p.to_string()).collect(),
            ))
        };
        assert_eq!(
            parsed("%{facts.os.family}/%{::fqdn}-%{ trusted.certname }"),
            [
                variable(&["facts", "os", "family"]),
                variable(&["fqdn"]),
                variable(&["trusted", "certname"]),
            ]
        );
        assert_eq!(
            parsed("%{lookup('a::b')}%{hiera(\"c\")}%{literal('%')}"),
            [
                Ok(Expression::Call {
                    method: Method::Lookup,
                    argument: "a::b".into()
                }),
                Ok(Expression::Call {
                    method: Method::Hiera,
                    argument: "c".into()
                }),
                Ok(Expression::Call {
                    method: Method::Literal,
                    argument: "%".into()
                }),
            ]
        );
        assert_eq!(
            parsed("%{}%{::}%{''}"),
            [
                Ok(Expression::Empty),
                Ok(Expression::Empty),
                Ok(Expression::Empty)
            ]
        );
        assert!(interpolations("unclosed %{facts.x").is_empty());
        assert_eq!(interpolations("a %{x} b")[0].range, 2..6);
    }

    #[test]
    fn unknown_methods_and_bad_keys_are_errors() {
        for text in ["%{foo('x')}", "%{a..b}", "%{'a}"] {
            assert!(parsed(text)[0].is_err(), "{text}");
        }
        // Not a method call: a variable of that name (which never exists).
        assert_eq!(
            parsed("%{lookup()}"),
            [Ok(Expression::Variable(vec!["lookup()".into()]))]
        );
        assert_eq!(whole_alias("%{alias('list')}"), Some("list"));
        assert_eq!(whole_alias("x %{alias('list')}"), None);
    }

    #[test]
    fn quoted_segments_stay_whole() {
        assert_eq!(
            split_key("a.'b.c'.d"),
            Some(vec!["a".into(), "b.c".into(), "d".into()])
        );
        assert_eq!(split_key("a..b"), None);
    }
}
