//! The server's settings, read from `initializationOptions` and from
//! `workspace/didChangeConfiguration` (shape fixed by the editor contract):
//! `{ "modulePaths": [..], "diagnostics": { "ignore": [..] },
//! "strictVariables": bool }`, possibly wrapped as `{"puppet-ls": {..}}`.
//! Unknown keys and values of the wrong type are ignored, so a typo in a
//! user's settings never stops the server.

use puppet_syntax::Code;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Settings in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Extra directories of modules, like Puppet's modulepath.
    pub module_paths: Vec<PathBuf>,
    /// Diagnostic codes never shown.
    pub ignore: BTreeSet<Code>,
    /// When false, `unknown-variable` is hidden.
    pub strict_variables: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            module_paths: Vec::new(),
            ignore: BTreeSet::new(),
            strict_variables: true,
        }
    }
}

impl Config {
    /// Reads a settings object; relative module paths are taken relative to
    /// `base` (the first workspace folder). Missing keys keep their defaults.
    pub fn from_json(value: &Value, base: Option<&Path>) -> Config {
        let value = value.get("puppet-ls").unwrap_or(value);
        let mut config = Config::default();
        if let Some(paths) = value.get("modulePaths").and_then(Value::as_array) {
            config.module_paths = paths
                .iter()
                .filter_map(Value::as_str)
                .filter(|p| !p.is_empty())
                .map(|p| match base {
                    Some(base) if Path::new(p).is_relative() => base.join(p),
                    _ => PathBuf::from(p),
                })
                .collect();
        }
        if let Some(codes) = value
            .get("diagnostics")
            .and_then(|d| d.get("ignore"))
            .and_then(Value::as_array)
        {
            config.ignore = codes
                .iter()
                .filter_map(Value::as_str)
                .filter_map(|name| {
                    name.parse::<Code>()
                        .map_err(|e| tracing::warn!("diagnostics.ignore: {e}; ignored"))
                        .ok()
                })
                .collect();
        }
        if let Some(strict) = value.get("strictVariables").and_then(Value::as_bool) {
            config.strict_variables = strict;
        }
        config
    }

    /// Whether diagnostics with this code are shown.
    pub fn shows(&self, code: Code) -> bool {
        code.enabled_by_default()
            && !self.ignore.contains(&code)
            && (self.strict_variables || code != Code::UnknownVariable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_plain_and_wrapped_settings() {
        let settings = json!({
            "modulePaths": ["vendor", "/opt/modules", 3],
            "diagnostics": { "ignore": ["unknown-class", "no-such-code"] },
            "strictVariables": false,
        });
        for value in [settings.clone(), json!({ "puppet-ls": settings })] {
            let config = Config::from_json(&value, Some(Path::new("/ws")));
            assert_eq!(
                config.module_paths,
                vec![PathBuf::from("/ws/vendor"), PathBuf::from("/opt/modules")]
            );
            assert!(!config.shows(Code::UnknownClass));
            assert_eq!(config.ignore.len(), 1, "unknown names are dropped");
            assert!(!config.shows(Code::UnknownVariable));
            assert!(config.shows(Code::SyntaxError));
        }
    }

    #[test]
    fn wrong_shapes_keep_defaults() {
        for value in [
            json!(null),
            json!(42),
            json!({ "modulePaths": "x", "diagnostics": [], "strictVariables": "no" }),
        ] {
            assert_eq!(Config::from_json(&value, None), Config::default());
        }
        assert!(Config::default().shows(Code::UnknownVariable));
    }
}
