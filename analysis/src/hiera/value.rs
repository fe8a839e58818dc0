//! Data values as Puppet reads them from YAML and JSON, for type checks
//! and display. What depends on the node stays unknown: a string with
//! interpolations is some String; a whole-string `%{alias('k')}` is a
//! value of any type; an eYAML `ENC[...]` block decrypts to a String.

use super::interpolation::{has_interpolation, whole_alias};
use super::yaml::{YamlNode, YamlValue};
use crate::model::{OrderedHash, Type, Value};
use crate::values::format::ruby_to_s;

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

/// A data value as JSON text, hash entries in their order (what `puppet
/// lookup --render-as json` prints, on one line).
pub fn to_json(value: &Value) -> String {
    let string = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    match value {
        Value::Undef => "null".to_string(),
        Value::Boolean(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) => {
            serde_json::Number::from_f64(*f).map_or("null".into(), |n| n.to_string())
        }
        Value::String(s) => string(s),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(to_json).collect();
            format!("[{}]", items.join(","))
        }
        Value::Hash(h) => {
            let entries: Vec<String> = h
                .iter()
                .map(|(k, v)| {
                    let key = match k {
                        Value::String(s) => s.clone(),
                        other => ruby_to_s(other),
                    };
                    format!("{}:{}", string(&key), to_json(v))
                })
                .collect();
            format!("{{{}}}", entries.join(","))
        }
        other => string(&ruby_to_s(other)),
    }
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
