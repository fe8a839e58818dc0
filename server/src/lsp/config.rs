//! The server's configuration, from `initializationOptions` and
//! `workspace/didChangeConfiguration`:
//! `{ "modulePaths": [...], "diagnostics": { "ignore": [...] }, "strictVariables": bool }`,
//! optionally wrapped as `{ "puppet-ls": { ... } }`.

use serde_json::Value;
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub module_paths: Vec<PathBuf>,
    pub ignored_codes: Vec<String>,
    pub strict_variables: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            module_paths: Vec::new(),
            ignored_codes: Vec::new(),
            strict_variables: true,
        }
    }
}

impl Config {
    /// Reads what the value says; keys it lacks keep their current values.
    /// Malformed values are ignored (a client's mistake is not fatal).
    pub fn update(&mut self, value: &Value) {
        let value = value.get("puppet-ls").unwrap_or(value);
        if let Some(paths) = value.get("modulePaths").and_then(Value::as_array) {
            self.module_paths = paths
                .iter()
                .filter_map(Value::as_str)
                .map(PathBuf::from)
                .collect();
        }
        if let Some(codes) = value
            .get("diagnostics")
            .and_then(|d| d.get("ignore"))
            .and_then(Value::as_array)
        {
            self.ignored_codes = codes
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
        }
        if let Some(strict) = value.get("strictVariables").and_then(Value::as_bool) {
            self.strict_variables = strict;
        }
    }

    /// Whether a diagnostic with this code is shown.
    pub fn shows(&self, code: &str) -> bool {
        !(self.ignored_codes.iter().any(|c| c == code)
            || (!self.strict_variables && code == "unknown-variable"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_plain_and_wrapped_settings() {
        let mut c = Config::default();
        c.update(&json!({"modulePaths": ["/m"], "diagnostics": {"ignore": ["unused-variable"]}}));
        assert_eq!(c.module_paths, vec![PathBuf::from("/m")]);
        assert!(!c.shows("unused-variable"));
        assert!(c.shows("unknown-variable"));
        c.update(&json!({"puppet-ls": {"strictVariables": false}}));
        assert!(!c.shows("unknown-variable"));
        assert_eq!(c.module_paths, vec![PathBuf::from("/m")]);
        c.update(&json!({"modulePaths": 3, "strictVariables": "yes"}));
        assert!(!c.strict_variables);
    }
}
