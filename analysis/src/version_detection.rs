//! Which Puppet a code base targets, when the user does not say: a
//! module's `metadata.json` `requirements` entry for `puppet` or `openvox`
//! whose range excludes one major version picks the other, and so does a
//! `Gemfile` pin of the `puppet` or `openvox` gem. The nearest directory
//! holding either file, from each checked path upwards, decides; the
//! metadata before the Gemfile in one directory.

use crate::metadata;
use crate::semver::{SimpleRange, Version, VersionRange};
use crate::target::PuppetVersion;
use puppet_vfs::FileSystem;
use regex::Regex;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// A version found in a project's files, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    pub version: PuppetVersion,
    /// The file that says so.
    pub file: PathBuf,
    /// What in it says so (`puppet >= 6.0.0 < 8.0.0`).
    pub requirement: String,
}

/// The version the first of `roots` that has an opinion targets.
pub fn detect(fs: &dyn FileSystem, roots: &[PathBuf]) -> Option<Detected> {
    roots.iter().find_map(|root| detect_from(fs, root))
}

/// From `root` (a file or directory) upwards: the first directory with a
/// `metadata.json` or a `Gemfile` decides (`None` when it names no Puppet
/// or allows both majors).
fn detect_from(fs: &dyn FileSystem, root: &Path) -> Option<Detected> {
    let start = if fs.is_dir(root) {
        root
    } else {
        root.parent()?
    };
    for dir in start.ancestors() {
        let metadata = dir.join("metadata.json");
        let gemfile = dir.join("Gemfile");
        let (has_metadata, has_gemfile) = (fs.is_file(&metadata), fs.is_file(&gemfile));
        if !has_metadata && !has_gemfile {
            continue;
        }
        let read = |path: &Path| {
            fs.read(path)
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        };
        let from_metadata = has_metadata
            .then(|| read(&metadata))
            .flatten()
            .and_then(|text| from_metadata(&text))
            .map(|(version, requirement)| Detected {
                version,
                file: metadata.clone(),
                requirement,
            });
        return from_metadata.or_else(|| {
            let text = read(&gemfile)?;
            let (version, requirement) = from_gemfile(&text)?;
            Some(Detected {
                version,
                file: gemfile,
                requirement,
            })
        });
    }
    None
}

/// The majors of the versions a range accepts, among those puppet-ls knows.
fn majors_in(range: &VersionRange) -> Vec<PuppetVersion> {
    PuppetVersion::ALL
        .into_iter()
        .filter(|v| {
            let major = SimpleRange::MinMax(
                Box::new(SimpleRange::GtEq(Version::new(v.major(), 0, 0))),
                Box::new(SimpleRange::Lt(Version::new(v.major() + 1, 0, 0))),
            );
            range
                .ranges
                .iter()
                .any(|r| r.intersection(&major).is_some())
        })
        .collect()
}

/// The version a `metadata.json`'s `puppet` or `openvox` requirement picks.
pub fn from_metadata(text: &str) -> Option<(PuppetVersion, String)> {
    let metadata = metadata::read(text);
    metadata.requirements.iter().find_map(|entry| {
        let name = entry.name.value.to_lowercase();
        if name != "puppet" && name != "openvox" {
            return None;
        }
        let range = entry.range().ok()?;
        match majors_in(&range)[..] {
            [only] => Some((
                only,
                format!(
                    "{name} {}",
                    entry
                        .version_requirement
                        .as_ref()
                        .map_or(">= 0.0.0", |r| r.value.as_str())
                ),
            )),
            _ => None,
        }
    })
}

/// The version a `Gemfile`'s pin of the `puppet` or `openvox` gem picks:
/// `gem 'puppet', '~> 7.0'`, `gem 'openvox', '>= 8', '< 9'`, or the
/// default of `ENV.fetch('PUPPET_GEM_VERSION', '~> 8.0')` /
/// `ENV['PUPPET_GEM_VERSION'] || '~> 8.0'`.
pub fn from_gemfile(text: &str) -> Option<(PuppetVersion, String)> {
    static GEM: LazyLock<Option<Regex>> =
        LazyLock::new(|| Regex::new(r#"^\s*gem\s*\(?\s*['"](puppet|openvox)['"]\s*(.*)$"#).ok());
    static REQUIREMENT: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r#"['"]\s*((?:~>|>=|<=|!=|>|<|=)?\s*[0-9][0-9A-Za-z.]*)\s*['"]"#).ok()
    });
    let (gem, requirement) = (GEM.as_ref()?, REQUIREMENT.as_ref()?);
    text.lines().find_map(|line| {
        let line = line.split('#').next().unwrap_or_default();
        let captures = gem.captures(line)?;
        let name = captures.get(1)?.as_str();
        let rest = captures.get(2)?.as_str();
        let constraints: Vec<&str> = requirement
            .captures_iter(rest)
            .filter_map(|c| c.get(1).map(|m| m.as_str().trim()))
            .collect();
        if constraints.is_empty() {
            return None;
        }
        let majors: Vec<PuppetVersion> = PuppetVersion::ALL
            .into_iter()
            .filter(|v| gem_major_allowed(v.major(), &constraints))
            .collect();
        match majors[..] {
            [only] => Some((only, format!("gem '{name}', {}", constraints.join(", ")))),
            _ => None,
        }
    })
}

/// Whether some release of `major` meets every RubyGems constraint.
fn gem_major_allowed(major: u64, constraints: &[&str]) -> bool {
    let candidates =
        (0..=60u64).flat_map(|minor| [0u64, 1, 5, 99].map(move |patch| [major, minor, patch]));
    let parsed: Vec<(&str, Vec<u64>)> = constraints
        .iter()
        .filter_map(|c| {
            let split = c.find(|ch: char| ch.is_ascii_digit()).unwrap_or(c.len());
            let (op, version) = c.split_at(split);
            let parts: Option<Vec<u64>> =
                version.split('.').map(|p| p.parse::<u64>().ok()).collect();
            Some((op.trim(), parts?))
        })
        .collect();
    if parsed.len() != constraints.len() {
        return false;
    }
    candidates.into_iter().any(|candidate| {
        parsed
            .iter()
            .all(|(op, version)| gem_constraint_holds(op, version, &candidate))
    })
}

/// One RubyGems constraint (`~> 7.0`: `>= 7.0`, `< 8`; `~> 7.24.1`:
/// `>= 7.24.1`, `< 7.25`).
fn gem_constraint_holds(op: &str, version: &[u64], candidate: &[u64; 3]) -> bool {
    let padded = |v: &[u64]| -> [u64; 3] {
        let mut out = [0; 3];
        for (slot, part) in out.iter_mut().zip(v) {
            *slot = *part;
        }
        out
    };
    let target = padded(version);
    let ord = candidate.cmp(&target);
    match op {
        "" | "=" => ord.is_eq(),
        "!=" => !ord.is_eq(),
        ">" => ord.is_gt(),
        ">=" => ord.is_ge(),
        "<" => ord.is_lt(),
        "<=" => ord.is_le(),
        "~>" => {
            if !ord.is_ge() {
                return false;
            }
            // The last given segment may rise; the ones before stay.
            let fixed = version.len().saturating_sub(1).max(1);
            candidate[..fixed.min(3)] == target[..fixed.min(3)]
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata_with(requirement: &str) -> String {
        format!(
            r#"{{"name": "a-b", "version": "1.0.0", "requirements": [{{"name": "puppet", "version_requirement": "{requirement}"}}]}}"#
        )
    }

    #[test]
    fn metadata_ranges_that_exclude_a_major_pick_the_other() {
        let pick = |r: &str| from_metadata(&metadata_with(r)).map(|(v, _)| v);
        assert_eq!(pick(">= 6.0.0 < 8.0.0"), Some(PuppetVersion::V7));
        assert_eq!(pick(">= 8.0.0 < 9.0.0"), Some(PuppetVersion::V8));
        assert_eq!(pick(">= 7.0.0 < 9.0.0"), None);
        assert_eq!(pick(">= 4.7.0 < 7.0.0"), None);
        assert_eq!(
            from_metadata(&metadata_with(">= 7.0.0 < 8.0.0")).map(|(_, r)| r),
            Some("puppet >= 7.0.0 < 8.0.0".to_string())
        );
        let openvox = r#"{"requirements": [{"name": "openvox", "version_requirement": ">= 8.19.0 < 9.0.0"}]}"#;
        assert_eq!(
            from_metadata(openvox).map(|(v, _)| v),
            Some(PuppetVersion::V8)
        );
    }

    #[test]
    fn gemfile_pins_pick_a_major() {
        let pick = |text: &str| from_gemfile(text).map(|(v, _)| v);
        assert_eq!(pick("gem 'puppet', '~> 7.0'\n"), Some(PuppetVersion::V7));
        assert_eq!(
            pick("gem \"puppet\", \"~> 7.24.0\""),
            Some(PuppetVersion::V7)
        );
        assert_eq!(
            pick("gem 'openvox', '>= 8', '< 9'"),
            Some(PuppetVersion::V8)
        );
        assert_eq!(
            pick("gem 'puppet', ENV.fetch('PUPPET_GEM_VERSION', '~> 8.0'), require: false"),
            Some(PuppetVersion::V8)
        );
        assert_eq!(pick("gem 'puppet', '>= 7', '< 9'"), None);
        assert_eq!(pick("gem 'puppet'\n"), None);
        assert_eq!(pick("gem 'puppet-lint', '~> 7.0'"), None);
        assert_eq!(pick("# gem 'puppet', '~> 7.0'"), None);
    }
}
