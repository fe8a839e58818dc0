//! Core facts with their types, from Facter's fact schema plus the fact
//! names Facter 4 itself resolves.
//!
//! Paths are dotted (`os.release.major`). A segment written `<name>` in the
//! table stands for any key matching the entry's pattern
//! (`networking.interfaces.<interface>.mtu`), and legacy names with a
//! placeholder (`blockdevice_<devicename>_size`) match by their pattern.
//! Facts absent from the schema have type `Any`.

use std::collections::HashMap;

use super::json::{Json, JsonExt};
use super::type_string::parse_type;
use crate::types::{StructElement, Type};

/// One fact (or element of a structured fact).
#[derive(Debug)]
pub struct Fact {
    /// The dotted path as in the table (may contain `<placeholder>` segments).
    pub path: String,
    /// The type name (`String`, `Integer`, `Hash`...).
    pub type_text: String,
    /// True for legacy (flat, hidden by default) facts such as `osfamily`.
    pub legacy: bool,
    /// For `ip`/`ip6`/`mac` facts: the string format.
    pub format: Option<String>,
    /// The key pattern for placeholder entries.
    pub pattern: Option<String>,
    matcher: Option<regex::Regex>,
}

/// The fact table with a path index.
#[derive(Debug, Default)]
pub struct Facts {
    /// Every fact, sorted by path.
    pub all: Vec<Fact>,
    exact: HashMap<String, usize>,
}

impl Facts {
    pub(crate) fn from_json(items: &[Json]) -> Facts {
        let all: Vec<Fact> = items
            .iter()
            .filter_map(|j| {
                let pattern = j.str_field("pattern").map(str::to_string);
                Some(Fact {
                    path: j.str_field("path")?.to_string(),
                    type_text: j.str_field("type").unwrap_or("Any").to_string(),
                    legacy: j.flag("legacy"),
                    format: j.str_field("format").map(str::to_string),
                    matcher: pattern.as_deref().and_then(|p| regex::Regex::new(p).ok()),
                    pattern,
                })
            })
            .collect();
        let exact = all
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.path.contains('<'))
            .map(|(i, f)| (f.path.clone(), i))
            .collect();
        Facts { all, exact }
    }

    /// The entry describing `path` (`os.family`, `networking.interfaces.eth0.mtu`).
    pub fn get(&self, path: &str) -> Option<&Fact> {
        if let Some(&i) = self.exact.get(path) {
            return self.all.get(i);
        }
        let segs: Vec<&str> = path.split('.').collect();
        self.all
            .iter()
            .filter(|f| f.path.contains('<'))
            .find(|f| self.matches(f, &segs))
    }

    /// True when the entry's path matches the segments; a placeholder
    /// segment matches any key its own entry's pattern accepts.
    fn matches(&self, fact: &Fact, segs: &[&str]) -> bool {
        let fsegs: Vec<&str> = fact.path.split('.').collect();
        if fsegs.len() != segs.len() {
            return false;
        }
        let mut prefix = String::new();
        for (i, (f, s)) in fsegs.iter().zip(segs).enumerate() {
            if i > 0 {
                prefix.push('.');
            }
            prefix.push_str(f);
            if f == s {
                continue;
            }
            if !f.contains('<') {
                return false;
            }
            // The placeholder's own entry (same prefix) holds its pattern.
            let entry = if prefix == fact.path {
                Some(fact)
            } else {
                self.all.iter().find(|e| e.path == prefix)
            };
            let ok = entry
                .and_then(|e| e.matcher.as_ref())
                .map_or(!s.is_empty(), |re| re.is_match(s));
            if !ok {
                return false;
            }
        }
        true
    }

    /// The direct children of a structured fact.
    fn children<'a>(&'a self, path: &'a str) -> impl Iterator<Item = &'a Fact> + 'a {
        self.all.iter().filter(move |f| {
            f.path
                .strip_prefix(path)
                .and_then(|rest| rest.strip_prefix('.'))
                .is_some_and(|rest| !rest.contains('.'))
        })
    }

    /// The named keys under a structured fact (`Some("os")` -> `family`,
    /// `name`...), or the top-level modern facts for `None`: what
    /// completion offers inside `$facts[...]`. Placeholder keys
    /// (`<interface>`) are left out.
    pub fn members<'a>(&'a self, parent: Option<&'a str>) -> Vec<&'a Fact> {
        let named = |f: &&Fact| !f.path.ends_with('>');
        match parent {
            Some(path) => self.children(path).filter(named).collect(),
            None => self
                .all
                .iter()
                .filter(|f| !f.legacy && !f.path.contains('.'))
                .filter(named)
                .collect(),
        }
    }

    /// The type of the fact at `path`: scalars as in the table; structured
    /// facts as a `Struct` of their known members (each `Optional`, since
    /// members vary by platform) or a `Hash[String, T]` for keyed maps
    /// (`networking.interfaces`). Below a known fact with no known members
    /// the type is `Any`. `None` when the path is not a known fact.
    pub fn type_of(&self, path: &str) -> Option<Type> {
        if let Some(f) = self.get(path) {
            return Some(self.type_of_entry(f, 0));
        }
        // `hypervisors.docker.foo`: inside a fact whose members are not listed.
        let mut parent = path;
        while let Some((p, _)) = parent.rsplit_once('.') {
            parent = p;
            if let Some(f) = self.get(parent) {
                return (f.type_text == "Hash" && self.children(&f.path).next().is_none())
                    .then_some(Type::Any);
            }
        }
        None
    }

    fn type_of_entry(&self, fact: &Fact, depth: usize) -> Type {
        let base = parse_type(&fact.type_text);
        if fact.type_text != "Hash" || depth > 8 {
            return base;
        }
        let children: Vec<&Fact> = self.children(&fact.path).collect();
        if children.is_empty() {
            return Type::hash_of(Type::string(), Type::Any);
        }
        if let [keyed] = children.as_slice() {
            if keyed.path.ends_with('>') {
                return Type::hash_of(Type::string(), self.type_of_entry(keyed, depth + 1));
            }
        }
        Type::Struct(
            children
                .iter()
                .filter(|c| !c.path.ends_with('>'))
                .map(|c| StructElement {
                    key: Type::optional(Type::string_value(
                        c.path.rsplit('.').next().unwrap_or(&c.path),
                    )),
                    value: self.type_of_entry(c, depth + 1),
                })
                .collect(),
        )
    }
}
