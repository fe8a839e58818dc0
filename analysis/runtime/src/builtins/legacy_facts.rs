//! Facter's legacy facts and the structured facts that replace them, as
//! data: `data/legacy_facts.json`, read from Facter 4's own fact classes by
//! `tools/gen_legacy_facts.rb` (each structured fact names the legacy facts
//! it answers). Puppet 8 no longer receives legacy facts, so `$osfamily`
//! fails there; the replacement is `$facts['os']['family']`.
//!
//! A legacy fact is either a name (`osfamily`) or a pattern with a
//! placeholder (`ipaddress_eth0`: `^ipaddress_(.+)$` ->
//! `networking.interfaces.$1.ip`).

use super::json::{Json, JsonExt};
use std::collections::HashMap;
use std::sync::OnceLock;

const DATA: &str = include_str!("../../data/legacy_facts.json");

/// The mapping, loaded once.
#[derive(Debug, Default)]
pub struct LegacyFacts {
    exact: HashMap<String, Vec<String>>,
    patterns: Vec<(regex::Regex, Vec<String>)>,
    /// Legacy facts with no structured equivalent (or none that holds on
    /// every operating system).
    unmapped: Vec<String>,
}

impl LegacyFacts {
    /// Reads the generator's table: `exact` and `patterns` map to entries
    /// with a `path`; `unmapped` names facts without an equivalent; a
    /// `conflicts` entry (a name whose equivalent differs between
    /// operating systems) has no safe replacement either.
    fn from_json_text(text: &str) -> Option<LegacyFacts> {
        let json: Json = serde_json::from_str(text).ok()?;
        let path_of = |entry: &Json| -> Option<Vec<String>> {
            let path = entry.strings("path");
            (!path.is_empty()).then_some(path)
        };
        let conflicts: Vec<String> = json
            .get("conflicts")
            .map(JsonExt::items)
            .unwrap_or_default()
            .iter()
            .filter_map(|c| c.str_field("legacy").map(str::to_string))
            .collect();
        let exact = entries(&json, "exact")
            .filter(|(name, _)| !conflicts.contains(name))
            .filter_map(|(name, entry)| Some((name.clone(), path_of(entry)?)))
            .collect();
        let patterns = entries(&json, "patterns")
            .filter_map(|(_, entry)| {
                let regex = regex::Regex::new(entry.str_field("regex")?).ok()?;
                Some((regex, path_of(entry)?))
            })
            .collect();
        let unmapped = entries(&json, "unmapped")
            .map(|(name, _)| name.clone())
            .chain(conflicts)
            .collect();
        Some(LegacyFacts {
            exact,
            patterns,
            unmapped,
        })
    }

    /// The structured path replacing legacy fact `name` (`["os",
    /// "family"]` for `osfamily`), `None` when it has none or is not a
    /// legacy fact.
    pub fn structured_path(&self, name: &str) -> Option<Vec<String>> {
        if let Some(path) = self.exact.get(name) {
            return Some(path.clone());
        }
        self.patterns.iter().find_map(|(regex, template)| {
            let captures = regex.captures(name)?;
            Some(
                template
                    .iter()
                    .map(|segment| {
                        let mut out = String::new();
                        captures.expand(segment, &mut out);
                        out
                    })
                    .collect(),
            )
        })
    }

    /// Whether `name` is a legacy fact Facter 4 knows (mapped or not).
    pub fn is_legacy(&self, name: &str) -> bool {
        self.exact.contains_key(name)
            || self.unmapped.iter().any(|u| u == name)
            || self.patterns.iter().any(|(r, _)| r.is_match(name))
    }
}

/// The members of the table's object `key` (none when it is absent).
fn entries<'a>(json: &'a Json, key: &str) -> impl Iterator<Item = (&'a String, &'a Json)> {
    json.get(key)
        .and_then(Json::as_object)
        .into_iter()
        .flatten()
}

/// The mapping (empty if the embedded data fails to parse).
pub fn legacy_facts() -> &'static LegacyFacts {
    static TABLE: OnceLock<LegacyFacts> = OnceLock::new();
    TABLE.get_or_init(|| LegacyFacts::from_json_text(DATA).unwrap_or_default())
}

/// The `$facts` access replacing legacy fact `name`:
/// `$facts['os']['family']` for `osfamily`.
pub fn replacement(name: &str) -> Option<String> {
    let path = legacy_facts().structured_path(name)?;
    Some(facts_access(&path))
}

/// `$facts['a']['b']` for the path `a.b`.
pub fn facts_access(path: &[String]) -> String {
    let mut out = String::from("$facts");
    for segment in path {
        out.push_str("['");
        out.push_str(&segment.replace('\\', "\\\\").replace('\'', "\\'"));
        out.push_str("']");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_facts_map_to_structured_access() {
        assert_eq!(
            replacement("osfamily").as_deref(),
            Some("$facts['os']['family']")
        );
        assert_eq!(
            replacement("fqdn").as_deref(),
            Some("$facts['networking']['fqdn']")
        );
        assert_eq!(
            replacement("ipaddress_eth0").as_deref(),
            Some("$facts['networking']['interfaces']['eth0']['ip']")
        );
        assert_eq!(replacement("os"), None);
        assert!(legacy_facts().is_legacy("operatingsystem"));
        assert!(!legacy_facts().is_legacy("networking"));
        // Ubuntu's differs from every other system's: no safe replacement.
        assert!(legacy_facts().is_legacy("lsbminordistrelease"));
        assert_eq!(replacement("lsbminordistrelease"), None);
    }
}
