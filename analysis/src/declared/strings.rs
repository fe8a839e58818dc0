//! puppet-strings documentation comments, read as puppet-strings (YARD)
//! reads them: free text (the description), then tags, each running until
//! the next tag; a tag's text continues on the following indented lines,
//! and unindented text after a tag is description again.
//!
//! ```text
//! # @summary Installs and configures NTP.
//! #
//! # Longer description.
//! #
//! # @param servers
//! #   The servers to synchronise with.
//! # @param [Integer] port The port (an old-style type in brackets).
//! # @option options [String] :mode How to run.
//! # @example Basic use
//! #   include ntp
//! # @return [String] The name.
//! # @api private
//! ```

/// A documented parameter (`@param`) or hash option (`@option`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParamDoc {
    pub name: String,
    /// The types in brackets, as written (`String, Integer`).
    pub types: Option<String>,
    pub text: String,
}

/// `@option hash [Type] :key text`: a key of a hash parameter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionDoc {
    pub param: String,
    pub key: String,
    pub types: Option<String>,
    pub text: String,
}

/// What a doc comment says, by tag.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocStrings {
    pub summary: Option<String>,
    /// The free text before the first tag.
    pub description: String,
    pub params: Vec<ParamDoc>,
    pub options: Vec<OptionDoc>,
    /// `(title, code)` of each `@example`.
    pub examples: Vec<(String, String)>,
    /// `@return [Type] text`.
    pub returns: Option<ParamDoc>,
    /// `@api private`: not for use outside its module.
    pub private: bool,
    /// Other tags (`@see`, `@note`, `@since`...), as `(tag, text)`.
    pub other: Vec<(String, String)>,
}

impl DocStrings {
    /// Reads a doc comment's text (without the `#`s).
    pub fn parse(doc: &str) -> DocStrings {
        let mut out = DocStrings::default();
        let mut description = Vec::new();
        let mut tags: Vec<(String, Vec<String>)> = Vec::new();
        for line in doc.lines() {
            let trimmed = line.trim_start();
            if let Some(rest) = trimmed.strip_prefix('@') {
                let (tag, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                tags.push((tag.to_string(), vec![text.trim().to_string()]));
            } else if let Some((_, lines)) = tags
                .last_mut()
                .filter(|_| line.trim().is_empty() || line.starts_with(char::is_whitespace))
            {
                // Indented lines (and blank ones) continue the tag.
                lines.push(line.to_string());
            } else {
                description.push(line);
            }
        }
        out.description = description.join("\n").trim().to_string();
        for (tag, lines) in tags {
            out.add_tag(&tag, &lines);
        }
        out
    }

    fn add_tag(&mut self, tag: &str, lines: &[String]) {
        let first = lines.first().map(String::as_str).unwrap_or_default();
        let rest = dedent(&lines[1.min(lines.len())..]);
        let text = || join_text(first, &rest);
        match tag {
            "summary" => self.summary = Some(text()),
            "param" => {
                let (types, name, text) = typed_name(first);
                if let Some(name) = name {
                    self.params.push(ParamDoc {
                        name: name.trim_start_matches('$').to_string(),
                        types,
                        text: join_text(&text, &rest),
                    });
                }
            }
            "option" => {
                let (param, after) = first.split_once(char::is_whitespace).unwrap_or((first, ""));
                let (types, key, text) = typed_name(after);
                if let Some(key) = key {
                    self.options.push(OptionDoc {
                        param: param.trim_start_matches('$').to_string(),
                        key: key.trim_start_matches(':').to_string(),
                        types,
                        text: join_text(&text, &rest),
                    });
                }
            }
            "example" => self
                .examples
                .push((first.to_string(), rest.trim_end().to_string())),
            "return" => {
                let (types, text) = leading_types(first);
                self.returns = Some(ParamDoc {
                    name: String::new(),
                    types,
                    text: join_text(text, &rest),
                });
            }
            "api" => self.private |= first.trim() == "private",
            _ => self.other.push((tag.to_string(), text())),
        }
    }

    /// The text of a parameter's `@param`.
    pub fn param(&self, name: &str) -> Option<&ParamDoc> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Whether the comment uses puppet-strings tags at all.
    pub fn is_tagged(&self) -> bool {
        self.summary.is_some()
            || !self.params.is_empty()
            || !self.options.is_empty()
            || !self.examples.is_empty()
            || self.returns.is_some()
            || self.private
            || !self.other.is_empty()
    }

    /// Markdown for hovers: summary, description, parameters with their
    /// options, return, examples as Puppet code, and a private API note.
    pub fn to_markdown(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.private {
            parts.push("**Private API**: not for use outside its module.".to_string());
        }
        parts.extend(self.summary.clone());
        if !self.description.is_empty() {
            parts.push(self.description.clone());
        }
        if !self.params.is_empty() {
            let mut list = String::from("**Parameters**\n");
            for p in &self.params {
                list.push_str(&format!("\n- `{}`{}", p.name, described(&p.types, &p.text)));
                for o in self.options.iter().filter(|o| o.param == p.name) {
                    list.push_str(&format!(
                        "\n  - `{}`{}",
                        o.key,
                        described(&o.types, &o.text)
                    ));
                }
            }
            parts.push(list);
        }
        if let Some(r) = &self.returns {
            parts.push(format!("**Returns**{}", described(&r.types, &r.text)));
        }
        for (tag, text) in &self.other {
            parts.push(format!("*@{tag}* {text}"));
        }
        for (title, code) in &self.examples {
            let title = if title.is_empty() { "Example" } else { title };
            parts.push(format!("**{title}**\n```puppet\n{code}\n```"));
        }
        parts.join("\n\n")
    }
}

/// ` [Type]: text` or `: text` or nothing.
fn described(types: &Option<String>, text: &str) -> String {
    let mut out = String::new();
    if let Some(t) = types {
        out.push_str(&format!(" `[{t}]`"));
    }
    if !text.is_empty() {
        out.push_str(": ");
        out.push_str(&text.replace('\n', " "));
    }
    out
}

/// `[Types] name text` or `name [Types] text` (YARD takes both).
fn typed_name(text: &str) -> (Option<String>, Option<String>, String) {
    let (types, rest) = leading_types(text);
    let (name, after) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    if name.is_empty() {
        return (types, None, String::new());
    }
    let (more_types, after) = leading_types(after);
    (
        types.or(more_types),
        Some(name.to_string()),
        after.trim().to_string(),
    )
}

/// `[Types] rest` split, or no types.
fn leading_types(text: &str) -> (Option<String>, &str) {
    let text = text.trim_start();
    if let Some(inner) = text.strip_prefix('[') {
        if let Some(end) = matching_bracket(inner) {
            return (
                Some(inner[..end].trim().to_string()),
                inner[end + 1..].trim_start(),
            );
        }
    }
    (None, text)
}

/// The index of the `]` closing a `[` just before `text`.
fn matching_bracket(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' if depth == 0 => return Some(i),
            ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Continuation lines without their common indentation.
fn dedent(lines: &[String]) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

fn join_text(first: &str, rest: &str) -> String {
    let rest = rest.trim();
    match (first.trim().is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (false, true) => first.trim().to_string(),
        (false, false) => format!("{}\n{rest}", first.trim()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_tag() {
        let doc = "@summary Installs NTP.\n\nLonger text\nover two lines.\n\n\
                   @param servers\n  The servers\n  to use.\n\
                   @param [Integer] port The port.\n\
                   @param $mode [Enum['a', 'b']] How.\n\
                   @option options [String] :key A key.\n\
                   @example Basic use\n  include ntp\n  class { 'ntp': }\n\
                   @return [String] The name.\n\
                   @api private\n@see https://example.com";
        let d = DocStrings::parse(doc);
        assert_eq!(d.summary.as_deref(), Some("Installs NTP."));
        assert_eq!(d.description, "Longer text\nover two lines.");
        let params: Vec<(&str, Option<&str>, &str)> = d
            .params
            .iter()
            .map(|p| (p.name.as_str(), p.types.as_deref(), p.text.as_str()))
            .collect();
        assert_eq!(
            params,
            [
                ("servers", None, "The servers\nto use."),
                ("port", Some("Integer"), "The port."),
                ("mode", Some("Enum['a', 'b']"), "How."),
            ]
        );
        assert_eq!(d.options[0].param, "options");
        assert_eq!(d.options[0].key, "key");
        assert_eq!(
            d.examples[0],
            (
                "Basic use".to_string(),
                "include ntp\nclass { 'ntp': }".to_string()
            )
        );
        assert_eq!(
            d.returns.as_ref().and_then(|r| r.types.as_deref()),
            Some("String")
        );
        assert!(d.private);
        assert_eq!(
            d.other,
            [("see".to_string(), "https://example.com".to_string())]
        );
    }

    #[test]
    fn free_text_before_the_tags_is_the_description() {
        let d = DocStrings::parse("A class.\n\n@param x An x.");
        assert_eq!(d.description, "A class.");
        assert!(d.is_tagged());
        assert!(!DocStrings::parse("Just text.").is_tagged());
    }
}
