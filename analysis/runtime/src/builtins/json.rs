//! Convenience accessors over `serde_json::Value` for reading the embedded
//! built-ins table (absent or mistyped members read as empty, never panic).

pub use serde_json::Value as Json;

/// Reads members of a table entry.
pub trait JsonExt {
    /// The elements, if an array (empty otherwise).
    fn items(&self) -> &[Json];
    /// `true` only for the JSON literal `true`.
    fn is_true(&self) -> bool;
    /// A string member of an object (`None` when absent or not a string).
    fn str_field(&self, key: &str) -> Option<&str>;
    /// A boolean member of an object (absent = false).
    fn flag(&self, key: &str) -> bool;
    /// An array-of-strings member of an object.
    fn strings(&self, key: &str) -> Vec<String>;
}

impl JsonExt for Json {
    fn items(&self) -> &[Json] {
        self.as_array().map_or(&[], Vec::as_slice)
    }

    fn is_true(&self) -> bool {
        self.as_bool() == Some(true)
    }

    fn str_field(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Json::as_str)
    }

    fn flag(&self, key: &str) -> bool {
        self.get(key).is_some_and(JsonExt::is_true)
    }

    fn strings(&self, key: &str) -> Vec<String> {
        self.get(key)
            .map(JsonExt::items)
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    }
}
