//! Operations on values: Puppet's exact string forms (`%p`, `%s`,
//! interpolation), Puppet's `==`, Ruby's number conversions and float
//! printing, Base64 for binaries, and the labels of values in messages.
//!
//! The values themselves are defined in [`crate::model`]. Values are printed
//! below the type system: a type held by a value prints through its
//! `Display` (see `format::to_programmatic`).

pub mod binary;
pub mod convert;
pub mod equality;
pub mod float;
pub mod format;

use crate::model::Value;

impl Value {
    /// A short name of the value's kind, used in messages ("an Integer").
    pub fn label(&self) -> String {
        match self {
            Value::Undef => "Undef Value".into(),
            Value::Default => "Default Value".into(),
            Value::Boolean(_) => "Boolean".into(),
            Value::Integer(_) => "Integer".into(),
            Value::Float(_) => "Float".into(),
            Value::String(_) => "String".into(),
            Value::Array(_) => "Array".into(),
            Value::Hash(_) => "Hash".into(),
            Value::Regexp(_) => "Regexp".into(),
            Value::Type(t) => format!("{}-Type", t),
            Value::SemVer(_) => "Semver".into(),
            Value::SemVerRange(_) => "SemverRange".into(),
            Value::Timespan(_) => "Timespan".into(),
            Value::Timestamp(_) => "Timestamp".into(),
            Value::Sensitive(_) => "Sensitive".into(),
            Value::Binary(_) => "Binary".into(),
            Value::Uri(_) => "URI".into(),
            Value::Iterator(_) => "Iterator".into(),
            Value::Object(o) => o.type_name.clone(),
            Value::Unknown(t) => format!("{}", t),
        }
    }

    /// The label with its article ("an Integer", "a String").
    pub fn a_label(&self) -> String {
        a_an(&self.label())
    }
}

/// Prefixes a label with "a" or "an" as Puppet's label provider does.
pub fn a_an(text: &str) -> String {
    let first = text
        .trim_start_matches(['"', '\''])
        .chars()
        .next()
        .unwrap_or('x');
    let article = if "aeiouyAEIOUY".contains(first) {
        "an"
    } else {
        "a"
    };
    format!("{} {}", article, text)
}
