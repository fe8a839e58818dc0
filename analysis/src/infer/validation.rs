//! What a validation call proves about its arguments once it has returned
//! (it fails the compilation otherwise): stdlib's `validate_*` functions,
//! `validate_legacy` and Puppet's `assert_type`.
//!
//! The types are what the functions really accept, read from their
//! source (stdlib 4.x-9.x): `validate_string` lets undef through,
//! `validate_integer` takes numeric strings and arrays, and
//! `validate_legacy(T, 'validate_x', $v)` only warns when `$v` is not a
//! `T` but passes `validate_x`.

use crate::model::{Type, Value};
use crate::types::normalize::variant_maybe;

/// Which arguments a validation function checks.
enum Checked {
    /// Every argument.
    All,
    /// The first argument only (the others are limits or patterns).
    First,
}

/// What a legacy `validate_*` function accepts, and for which arguments.
fn legacy(function: &str) -> Option<(Checked, Type)> {
    let string = Type::string;
    let strings = || variant_maybe(vec![string(), Type::array_of(string())]);
    let numbers = |number: Type| {
        let one = variant_maybe(vec![number, string()]);
        variant_maybe(vec![one.clone(), Type::array_of(one)])
    };
    Some(match function {
        "validate_bool" => (Checked::All, Type::boolean()),
        "validate_string" => (Checked::All, Type::optional(string())),
        "validate_array" => (Checked::All, Type::array()),
        "validate_hash" => (Checked::All, Type::hash()),
        "validate_absolute_path" => (Checked::All, strings()),
        "validate_ip_address"
        | "validate_ipv4_address"
        | "validate_ipv6_address"
        | "validate_domain_name"
        | "validate_email_address" => (Checked::All, string()),
        "validate_re" => (Checked::First, string()),
        "validate_slength" => (Checked::First, strings()),
        "validate_integer" => (Checked::First, numbers(Type::integer())),
        "validate_numeric" => (Checked::First, numbers(Type::Numeric)),
        _ => return None,
    })
}

/// The type an argument value names: a type, or a type written as a
/// string (`validate_legacy('Integer', ...)`), parsed by `parse`.
fn named_type(value: Option<&Value>, parse: &mut dyn FnMut(&str) -> Option<Type>) -> Option<Type> {
    match value? {
        Value::Type(t) => Some(t.clone()),
        Value::String(text) => parse(text),
        _ => None,
    }
}

/// The arguments a call to `function` proves, by position, with their
/// types; `values` are the arguments' values where known. A call with a
/// block (`assert_type` returns the block's answer instead of failing)
/// proves nothing.
pub(super) fn proven(
    function: &str,
    values: &[Option<Value>],
    has_block: bool,
    parse: &mut dyn FnMut(&str) -> Option<Type>,
) -> Vec<(usize, Type)> {
    let function = function.trim_start_matches("::").to_ascii_lowercase();
    match function.as_str() {
        "assert_type" if !has_block => named_type(values.first().and_then(Option::as_ref), parse)
            .map(|t| vec![(1, t)])
            .unwrap_or_default(),
        "validate_legacy" => {
            let target = named_type(values.first().and_then(Option::as_ref), parse);
            let previous = match values.get(1).and_then(Option::as_ref) {
                Some(Value::String(name)) => legacy(&name.to_ascii_lowercase()),
                _ => None,
            };
            match (target, previous) {
                (Some(t), Some((_, accepted))) => vec![(2, variant_maybe(vec![t, accepted]))],
                _ => Vec::new(),
            }
        }
        name => match legacy(name) {
            Some((Checked::All, t)) => (0..values.len()).map(|i| (i, t.clone())).collect(),
            Some((Checked::First, t)) if !values.is_empty() => vec![(0, t)],
            _ => Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_parse(_: &str) -> Option<Type> {
        None
    }

    #[test]
    fn legacy_validators_prove_what_they_accept() {
        let two = [None, None];
        assert_eq!(
            proven("validate_bool", &two, false, &mut no_parse),
            vec![(0, Type::boolean()), (1, Type::boolean())]
        );
        assert_eq!(
            proven("validate_string", &[None], false, &mut no_parse),
            vec![(0, Type::optional(Type::string()))]
        );
        let integer = proven("validate_integer", &two, false, &mut no_parse);
        assert_eq!(integer.len(), 1);
        assert_eq!(
            integer[0].1.to_string(),
            "Variant[Integer, String, Array[Variant[Integer, String]]]"
        );
        assert!(proven("validate_cmd", &two, false, &mut no_parse).is_empty());
    }

    #[test]
    fn assert_type_and_validate_legacy_use_their_type_argument() {
        let int = Some(Value::Type(Type::integer()));
        assert_eq!(
            proven("assert_type", &[int.clone(), None], false, &mut no_parse),
            vec![(1, Type::integer())]
        );
        assert!(proven("assert_type", &[int.clone(), None], true, &mut no_parse).is_empty());
        let legacy = [int, Some(Value::String("validate_bool".into())), None];
        assert_eq!(
            proven("validate_legacy", &legacy, false, &mut no_parse)[0]
                .1
                .to_string(),
            "Variant[Integer, Boolean]"
        );
        let unknown_legacy = [Some(Value::Type(Type::integer())), None, None];
        assert!(proven("validate_legacy", &unknown_legacy, false, &mut no_parse).is_empty());
    }
}
