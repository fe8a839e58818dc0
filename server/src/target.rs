//! Which Puppet `check` and the editor give verdicts for, and where that
//! choice came from (shown in `check`'s summary, the server's log and
//! status, and the hover on a `metadata.json` requirement).
//!
//! Each setting is taken from the highest layer that sets it (the command
//! line or the editor over `puppet-ls.toml`); an unset version is detected
//! from the project's `metadata.json` or `Gemfile`, else Puppet 8; unset
//! `strict` and `strict_variables` take the version's defaults.

use crate::project_config::PuppetSettings;
use puppet_analysis::target::{PuppetVersion, Target};
use puppet_analysis::version_detection::Detected;
use std::fmt;
use std::path::PathBuf;

/// Where a layer of settings comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// `check --puppet-version`.
    CommandLine,
    /// A `puppet-ls.toml`.
    ConfigFile(PathBuf),
    /// The editor's settings (`puppetVersion`...).
    Editor,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::CommandLine => f.write_str("--puppet-version"),
            Origin::ConfigFile(path) => write!(f, "{}", path.display()),
            Origin::Editor => f.write_str("the editor's settings"),
        }
    }
}

/// Where the version in effect came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionSource {
    Set(Origin),
    Detected(Detected),
    /// Nothing said: the Puppet users run today.
    Default,
}

/// The Puppet in effect and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetChoice {
    pub target: Target,
    pub version_source: VersionSource,
}

impl TargetChoice {
    /// The settings of `layers` (lowest first), over the version
    /// `detect` finds when no layer sets one.
    pub fn choose(
        layers: &[(PuppetSettings, Origin)],
        detect: impl FnOnce() -> Option<Detected>,
    ) -> TargetChoice {
        let set_version = layers
            .iter()
            .rev()
            .find_map(|(s, origin)| Some((s.version?, origin.clone())));
        let (version, version_source) = match set_version {
            Some((version, origin)) => (version, VersionSource::Set(origin)),
            None => match detect() {
                Some(detected) => (detected.version, VersionSource::Detected(detected)),
                None => (PuppetVersion::default(), VersionSource::Default),
            },
        };
        let mut target = Target::of(version);
        if let Some(strict) = layers.iter().rev().find_map(|(s, _)| s.strict) {
            target.strict = strict;
        }
        if let Some(strict_variables) = layers.iter().rev().find_map(|(s, _)| s.strict_variables) {
            target.strict_variables = strict_variables;
        }
        TargetChoice {
            target,
            version_source,
        }
    }

    /// Where the version came from, in words: `set by --puppet-version`,
    /// `from /m/metadata.json (puppet >= 6.0.0 < 8.0.0)`, `the default`.
    pub fn source_text(&self) -> String {
        match &self.version_source {
            VersionSource::Set(origin) => format!("set by {origin}"),
            VersionSource::Detected(d) => {
                format!("from {} ({})", d.file.display(), d.requirement)
            }
            VersionSource::Default => "the default".to_string(),
        }
    }
}

impl fmt::Display for TargetChoice {
    /// `Puppet 8 (strict = error, strict_variables = true; version: the default)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.target;
        write!(
            f,
            "Puppet {} (strict = {}, strict_variables = {}; version {})",
            t.version,
            t.strict,
            t.strict_variables,
            self.source_text()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puppet_analysis::target::Strict;

    fn settings(version: Option<PuppetVersion>) -> PuppetSettings {
        PuppetSettings {
            version,
            ..PuppetSettings::default()
        }
    }

    #[test]
    fn the_highest_layer_that_sets_a_key_wins() {
        let file = Origin::ConfigFile(PathBuf::from("/p/puppet-ls.toml"));
        let layers = [
            (
                PuppetSettings {
                    version: Some(PuppetVersion::V7),
                    strict: Some(Strict::Error),
                    strict_variables: None,
                },
                file.clone(),
            ),
            (settings(Some(PuppetVersion::V8)), Origin::CommandLine),
        ];
        let choice = TargetChoice::choose(&layers, || unreachable!("a version is set"));
        assert_eq!(choice.target.version, PuppetVersion::V8);
        assert_eq!(choice.target.strict, Strict::Error);
        assert!(choice.target.strict_variables);
        assert_eq!(
            choice.to_string(),
            "Puppet 8 (strict = error, strict_variables = true; version set by --puppet-version)"
        );
        // Puppet 7 with Puppet 8's strict mode, as puppet.conf allows.
        let choice = TargetChoice::choose(&layers[..1], || None);
        assert_eq!(choice.target.version, PuppetVersion::V7);
        assert_eq!(choice.target.strict, Strict::Error);
        assert!(!choice.target.strict_variables);
    }

    #[test]
    fn an_unset_version_is_detected_or_the_default() {
        let detected = Detected {
            version: PuppetVersion::V7,
            file: PathBuf::from("/m/metadata.json"),
            requirement: "puppet >= 6.0.0 < 8.0.0".into(),
        };
        let choice = TargetChoice::choose(&[], || Some(detected.clone()));
        assert_eq!(choice.target, Target::of(PuppetVersion::V7));
        assert_eq!(
            choice.source_text(),
            "from /m/metadata.json (puppet >= 6.0.0 < 8.0.0)"
        );
        let choice = TargetChoice::choose(&[(settings(None), Origin::Editor)], || None);
        assert_eq!(choice.target, Target::of(PuppetVersion::V8));
        assert_eq!(choice.source_text(), "the default");
    }
}
