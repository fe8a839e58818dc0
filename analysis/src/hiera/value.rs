//! Data values as Puppet reads them from YAML and JSON, for type checks
//! and display. What depends on the node stays unknown: a string with
//! interpolations is some String; a whole-string `%{alias('k')}` is a
//! value of any type; an eYAML `ENC[...]` block decrypts to a String.

use super::interpolation::{has_interpolation, whole_alias};
use super::yaml::{YamlNode, YamlValue};
use crate::model::{OrderedHash, Type, Value};

/// The value of a data node.
pub fn to_value(node: &YamlNode) -> Value {
    match &node.value {
        YamlValue::Null => Value::Undef,
        YamlValue::Boolean(b) => Value::Boolean(*b),
        YamlValue::Integer(i) => Value::Integer(*i),
        YamlValue::Float(text) => text.parse().map_or(Value::Unknown(Type::Any), Value::Float),
        YamlValue::String(s) if whole_alias(s).is_some() => Value::Unknown(Type::Any),
        YamlValue::String(s) if has_interpolation(s) || is_encrypted(s) => {
            Value::Unknown(string_type())
        }
        YamlValue::String(s) => Value::String(s.clone()),
        YamlValue::Sequence(items) => Value::Array(items.iter().map(to_value).collect()),
        YamlValue::Mapping(entries) => Value::Hash(OrderedHash::from_pairs(
            entries.iter().map(|(k, v)| (to_value(k), to_value(v))),
        )),
        YamlValue::Unsupported => Value::Unknown(Type::Any),
    }
}

/// The value of a data node as written, interpolations not done: what a
/// lookup starts from.
pub fn plain_value(node: &YamlNode) -> Value {
    match &node.value {
        YamlValue::String(s) => Value::String(s.clone()),
        YamlValue::Sequence(items) => Value::Array(items.iter().map(plain_value).collect()),
        YamlValue::Mapping(entries) => Value::Hash(OrderedHash::from_pairs(
            entries
                .iter()
                .map(|(k, v)| (plain_value(k), plain_value(v))),
        )),
        _ => to_value(node),
    }
}

/// An eYAML encrypted value (`ENC[PKCS7,...]`).
pub fn is_encrypted(text: &str) -> bool {
    text.trim_start().starts_with("ENC[")
}

fn string_type() -> Type {
    Type::from_name("String").unwrap_or(Type::Any)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hiera::yaml;
    use crate::values::format::to_programmatic;

    #[test]
    fn yaml_values_become_puppet_values() {
        let doc = yaml::parse(
            "a: [1, 2.5, true, ~, 'x', {k: v}]\nb: \"%{facts.os.family}\"\nc: \"%{alias('a')}\"\nd: ENC[PKCS7,abc]\n",
        );
        let root = doc.root.expect("root");
        let shown: Vec<String> = root
            .entries()
            .iter()
            .map(|(_, v)| to_programmatic(&to_value(v)))
            .collect();
        expect_test::expect![[r#"
            [
                "[1, 2.5, true, undef, 'x', {'k' => 'v'}]",
                "<unknown String>",
                "<unknown Any>",
                "<unknown String>",
            ]
        "#]]
        .assert_debug_eq(&shown);
    }
}
