//! Evaluator behaviour checked through `eval_case` (source in, `%p` out).

use super::record::eval_case;

/// The `%p` form of the value, or "error", or "unsupported".
fn value(src: &str) -> String {
    let r = eval_case(src);
    match (r.error, r.value) {
        (Some(_), _) => "error".into(),
        (None, Some(v)) => v,
        (None, None) => "unsupported".into(),
    }
}

fn type_of(src: &str) -> String {
    eval_case(src).type_.unwrap_or_default()
}

#[test]
fn alias_values_print_their_definition() {
    assert_eq!(
        value("type MyInt = Integer[1,10]\nString(MyInt)"),
        "'MyInt = Integer[1, 10]'"
    );
    assert_eq!(
        value("type Color = Enum[red, green]\nColor"),
        "Color = Enum['green', 'red']"
    );
    assert_eq!(
        type_of("type Color = Enum[red, green]\nColor"),
        "Type[Color]"
    );
    assert_eq!(
        value("type A = Integer\ntype B = Array[A]\nB"),
        "B = Array[A = Integer]"
    );
    assert_eq!(value("type A = Integer\nArray[A]"), "Array[A]");
    assert_eq!(value("type A = Integer\n\"${A}\""), "'A = Integer'");
    assert_eq!(
        value("type T = Variant[Integer, Array[T]]\nT"),
        "T = Variant[Integer, Array[T]]"
    );
}

#[test]
fn alias_cycles_without_a_real_type_are_errors() {
    assert_eq!(value("type Loop = Loop\n1 =~ Loop"), "error");
    assert_eq!(value("type A = B\ntype B = A\n1 =~ A"), "error");
    assert_eq!(value("type A = B\ntype B = Integer\n1 =~ A"), "true");
}

#[test]
fn functions_cannot_be_redefined() {
    assert_eq!(value("function f() { 1 } function f() { 2 } f()"), "error");
    assert_eq!(value("function f() { 1 } function g() { 2 } f()"), "1");
}

#[test]
fn builtin_signatures_are_checked() {
    assert_eq!(value("{a => 1}.keys |$k| { $k }"), "error");
    assert_eq!(value("[1,2].join(',', 'x')"), "error");
    assert_eq!(value("[1].each(1) |$x| { }"), "error");
    assert_eq!(value("[1].map"), "error");
    assert_eq!(value("with() || { 1 }"), "1");
    assert_eq!(value("[1,2].join(',')"), "'1,2'");
}

#[test]
fn iteration_with_a_block_returns_undef_for_step_and_reverse_each() {
    assert_eq!(value("reverse_each([1]) |$x| { }"), "undef");
    assert_eq!(value("[1, 2, 3].step(2) |$x| { }"), "undef");
}

#[test]
fn deprecated_string_conversions_of_number_functions() {
    assert_eq!(value("abs('-3')"), "3");
    assert_eq!(value("abs('-3.5')"), "3.5");
    assert_eq!(value("abs('3.')"), "error");
    assert_eq!(value("ceiling('2.5')"), "3");
    assert_eq!(value("floor(' 2.5 ')"), "2");
    assert_eq!(value("floor('x')"), "error");
}

#[test]
fn splats_unfold_hashes_into_pairs_but_not_in_access_keys() {
    assert_eq!(value("with(*{a => 1}) |$x| { $x }"), "['a', 1]");
    assert_eq!(value("[*{a=>1}]"), "[['a', 1]]");
    assert_eq!(value("with(*[1,2]) |$a, $b| { $b }"), "2");
    assert_eq!(value("$h = {a=>1, b=>2} $h['a', *[b]]"), "[1]");
}

#[test]
fn typed_rest_parameters() {
    assert_eq!(
        value("function f(Array[Integer] *$r) { $r } f([1], [2])"),
        "error"
    );
    assert_eq!(
        value("function f(Array[Integer] *$r) { $r } f(1, 2)"),
        "[1, 2]"
    );
    assert_eq!(value("function f(Integer *$r) { $r } f(1, 2)"), "[1, 2]");
    assert_eq!(
        value("function f(Array[Integer,1,2] *$r) { $r } f()"),
        "error"
    );
    assert_eq!(
        value("function f(Array[Integer,1,2] *$r) { $r } f(1,2,3)"),
        "error"
    );
}

#[test]
fn iterator_element_types_follow_the_receiver() {
    assert_eq!(
        value("type([1,2,2].reverse_each)"),
        "Iterator[Variant[Integer[1, 1], Integer[2, 2]]]"
    );
    assert_eq!(
        value("type({a=>1,b=>2}.reverse_each)"),
        "Iterator[Tuple[Variant[String, String], Variant[Integer[1, 1], Integer[2, 2]], 2, 2]]"
    );
    assert_eq!(
        value("type({a=>1}.reverse_each)"),
        "Iterator[Tuple[String, Integer[1, 1], 2, 2]]"
    );
    assert_eq!(value("type(10.step(3))"), "Iterator[Integer[0, 9]]");
    assert_eq!(value("type(2.step(4))"), "Iterator[Integer[0, 0]]");
}

#[test]
fn type_comparisons_leak_a_single_enum_value_like_puppet() {
    assert_eq!(value("Optional['x'] >= Enum['x']"), "'x'");
    assert_eq!(value("Optional['x'] >= Enum['y']"), "'y'");
    assert_eq!(value("Enum['y'] <= Optional['x']"), "'y'");
    assert_eq!(value("Optional['x'] > Enum['y']"), "true");
    assert_eq!(value("Optional['x'] >= Enum['x', 'y']"), "false");
    assert_eq!(value("Optional['x'] >= Undef"), "true");
}

#[test]
fn booleans_in_interpolation_braces_are_errors() {
    assert_eq!(value("\"${true}\""), "error");
    assert_eq!(value("$false = 'F'; \"${false}\""), "error");
    assert_eq!(value("\"${true.length}\""), "error");
    assert_eq!(value("$true = 'T'; \"$true\""), "'T'");
    assert_eq!(value("\"${undef}\""), "''");
}

#[test]
fn invalid_unicode_escapes_are_errors() {
    assert_eq!(value(r#""\u{110000}""#), "error");
    assert_eq!(value(r#""\u{D800}""#), "error");
    assert_eq!(value(r#""\uD800""#), "error");
    assert_eq!(value(r#""\\u{110000}""#), r"'\u{110000}'");
    assert_eq!(value(r#""\u{1100000}""#), r"'\u{1100000}'");
    assert_eq!(value(r#""\u{10FFFF}x""#).chars().count(), 4);
}

#[test]
fn init_types_accept_what_new_accepts() {
    assert_eq!(value("'1' =~ Init[Integer]"), "true");
    assert_eq!(value("'x' =~ Init[Integer]"), "false");
    assert_eq!(value("'1.5' =~ Init[Integer]"), "false");
    assert_eq!(value("'1.5' =~ Init[Float]"), "true");
    assert_eq!(value("['10', 16] =~ Init[Integer]"), "true");
    assert_eq!(value("['10', 3] =~ Init[Integer]"), "false");
    assert_eq!(
        value("{from => '10', radix => 16} =~ Init[Integer]"),
        "true"
    );
    assert_eq!(value("[1] =~ Init[String]"), "true");
    assert_eq!(value("'yes' =~ Init[Boolean]"), "true");
    assert_eq!(value("'maybe' =~ Init[Boolean]"), "false");
}

#[test]
fn unknown_functions_are_errors_in_a_closed_world() {
    assert_eq!(value("1.e3"), "error");
    assert_eq!(value("nosuchfunction(1)"), "error");
    // Puppet's own functions that need a catalog stay unknown
    assert_eq!(value("lookup('x')"), "unsupported");
    assert_eq!(value("function e3($x) { $x } 1.e3"), "1");
    // an open evaluator (the language server) cannot know module functions
    let mut ev = super::Evaluator::new(super::Limits::default());
    let out = ev.eval_source("nosuchfunction(1)");
    assert!(out.error.is_none());
}
