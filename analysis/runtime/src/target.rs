//! The Puppet a code base is checked for: its major version and the two
//! compiler settings whose defaults changed between Puppet 7 and 8.
//!
//! The language did not change from 7 to 8, but the compiler's defaults
//! did: Puppet 8 sets `strict = error` (deprecated behaviour such as
//! numeric coercion of strings or duplicate hash keys fails) and
//! `strict_variables = true` (reading an unknown variable fails), and no
//! longer receives Facter's legacy facts. Stdlib 9, which Puppet 8 users
//! have, removed and deprecated functions. Every verdict that depends on
//! one of these reads a [`Target`].

use std::fmt;
use std::str::FromStr;

/// A Puppet major version puppet-ls knows the verdicts of. OpenVox 8 is
/// Puppet 8's language and compiler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum PuppetVersion {
    V7,
    #[default]
    V8,
}

impl PuppetVersion {
    pub const ALL: [PuppetVersion; 2] = [PuppetVersion::V7, PuppetVersion::V8];

    /// The major version number.
    pub fn major(self) -> u64 {
        match self {
            PuppetVersion::V7 => 7,
            PuppetVersion::V8 => 8,
        }
    }

    pub fn from_major(major: u64) -> Option<PuppetVersion> {
        PuppetVersion::ALL.into_iter().find(|v| v.major() == major)
    }

    /// The release whose behaviour puppet-ls reproduces (its built-in tables
    /// are generated from it).
    pub fn reference_release(self) -> &'static str {
        match self {
            PuppetVersion::V7 => "7.23",
            PuppetVersion::V8 => "8.10",
        }
    }
}

impl fmt::Display for PuppetVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.major())
    }
}

impl FromStr for PuppetVersion {
    type Err = String;

    /// `7`, `8`, or a full version (`8.10.0`): its major version.
    fn from_str(text: &str) -> Result<PuppetVersion, String> {
        let major = text.trim().split('.').next().unwrap_or_default();
        major
            .parse::<u64>()
            .ok()
            .and_then(PuppetVersion::from_major)
            .ok_or_else(|| format!("unknown Puppet version '{text}': expected 7 or 8"))
    }
}

/// Puppet's `strict` setting: what deprecated or questionable behaviour
/// (numeric coercion of strings, duplicate hash keys, `deprecation()`,
/// overriding evaluated resources) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strict {
    /// Allowed silently.
    Off,
    /// Allowed with a warning (Puppet 7's default).
    Warning,
    /// The compilation fails (Puppet 8's default).
    Error,
}

impl Strict {
    pub const ALL: [Strict; 3] = [Strict::Off, Strict::Warning, Strict::Error];

    pub fn as_str(self) -> &'static str {
        match self {
            Strict::Off => "off",
            Strict::Warning => "warning",
            Strict::Error => "error",
        }
    }
}

impl fmt::Display for Strict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Strict {
    type Err = String;

    fn from_str(text: &str) -> Result<Strict, String> {
        Strict::ALL
            .into_iter()
            .find(|s| s.as_str() == text)
            .ok_or_else(|| format!("unknown strict mode '{text}': expected off, warning or error"))
    }
}

/// The Puppet whose verdicts puppet-ls gives: a version and the settings in
/// effect (each version's defaults unless the user set them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Target {
    pub version: PuppetVersion,
    pub strict: Strict,
    pub strict_variables: bool,
}

impl Default for Target {
    fn default() -> Target {
        Target::of(PuppetVersion::default())
    }
}

impl Target {
    /// A version with its own defaults: Puppet 7 `strict = warning`,
    /// `strict_variables = false`; Puppet 8 `strict = error`,
    /// `strict_variables = true`.
    pub fn of(version: PuppetVersion) -> Target {
        match version {
            PuppetVersion::V7 => Target {
                version,
                strict: Strict::Warning,
                strict_variables: false,
            },
            PuppetVersion::V8 => Target {
                version,
                strict: Strict::Error,
                strict_variables: true,
            },
        }
    }

    /// Whether Facter's legacy facts (`$osfamily`, `$::fqdn`) are top-scope
    /// variables: Puppet 8 no longer receives them.
    pub fn has_legacy_facts(self) -> bool {
        self.version == PuppetVersion::V7
    }

    /// Whether reading a variable nothing set fails: under
    /// `strict_variables`, and also under `strict = error` (Puppet's
    /// evaluator raises the unknown-variable issue as strict's error).
    pub fn unknown_variables_fail(self) -> bool {
        self.strict_variables || self.strict == Strict::Error
    }

    /// Whether deprecated behaviour fails the compilation.
    pub fn strict_errors(self) -> bool {
        self.strict == Strict::Error
    }
}

impl fmt::Display for Target {
    /// `Puppet 8 (strict = error, strict_variables = true)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Puppet {} (strict = {}, strict_variables = {})",
            self.version, self.strict, self.strict_variables
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_from_majors_and_releases() {
        assert_eq!("8".parse(), Ok(PuppetVersion::V8));
        assert_eq!("7.23.0".parse(), Ok(PuppetVersion::V7));
        assert!("6".parse::<PuppetVersion>().is_err());
        assert!("x".parse::<PuppetVersion>().is_err());
    }

    #[test]
    fn each_version_has_its_own_defaults() {
        let seven = Target::of(PuppetVersion::V7);
        assert_eq!(
            (seven.strict, seven.strict_variables),
            (Strict::Warning, false)
        );
        let eight = Target::default();
        assert_eq!(eight.version, PuppetVersion::V8);
        assert_eq!(
            (eight.strict, eight.strict_variables),
            (Strict::Error, true)
        );
        assert_eq!(
            eight.to_string(),
            "Puppet 8 (strict = error, strict_variables = true)"
        );
    }
}
