//! YAML (and JSON, which YAML 1.2 contains) read into plain data with byte
//! ranges, for Hiera's data files and `hiera.yaml`. Parsing is saphyr's;
//! this module bounds what it is given (nesting depth) so that no input can
//! overflow the stack, and turns its markers (character indices) into byte
//! ranges of the text.

use puppet_syntax::{TextRange, TextSize};
use regex::Regex;
use saphyr::{MarkedYaml, Scalar, YamlData, YamlLoader};
use std::sync::OnceLock;

/// Block and flow nesting beyond this is refused before parsing (Hiera
/// data is rarely ten levels deep; saphyr recurses per level).
const MAX_DEPTH: usize = 128;

/// A parsed YAML document: its root node (`None` for an empty document)
/// and the syntax errors (at most one: parsing stops at the first).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct YamlDocument {
    pub root: Option<YamlNode>,
    pub errors: Vec<YamlError>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct YamlError {
    pub range: TextRange,
    pub message: String,
}

/// A node with the range of its text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct YamlNode {
    pub range: TextRange,
    pub value: YamlValue,
}

/// What a node holds. Scalars keep their resolved kind; numbers keep their
/// text (Puppet reads them again as its own values).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum YamlValue {
    Null,
    Boolean(bool),
    Integer(i64),
    /// A float, as written.
    Float(String),
    String(String),
    Sequence(Vec<YamlNode>),
    /// Entries in the order written.
    Mapping(Vec<(YamlNode, YamlNode)>),
    /// A tag or construct Puppet's loader rejects or this reader does not
    /// map (e.g. a mapping used as a key).
    Unsupported,
}

impl YamlNode {
    /// The string of a scalar key or value (numbers and booleans as
    /// written).
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            YamlValue::String(s) | YamlValue::Float(s) => Some(s),
            _ => None,
        }
    }

    /// The entries of a mapping node.
    pub fn entries(&self) -> &[(YamlNode, YamlNode)] {
        match &self.value {
            YamlValue::Mapping(entries) => entries,
            _ => &[],
        }
    }

    /// Every scalar under this node (itself if it is one), with whether
    /// it is a mapping's key.
    pub fn for_each_scalar(&self, visit: &mut dyn FnMut(&YamlNode, bool)) {
        // `dyn`, not a generic: the key walk wraps `visit` in a closure, and
        // a generic would instantiate itself without end.
        match &self.value {
            YamlValue::Sequence(items) => items.iter().for_each(|i| i.for_each_scalar(visit)),
            YamlValue::Mapping(entries) => {
                for (key, value) in entries {
                    key.for_each_scalar(&mut |n, _| visit(n, true));
                    value.for_each_scalar(visit);
                }
            }
            _ => visit(self, false),
        }
    }

    /// The value of a mapping's entry whose key is the string `key`.
    pub fn get(&self, key: &str) -> Option<&YamlNode> {
        self.entries()
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }
}

/// How plain (unquoted) scalars are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schema {
    /// YAML 1.1, as Puppet's YAML loader (Ruby's Psych) reads data files:
    /// `yes`/`on` are booleans, `0755` is octal, `1:20` sexagesimal,
    /// `1.5e3` a string.
    Yaml11,
    /// JSON (and YAML 1.2): Puppet reads `.json` data with a JSON parser.
    Json,
}

/// Parses the first document of a YAML file (YAML 1.1 scalars).
pub fn parse(text: &str) -> YamlDocument {
    parse_with(text, Schema::Yaml11)
}

/// Parses the first document of `text` with the given scalar schema.
pub fn parse_with(text: &str, schema: Schema) -> YamlDocument {
    let positions = Positions::new(text);
    if let Some(line) = too_deep(text) {
        let start = positions.line_start(line);
        return YamlDocument {
            root: None,
            errors: vec![YamlError {
                range: TextRange::empty(start),
                message: format!("the data is nested more than {MAX_DEPTH} levels deep"),
            }],
        };
    }
    match load(text) {
        Ok(docs) => YamlDocument {
            root: docs.first().map(|d| convert(d, &positions, schema, 0)),
            errors: Vec::new(),
        },
        Err(e) => {
            let at = positions.offset(e.marker().index());
            let end = text[usize::from(at)..]
                .chars()
                .next()
                .map_or(at, |c| at + TextSize::of(c));
            YamlDocument {
                root: None,
                errors: vec![YamlError {
                    range: TextRange::new(at, end),
                    message: e.info().to_string(),
                }],
            }
        }
    }
}

/// The documents of `text`. A key given twice keeps its last value, as
/// Puppet's YAML loader (Psych) does, instead of failing as YAML 1.2 asks.
fn load(text: &str) -> Result<Vec<MarkedYaml<'_>>, saphyr::ScanError> {
    let mut loader: YamlLoader<MarkedYaml> = YamlLoader::default();
    loader.allow_duplicate_keys(true);
    let mut parser = saphyr_parser::Parser::new_from_str(text);
    parser.load(&mut loader, true)?;
    if let Some(error) = loader.error() {
        return Err(error.clone());
    }
    Ok(loader.into_documents())
}

fn convert(node: &MarkedYaml, positions: &Positions, schema: Schema, depth: usize) -> YamlNode {
    let start = positions.offset(node.span.start.index());
    let end = positions.offset(node.span.end.index()).max(start);
    let value = if depth > MAX_DEPTH {
        YamlValue::Unsupported
    } else {
        match &node.data {
            YamlData::Value(_)
                if schema == Schema::Yaml11 && is_plain(positions.text, start, end) =>
            {
                yaml11_plain(&positions.text[usize::from(start)..usize::from(end)])
            }
            YamlData::Value(scalar) => match scalar {
                Scalar::Null => YamlValue::Null,
                Scalar::Boolean(b) => YamlValue::Boolean(*b),
                Scalar::Integer(i) => YamlValue::Integer(*i),
                Scalar::FloatingPoint(f) => YamlValue::Float(f.to_string()),
                Scalar::String(s) => YamlValue::String(s.to_string()),
            },
            YamlData::Sequence(items) => YamlValue::Sequence(
                items
                    .iter()
                    .map(|i| convert(i, positions, schema, depth + 1))
                    .collect(),
            ),
            YamlData::Mapping(map) => YamlValue::Mapping(
                map.iter()
                    .map(|(k, v)| {
                        (
                            convert(k, positions, schema, depth + 1),
                            convert(v, positions, schema, depth + 1),
                        )
                    })
                    .collect(),
            ),
            YamlData::Tagged(_, inner) => convert(inner, positions, schema, depth + 1).value,
            _ => YamlValue::Unsupported,
        }
    };
    YamlNode {
        range: TextRange::new(start, end),
        value,
    }
}

/// Whether the scalar written at `start..end` is plain (not quoted, not a
/// block scalar) and on one line: then its text is what it resolves from.
fn is_plain(text: &str, start: TextSize, end: TextSize) -> bool {
    let Some(written) = text.get(usize::from(start)..usize::from(end)) else {
        return false;
    };
    !written.starts_with(['\'', '"', '|', '>', '!', '&', '*']) && !written.contains('\n')
}

/// Why Puppet's YAML loader refuses a plain scalar written as `written`
/// (Psych makes dates, times and `:symbols` Ruby objects Puppet does not
/// allow), or `None`.
pub fn refused_by_puppet(text: &str, node: &YamlNode) -> Option<&'static str> {
    if !is_plain(text, node.range.start(), node.range.end()) {
        return None;
    }
    let written = &text[usize::from(node.range.start())..usize::from(node.range.end())];
    static DATE: OnceLock<Regex> = OnceLock::new();
    let date = DATE
        .get_or_init(|| Regex::new(r"^\d{4}-\d{1,2}-\d{1,2}([Tt ]|$)").expect("a valid pattern"));
    if date.is_match(written) {
        return Some(
            "an unquoted date or time: Puppet's YAML loader refuses the whole file (quote it)",
        );
    }
    if written.len() > 1 && written.starts_with(':') {
        return Some(
            "an unquoted `:word` is a Ruby symbol: Puppet's lookup of this key fails (quote it)",
        );
    }
    None
}

/// A plain scalar resolved as Psych (YAML 1.1) resolves it.
fn yaml11_plain(raw: &str) -> YamlValue {
    static INT: OnceLock<[Regex; 5]> = OnceLock::new();
    let [binary, octal, decimal, hex, sexagesimal] = INT.get_or_init(|| {
        [
            r"^[-+]?0b[01_]+$",
            r"^[-+]?0[0-7_]+$",
            r"^[-+]?(0|[1-9][0-9_]*)$",
            r"^[-+]?0x[0-9a-fA-F_]+$",
            r"^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$",
        ]
        .map(|p| Regex::new(p).expect("a valid pattern"))
    });
    static FLOAT: OnceLock<Regex> = OnceLock::new();
    let float = FLOAT.get_or_init(|| {
        Regex::new(r"^[-+]?([0-9][0-9_]*)?\.[0-9]*([eE][-+][0-9]+)?$").expect("a valid pattern")
    });
    let lower = raw.to_ascii_lowercase();
    match lower.as_str() {
        "" | "~" | "null" => return YamlValue::Null,
        "yes" | "true" | "on" => return YamlValue::Boolean(true),
        "no" | "false" | "off" => return YamlValue::Boolean(false),
        ".inf" | "+.inf" | "-.inf" | ".nan" => return YamlValue::Float(raw.to_string()),
        _ => {}
    }
    let (negative, digits) = match raw.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, raw.strip_prefix('+').unwrap_or(raw)),
    };
    let clean = digits.replace('_', "");
    let integer = if binary.is_match(raw) {
        i64::from_str_radix(&clean[2..], 2).ok()
    } else if hex.is_match(raw) {
        i64::from_str_radix(&clean[2..], 16).ok()
    } else if octal.is_match(raw) {
        i64::from_str_radix(&clean[1..], 8).ok()
    } else if decimal.is_match(raw) {
        clean.parse().ok()
    } else if sexagesimal.is_match(raw) {
        // Psych weighs the parts as hours, minutes, seconds from the left
        // (`1:20` is 4800), whatever their number.
        clean
            .split(':')
            .enumerate()
            .try_fold(0i64, |acc, (i, part)| {
                let weight = 60i64.checked_pow((i as i64 - 2).unsigned_abs() as u32)?;
                acc.checked_add(part.parse::<i64>().ok()?.checked_mul(weight)?)
            })
    } else {
        None
    };
    if let Some(i) = integer {
        return YamlValue::Integer(if negative { -i } else { i });
    }
    if float.is_match(raw) && raw.trim_start_matches(['-', '+']) != "." {
        let number: String = raw.chars().filter(|&c| c != '_').collect();
        if let Ok(f) = number.parse::<f64>() {
            return YamlValue::Float(f.to_string());
        }
    }
    YamlValue::String(raw.to_string())
}

/// The first line (0-based) at which block or flow nesting exceeds
/// [`MAX_DEPTH`], counted generously: every deeper indentation, `- ` and
/// open bracket is a level.
fn too_deep(text: &str) -> Option<usize> {
    let mut indents: Vec<usize> = Vec::new();
    let mut brackets = 0usize;
    for (number, line) in text.lines().enumerate() {
        let content = line.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let indent = line.len() - content.len();
        while indents.last().is_some_and(|&top| top >= indent) {
            indents.pop();
        }
        indents.push(indent);
        let dashes = content
            .split_inclusive(' ')
            .take_while(|part| part.trim() == "-")
            .count();
        for c in content.chars() {
            match c {
                '[' | '{' => brackets += 1,
                ']' | '}' => brackets = brackets.saturating_sub(1),
                _ => {}
            }
        }
        if indents.len() + dashes + brackets > MAX_DEPTH {
            return Some(number);
        }
    }
    None
}

/// Character indices (saphyr's markers) to byte offsets.
struct Positions<'a> {
    text: &'a str,
    /// Byte offset of every character, when the text is not ASCII.
    offsets: Option<Vec<u32>>,
}

impl<'a> Positions<'a> {
    fn new(text: &'a str) -> Positions<'a> {
        let offsets = (!text.is_ascii()).then(|| {
            text.char_indices()
                .map(|(i, _)| i as u32)
                .chain(std::iter::once(text.len() as u32))
                .collect()
        });
        Positions { text, offsets }
    }

    fn offset(&self, char_index: usize) -> TextSize {
        let byte = match &self.offsets {
            Some(offsets) => offsets
                .get(char_index)
                .copied()
                .unwrap_or(self.text.len() as u32),
            None => char_index.min(self.text.len()) as u32,
        };
        TextSize::from(byte)
    }

    fn line_start(&self, line: usize) -> TextSize {
        let start: usize = self
            .text
            .split_inclusive('\n')
            .take(line)
            .map(str::len)
            .sum();
        TextSize::from(start as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_values_with_byte_ranges() {
        let text = "---\nntp::é: 1\nntp::servers:\n  - a\n  - 'b'\n";
        let doc = parse(text);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        let root = doc.root.expect("a root");
        let keys: Vec<&str> = root
            .entries()
            .iter()
            .filter_map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(keys, ["ntp::é", "ntp::servers"]);
        let (key, value) = &root.entries()[0];
        assert_eq!(&text[key.range], "ntp::é");
        assert_eq!(value.value, YamlValue::Integer(1));
        let servers = root.get("ntp::servers").expect("servers");
        let YamlValue::Sequence(items) = &servers.value else {
            panic!("{servers:?}")
        };
        assert_eq!(&text[items[1].range], "'b'");
        assert_eq!(items[1].as_str(), Some("b"));
    }

    #[test]
    fn syntax_errors_have_ranges() {
        let text = "a: 1\nb: [1, 2\n";
        let doc = parse(text);
        assert_eq!(doc.errors.len(), 1);
        assert!(doc.errors[0].range.start() <= TextSize::of(text));
    }

    #[test]
    fn deep_nesting_is_refused_not_a_crash() {
        let mut text = String::new();
        for i in 0..10_000 {
            text.push_str(&" ".repeat(i));
            text.push_str("a:\n");
        }
        let doc = parse(&text);
        assert!(doc.errors[0].message.contains("nested"));
        let doc = parse(&"[".repeat(100_000));
        assert_eq!(doc.errors.len(), 1);
        let doc = parse(&"- ".repeat(100_000));
        assert_eq!(doc.errors.len(), 1);
    }

    #[test]
    fn json_is_read_too() {
        let doc = parse(r#"{"m::x": [1, true, null, "s", 1.5]}"#);
        let root = doc.root.expect("root");
        assert!(root.get("m::x").is_some());
    }
}
