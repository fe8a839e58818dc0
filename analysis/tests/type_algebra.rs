//! Type algebra examples from the specification and Puppet 7 behaviour:
//! parameterization, display, assignability, commonality, aliases.

use puppet_analysis::model::{OrderedHash, Type, Value};
use puppet_analysis::types::{
    common_type, infer, is_assignable, normalize, parameterize, parameterize_named, TypeAliases,
    TypeSystem,
};

fn int(i: i64) -> Value {
    Value::Integer(i)
}
fn ty(t: Type) -> Value {
    Value::Type(t)
}
fn p(name: &str, args: &[Value]) -> Type {
    parameterize_named(name, args).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn parameterization_and_display() {
    assert_eq!(
        p("Integer", &[int(8080), int(8080)]).to_string(),
        "Integer[8080, 8080]"
    );
    assert_eq!(
        p("Integer", &[int(0), Value::Default]).to_string(),
        "Integer[0]"
    );
    assert_eq!(
        p("Array", &[ty(Type::integer()), Value::Default, int(3)]).to_string(),
        "Array[Integer, 0, 3]"
    );
    assert_eq!(
        p("Array", &[ty(Type::integer()), int(0), int(0)]).to_string(),
        "Array[0, 0]"
    );
    assert_eq!(
        p("Hash", &[int(1), int(2)]).to_string(),
        "Hash[Any, Any, 1, 2]"
    );
    assert_eq!(
        p("String", &[Value::Default, int(5)]).to_string(),
        "String[0, 5]"
    );
    assert_eq!(
        p("Enum", &[Value::string("red"), Value::string("blue")]).to_string(),
        "Enum['blue', 'red']"
    );
    assert_eq!(
        p("Optional", &[Value::string("literal")]).to_string(),
        "Optional['literal']"
    );
    let inner = p("Array", &[ty(p("Integer", &[int(1)]))]);
    assert_eq!(
        p("Hash", &[ty(Type::string()), ty(inner)]).to_string(),
        "Hash[String, Array[Integer[1]]]"
    );
    let h = OrderedHash::from_pairs([
        (Value::string("a"), ty(Type::integer())),
        (ty(p("Optional", &[Value::string("b")])), ty(Type::string())),
    ]);
    assert_eq!(
        p("Struct", &[Value::Hash(h)]).to_string(),
        "Struct[{'a' => Integer, Optional['b'] => String}]"
    );
    assert_eq!(
        p("Callable", &[int(0), Value::Default]).to_string(),
        "Callable[0]"
    );
    assert_eq!(
        p(
            "Callable",
            &[
                Value::Array(vec![ty(Type::integer()), int(2), int(2)]),
                ty(Type::float())
            ]
        )
        .to_string(),
        "Callable[[Integer, 2, 2], Float]"
    );
    assert_eq!(
        p("Timespan", &[int(2)]).to_string(),
        "Timespan['0-00:00:02.0']"
    );
    assert_eq!(
        p(
            "SemVer",
            &[
                Value::string(">=1.0.0 <2.0.0"),
                Value::string(">=2.0.0 <3.0.0")
            ]
        )
        .to_string(),
        "SemVer['>=3.0.0 <1.0.0']"
    );
}

#[test]
fn parameterization_errors() {
    for (name, args) in [
        ("Integer", vec![int(3), int(1)]),
        ("Integer", vec![Value::string("a")]),
        ("Integer", vec![int(1), int(2), int(3)]),
        ("Float", vec![Value::Float(3.2), Value::Float(1.5)]),
        ("Hash", vec![ty(Type::string())]),
        ("Array", vec![int(1)]),
        ("String", vec![Value::string("a")]),
        ("Pattern", vec![Value::string("(")]),
        ("Any", vec![ty(Type::integer())]),
        ("Variant", vec![]),
        ("SemVer", vec![Value::string("foo")]),
        ("Boolean", vec![int(1)]),
    ] {
        assert!(
            parameterize_named(name, &args).is_err(),
            "{name}{args:?} should fail"
        );
    }
}

#[test]
fn spec_range_algebra() {
    let i = |a, b| p("Integer", &[int(a), int(b)]);
    assert!(is_assignable(&i(1, 10), &i(2, 3)));
    assert!(!is_assignable(&i(1, 10), &i(0, 5)));
    assert!(is_assignable(&Type::Numeric, &Type::integer()));
    assert!(is_assignable(&Type::Data, &p("Array", &[ty(Type::Data)])));
    assert!(is_assignable(
        &Type::Data,
        &infer(&Value::Array(vec![int(1), Value::string("a")]))
    ));
    assert!(!is_assignable(&Type::Data, &Type::Default));
    assert_eq!(common_type(&i(1, 1), &i(5, 5)).to_string(), "Integer[1, 5]");
    assert_eq!(
        common_type(&Type::integer(), &Type::string()).to_string(),
        "ScalarData"
    );
    assert_eq!(
        common_type(&Type::integer(), &Type::float()).to_string(),
        "Numeric"
    );
    assert_eq!(
        common_type(&Type::Default, &Type::integer()).to_string(),
        "RichData"
    );
    let v = Type::Variant(vec![Type::integer(), Type::Undef]);
    assert_eq!(normalize(&v).to_string(), "Optional[Integer]");
    let v = Type::Variant(vec![i(1, 2), i(3, 4)]);
    assert_eq!(normalize(&v).to_string(), "Integer[1, 4]");
}

#[test]
fn instance_of_is_unknown_through_unknown_aliases_and_patterns() {
    let mut aliases = TypeAliases::new();
    aliases.insert("Port", p("Integer", &[int(1), int(65535)]));
    // Look-ahead: Ruby has it, the regex engine here has not.
    aliases.insert("Name", Type::Pattern(vec![r"\A(?!-)[a-z-]+\z".into()]));
    aliases.insert("Names", Type::array_of(Type::Alias("Name".into())));
    aliases.insert(
        "Tree",
        Type::Variant(vec![
            Type::integer(),
            Type::array_of(Type::Alias("Tree".into())),
        ]),
    );
    let ts = TypeSystem::new(&aliases);
    let x = Value::string("x");
    let alias = |name: &str| Type::Alias(name.into());
    assert_eq!(ts.instance_of(&alias("Port"), &x), Some(false));
    assert_eq!(ts.instance_of(&alias("Tree"), &x), Some(false));
    // An alias of a module that is not in the workspace.
    assert_eq!(ts.instance_of(&alias("Other::Port"), &x), None);
    assert_eq!(
        ts.instance_of(&Type::optional(alias("Other::Port")), &x),
        None
    );
    let names = Value::Array(vec![Value::string("-x")]);
    assert_eq!(ts.instance_of(&alias("Names"), &names), None);
}

#[test]
fn recursive_alias_terminates() {
    let mut aliases = TypeAliases::new();
    // type Tree = Array[Variant[Integer, Tree]]
    aliases.insert(
        "Tree",
        Type::array_of(Type::Variant(vec![
            Type::integer(),
            Type::Alias("Tree".into()),
        ])),
    );
    // type Loop = Loop (degenerate)
    aliases.insert("Loop", Type::Alias("Loop".into()));
    let ts = TypeSystem::new(&aliases);
    let tree = Type::Alias("Tree".into());
    let v = Value::Array(vec![
        int(1),
        Value::Array(vec![int(2), Value::Array(vec![])]),
    ]);
    assert!(ts.instance(&tree, &v));
    assert!(!ts.instance(&tree, &Value::Array(vec![Value::string("x")])));
    assert!(ts.assignable(&tree, &tree));
    assert!(ts.assignable(&tree, &Type::empty_array()));
    assert!(!ts.instance(&Type::Alias("Loop".into()), &int(1)));
    assert!(parameterize(&Type::Alias("Tree".into()), &[int(1)]).is_err());
}
