//! Core facts with their types, from Facter's fact schema plus the fact
//! names Facter 4 itself resolves.
//!
//! Paths are dotted (`os.release.major`). A segment written `<name>` in the
//! table stands for any key matching the entry's pattern
//! (`networking.interfaces.<interface>.mtu`), and legacy names with a
//! placeholder (`blockdevice_<devicename>_size`) match by their pattern.
//! Facts absent from the schema have type `Any`.

use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use super::json::{Json, JsonExt};
use crate::model::Type;

/// The facts Facter 4 resolves on every system it runs on (core
/// resolutions that need no optional tool, hardware or network), with
/// every structured parent of each listed.
pub(crate) const ALWAYS_RESOLVED: &[&str] = &[
    "os",
    "os.name",
    "os.family",
    "os.release",
    "os.release.full",
    "os.release.major",
    "os.architecture",
    "kernel",
    "kernelrelease",
    "kernelversion",
    "kernelmajversion",
    "facterversion",
    "path",
    "hostname",
    "fqdn",
    "networking",
    "networking.hostname",
    "networking.fqdn",
    "osfamily",
    "operatingsystem",
    "memory",
    "memory.system",
    "memory.system.total_bytes",
    "processors",
    "processors.count",
];

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

/// At most this many paths are remembered as matched (a long editing
/// session asks about every name typed).
const MATCHED_PATHS: usize = 50_000;

/// The fact table with a path index.
#[derive(Debug, Default)]
pub struct Facts {
    /// Every fact, sorted by path.
    pub all: Vec<Fact>,
    exact: HashMap<String, usize>,
    /// Every entry by its path as written (placeholders included).
    by_path: HashMap<String, usize>,
    /// The entries whose path has a placeholder segment, by their number
    /// of segments.
    placeholders: HashMap<usize, Vec<usize>>,
    /// The direct children of each structured fact, by its path.
    children: HashMap<String, Vec<usize>>,
    /// Each entry's type, built once by [`Facts::type_of`] (a structured
    /// fact's type is built from its members', and inference asks for
    /// `$facts` often).
    entry_types: Vec<OnceLock<Type>>,
    /// Paths already matched against the placeholder entries (inference
    /// asks for every variable name whether it is a legacy fact, and most
    /// are not: each would try every pattern again).
    matched: RwLock<HashMap<String, Option<usize>>>,
}

impl Facts {
    pub fn from_json(items: &[Json]) -> Facts {
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
        let mut children: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, fact) in all.iter().enumerate() {
            if let Some((parent, _)) = fact.path.rsplit_once('.') {
                children.entry(parent.to_string()).or_default().push(i);
            }
        }
        let entry_types = all.iter().map(|_| OnceLock::new()).collect();
        let mut by_path = HashMap::new();
        for (i, fact) in all.iter().enumerate() {
            by_path.entry(fact.path.clone()).or_insert(i);
        }
        let mut placeholders: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, fact) in all.iter().enumerate() {
            if fact.path.contains('<') {
                let segments = fact.path.split('.').count();
                placeholders.entry(segments).or_default().push(i);
            }
        }
        Facts {
            all,
            exact,
            by_path,
            placeholders,
            children,
            entry_types,
            matched: RwLock::default(),
        }
    }

    /// The entry describing `path` (`os.family`, `networking.interfaces.eth0.mtu`).
    pub fn get(&self, path: &str) -> Option<&Fact> {
        if let Some(&i) = self.exact.get(path) {
            return self.all.get(i);
        }
        let known = self.matched.read().ok().and_then(|m| m.get(path).copied());
        let index = known.unwrap_or_else(|| {
            let index = self.match_placeholders(path);
            if let Ok(mut matched) = self.matched.write() {
                if matched.len() < MATCHED_PATHS {
                    matched.insert(path.to_string(), index);
                }
            }
            index
        });
        self.all.get(index?)
    }

    /// The entry with placeholders that `path` matches.
    fn match_placeholders(&self, path: &str) -> Option<usize> {
        let segs: Vec<&str> = path.split('.').collect();
        self.placeholders
            .get(&segs.len())?
            .iter()
            .copied()
            .find(|&i| self.all.get(i).is_some_and(|f| self.matches(f, &segs)))
    }

    /// True when the entry's path matches the segments; a placeholder
    /// segment matches any key its own entry's pattern accepts.
    fn matches(&self, fact: &Fact, segs: &[&str]) -> bool {
        let mut end = 0;
        for (f, s) in fact.path.split('.').zip(segs) {
            end += if end == 0 { f.len() } else { f.len() + 1 };
            if f == *s {
                continue;
            }
            // The text before the placeholder is literal (`ipaddress_<if>`).
            let Some((literal, _)) = f.split_once('<') else {
                return false;
            };
            if !s.starts_with(literal) {
                return false;
            }
            // The placeholder's own entry (same prefix) holds its pattern.
            let entry = self
                .by_path
                .get(&fact.path[..end])
                .and_then(|&i| self.all.get(i));
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
    pub(crate) fn children<'a>(&'a self, path: &'a str) -> impl Iterator<Item = &'a Fact> + 'a {
        self.children
            .get(path)
            .into_iter()
            .flatten()
            .filter_map(|&i| self.all.get(i))
    }

    /// The named keys under a structured fact (`Some("os")` -> `family`,
    /// `name`...), or the top-level modern facts for `None`: what
    /// completion offers inside `$facts[...]`. Placeholder keys
    /// (`<interface>`) are left out.
    /// The named top-level facts, legacy ones included (each a top-scope
    /// variable where Puppet receives it).
    pub fn top_level(&self) -> impl Iterator<Item = &Fact> {
        let mut seen = std::collections::HashSet::new();
        self.all
            .iter()
            .filter(|f| !f.path.contains('.') && !f.path.ends_with('>'))
            .filter(move |f| seen.insert(f.path.as_str()))
    }

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

    /// The cell keeping the type of `fact` (of the first entry with its
    /// path) once [`Facts::type_of`] has built it.
    pub(crate) fn entry_type_cell(&self, fact: &Fact) -> Option<&OnceLock<Type>> {
        let index = self.by_path.get(&fact.path).copied()?;
        self.entry_types.get(index)
    }
}
