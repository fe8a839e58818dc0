//! Inlay hints and quick fixes: fixtures with the expected hints and the
//! text after applying each fix.

mod common;

use common::fixture;
use expect_test::expect;
use puppet_syntax::{TextRange, TextSize};

fn whole(text: &str) -> TextRange {
    TextRange::new(TextSize::from(0), TextSize::from(text.len() as u32))
}

/// Applies a fix's edits (one file) to the text.
fn apply(text: &str, edits: &[puppet_ide::TextEdit]) -> String {
    let mut out = text.to_string();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| std::cmp::Reverse(e.range.start()));
    for e in edits {
        out.replace_range(
            usize::from(e.range.start())..usize::from(e.range.end()),
            &e.new_text,
        );
    }
    out
}

#[test]
fn inlay_hints_show_inferred_types_and_parameter_names() {
    let f = fixture(
        "#- /t/functions/f.pp\nfunction t::f(Integer $a, Integer $b) { $a + $b }\n#- /t/manifests/init.pp\n$0class t (String $typed, $untyped = 1) {\n  $port = 8000 + 80\n  $parts = split('a,b', ',')\n  $sum = t::f(1, $port)\n  [1, 2].each |$i| { notice($i) }\n}\n",
    );
    let text = &f.texts[&f.position.path];
    let hints = puppet_ide::snapshot(&f.host)
        .inlay_hints(&f.position.path, whole(text))
        .unwrap();
    let rendered: Vec<String> = hints
        .iter()
        .map(|h| format!("{}:{:?}", usize::from(h.offset), h.label))
        .collect();
    expect![[r#"
        [
            "47:\": Integer[8080, 8080]\"",
            "68:\": Array[Enum['a', 'b'], 2, 2]\"",
            "95:\": Integer[8081, 8081]\"",
            "103:\"a:\"",
            "106:\"b:\"",
            "130:\": Integer[1, 2]\"",
        ]
    "#]]
    .assert_debug_eq(&rendered);
    // The written type of `$typed` needs no hint; `$untyped` is Any.
    assert!(!hints
        .iter()
        .any(|h| h.label.contains("String") && h.offset < TextSize::from(30)));
}

fn fixes(text: &str) -> Vec<(String, String)> {
    let f = fixture(&format!("#- /t/modules/t/manifests/init.pp\n$0{text}"));
    let path = f.position.path.clone();
    let fixes = puppet_ide::snapshot(&f.host)
        .quick_fixes(&path, whole(text))
        .unwrap();
    fixes
        .iter()
        .map(|fix| (fix.title.clone(), apply(text, &fix.change.edits[&path])))
        .collect()
}

#[test]
fn did_you_mean_replaces_the_name() {
    let out = fixes("class t {\n  service { 'x': ensure => runing }\n}\n");
    expect![[r#"
        [
            (
                "Change to 'running'",
                "class t {\n  service { 'x': ensure => running }\n}\n",
            ),
        ]
    "#]]
    .assert_debug_eq(&out);
    let out = fixes("class t {\n  file { '/x': ensur => present }\n}\n");
    assert_eq!(
        out[0].1,
        "class t {\n  file { '/x': ensure => present }\n}\n"
    );
}

#[test]
fn unused_variable_is_removed_with_its_line() {
    let out = fixes("define t::d {\n  $unused = 1\n  notice('x')\n}\n");
    let removal = out
        .iter()
        .find(|(t, _)| t.starts_with("Remove"))
        .expect("a removal");
    assert_eq!(removal.1, "define t::d {\n  notice('x')\n}\n");
}

#[test]
fn missing_required_parameters_are_added() {
    let out = fixes("define t::site (String $root) {}\nclass t {\n  t::site { 'a': }\n}\n");
    let add = out
        .iter()
        .find(|(t, _)| t.starts_with("Add missing"))
        .expect("an addition");
    assert_eq!(
        add.1,
        "define t::site (String $root) {}\nclass t {\n  t::site { 'a':\n    root => undef, }\n}\n"
    );
}
