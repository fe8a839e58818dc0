//! The puppetlabs-stdlib functions stdlib 9 removed, and what to use
//! instead.
//!
//! Which functions were removed is computed from the two built-in tables:
//! a function of stdlib 8.5 (Puppet 7's table) that is neither a function
//! of stdlib 9 nor one of Puppet 8's own (`abs`, `getvar`, `sort`... left
//! stdlib for Puppet's core, where calls still find them). What to use
//! instead is data, `data/stdlib9_replacements.tsv`: one line per function
//! or per family (`is_*`), whose text completes "use ... instead".

use super::builtins_for;
use crate::target::PuppetVersion;
use std::collections::BTreeSet;
use std::sync::OnceLock;

const REPLACEMENTS: &str = include_str!("../../data/stdlib9_replacements.tsv");

/// A function stdlib 9 removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    /// What to use instead (completes "use ... instead"), when the data
    /// has a line for the function or its family.
    pub replacement: Option<&'static str>,
}

/// The lines of the replacements table, `(name or family, replacement)`,
/// in the file's order (a family's name ends in `*`).
pub fn replacement_lines() -> &'static [(&'static str, &'static str)] {
    static LINES: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    LINES.get_or_init(|| {
        REPLACEMENTS
            .lines()
            .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
            .filter_map(|line| line.split_once('\t'))
            .map(|(name, text)| (name.trim(), text.trim()))
            .collect()
    })
}

/// The names of the functions stdlib 9 removed (lower case).
pub fn removed_in_stdlib9() -> &'static BTreeSet<String> {
    static REMOVED: OnceLock<BTreeSet<String>> = OnceLock::new();
    REMOVED.get_or_init(|| {
        let old = builtins_for(PuppetVersion::V7);
        let new = builtins_for(PuppetVersion::V8);
        old.stdlib_functions
            .iter()
            .map(|f| f.name.as_str())
            .filter(|name| new.stdlib_function(name).is_none() && new.function(name).is_none())
            .map(str::to_string)
            .collect()
    })
}

/// Whether stdlib 9 removed the function `name`, and what replaces it.
pub fn stdlib9_removal(name: &str) -> Option<Removed> {
    let name = name.trim_start_matches("::").to_ascii_lowercase();
    if !removed_in_stdlib9().contains(&name) {
        return None;
    }
    Some(Removed {
        replacement: replacement_for(&name),
    })
}

/// The replacement text of a name: its own line, else the family with the
/// longest prefix that matches it.
fn replacement_for(name: &str) -> Option<&'static str> {
    let lines = replacement_lines();
    lines
        .iter()
        .find(|(pattern, _)| *pattern == name)
        .or_else(|| {
            lines
                .iter()
                .filter_map(|line| {
                    let prefix = line.0.strip_suffix('*')?;
                    name.starts_with(prefix).then_some((prefix.len(), line))
                })
                .max_by_key(|(len, _)| *len)
                .map(|(_, line)| line)
        })
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_removed_functions_come_from_the_tables() {
        let removed = removed_in_stdlib9();
        for name in ["has_key", "is_string", "validate_re", "dig44", "type3x"] {
            assert!(removed.contains(name), "{name}");
        }
        // Still in stdlib 9, or now one of Puppet 8's own.
        for name in [
            "validate_legacy",
            "to_json",
            "merge",
            "getvar",
            "abs",
            "dig",
        ] {
            assert!(!removed.contains(name), "{name}");
        }
    }

    #[test]
    fn every_removed_function_has_a_replacement_and_every_line_is_used() {
        let removed = removed_in_stdlib9();
        let missing: Vec<&String> = removed
            .iter()
            .filter(|name| replacement_for(name).is_none())
            .collect();
        assert!(missing.is_empty(), "no replacement for {missing:?}");
        for (pattern, text) in replacement_lines() {
            assert!(!text.is_empty(), "{pattern}");
            let used = match pattern.strip_suffix('*') {
                Some(prefix) => removed.iter().any(|name| name.starts_with(prefix)),
                None => removed.contains(*pattern),
            };
            assert!(used, "'{pattern}' names no function stdlib 9 removed");
        }
    }

    #[test]
    fn a_function_line_wins_over_its_family() {
        assert_eq!(
            stdlib9_removal("is_string").and_then(|r| r.replacement),
            Some("a match with a data type (`$x =~ String`)")
        );
        assert_eq!(
            stdlib9_removal("::Has_Key").and_then(|r| r.replacement),
            Some("the `in` operator (`'key' in $hash`)")
        );
        assert_eq!(
            replacement_for("is_something_new"),
            Some("a match with a data type (`$x =~ Type`)")
        );
        assert_eq!(stdlib9_removal("validate_legacy"), None);
    }
}
