//! Verdicts that depend on the target Puppet, against the answers of
//! Puppet 7.23 and Puppet 8.10.
//!
//! `test_data/eval_targets.jsonl`: expressions whose evaluation differs
//! between the two (numeric coercion of strings, which `strict = error`
//! makes fail; `max()`/`min()` of SemVer, Timespan and Timestamp values,
//! which Puppet 8 compares as what they are), each line with both
//! Puppets' answers, recorded with the shared evaluation oracle:
//!
//! ```text
//! ruby ../shared/oracle/eval_oracle.rb --extra < cases.jsonl > p7.jsonl
//! ruby -I /opt/puppet8/root/usr/lib/ruby/vendor_ruby \
//!     ../shared/oracle/eval_oracle.rb --extra < cases.jsonl > p8.jsonl
//! jq -c -n --slurpfile a p7.jsonl --slurpfile b p8.jsonl '[$a, $b] | transpose[]
//!   | {id: .[0].id, expr: .[0].expr, puppet7: (.[0] | {value, type, error, warnings}),
//!      puppet8: (.[1] | {value, type, error, warnings})}'
//! ```
//!
//! Each Puppet ran with its own defaults (Puppet 7: `strict = warning`;
//! Puppet 8: `strict = error`). Values Puppet prints as an object dump
//! (`#<Puppet::Pops::Time::Timespan ...>`) are compared through their
//! type, which shows the value. Puppet logs a deprecation once per
//! process, so only the coercion warnings are compared (of cases that do
//! not fail).

use puppet_analysis::eval::record::{eval_case_as, CaseRecord};
use puppet_analysis::host::{parse_fixture, render_diagnostic, AnalysisHost};
use puppet_analysis::target::{PuppetVersion, Strict, Target};
use std::path::Path;

struct Answer {
    value: Option<String>,
    type_: Option<String>,
    error: Option<String>,
    warnings: Vec<String>,
}

fn answer(v: &serde_json::Value) -> Answer {
    let text = |key: &str| v.get(key).and_then(|x| x.as_str()).map(str::to_string);
    Answer {
        value: text("value"),
        type_: text("type"),
        error: text("error"),
        warnings: v
            .get("warnings")
            .and_then(|w| w.as_array())
            .into_iter()
            .flatten()
            .filter_map(|w| w.as_str().map(str::to_string))
            .collect(),
    }
}

/// Why `got` differs from Puppet's `expected`, if it does.
fn difference(expected: &Answer, got: &CaseRecord) -> Option<String> {
    if let Some(unsupported) = &got.unsupported {
        return Some(format!("unsupported: {unsupported}"));
    }
    match (&expected.error, &got.error) {
        (Some(puppet), Some(ours)) if !puppet.contains(ours.as_str()) => {
            return Some(format!("error {ours:?}, Puppet's is {puppet:?}"));
        }
        (Some(_), Some(_)) => {}
        (Some(puppet), None) => return Some(format!("no error, Puppet's is {puppet:?}")),
        (None, Some(ours)) => return Some(format!("error {ours:?}, Puppet has none")),
        (None, None) => {
            let dump = expected
                .value
                .as_deref()
                .is_some_and(|v| v.starts_with("#<"));
            if (!dump && got.value != expected.value) || got.type_ != expected.type_ {
                return Some(format!(
                    "{:?} :: {:?}, Puppet's is {:?} :: {:?}",
                    got.value, got.type_, expected.value, expected.type_
                ));
            }
        }
    }
    // An operation that fails keeps no warning of its own (Puppet 7 logs
    // the left operand's coercion before the right one fails).
    if expected.error.is_some() {
        return None;
    }
    let coercions = |warnings: &[String]| -> Vec<String> {
        warnings
            .iter()
            .filter(|w| w.contains("automatically coerced"))
            .cloned()
            .collect()
    };
    let (want, have) = (coercions(&expected.warnings), coercions(&got.warnings));
    (want != have).then(|| format!("warnings {have:?}, Puppet's are {want:?}"))
}

#[test]
fn evaluation_follows_each_puppet() {
    let path = format!(
        "{}/test_data/eval_targets.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut failures = Vec::new();
    let mut cases = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).expect("valid JSON line");
        let id = case["id"].as_str().expect("id");
        let expr = case["expr"].as_str().expect("expr");
        for (version, key) in [
            (PuppetVersion::V7, "puppet7"),
            (PuppetVersion::V8, "puppet8"),
        ] {
            let got = eval_case_as(expr, Target::of(version));
            if let Some(why) = difference(&answer(&case[key]), &got) {
                failures.push(format!("{id} as Puppet {version}: {expr:?}: {why}"));
            }
            cases += 1;
        }
    }
    assert!(cases > 60, "{cases} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn strict_off_coerces_silently() {
    // Puppet 8 with `strict = off` (p8_setting_string_plus_integer_strict_off
    // in the verdicts' fixtures: compiles without a warning).
    let off = Target {
        strict: Strict::Off,
        ..Target::of(PuppetVersion::V8)
    };
    let got = eval_case_as("'1' + 1", off);
    assert_eq!(got.value.as_deref(), Some("2"));
    assert!(got.warnings.is_empty(), "{:?}", got.warnings);
}

/// Every diagnostic of a fixture checked for `target`, as
/// `path:line severity [code] `snippet` message`; only the given codes
/// when some are given.
fn check_as(fixture: &str, target: Target, codes: &[&str]) -> String {
    let mut host = AnalysisHost::from_files(parse_fixture(fixture));
    host.set_target(target, "test");
    render(&host, codes)
}

fn render(host: &AnalysisHost, codes: &[&str]) -> String {
    let mut out = String::new();
    for path in host.paths().map(Path::to_path_buf).collect::<Vec<_>>() {
        let text = host.text(&path).unwrap();
        for d in host.diagnostics(&path) {
            if !codes.is_empty() && !codes.contains(&d.code.as_str()) {
                continue;
            }
            out.push_str(&render_diagnostic(&path, &text, &d));
        }
    }
    out
}

fn puppet7() -> Target {
    Target::of(PuppetVersion::V7)
}

fn puppet8() -> Target {
    Target::of(PuppetVersion::V8)
}

/// Puppet 8 (fixtures p8_string_plus_integer, p8_string_times_integer of
/// the verdicts): "Evaluation Error: The string '1' was automatically
/// coerced to the numerical value 1"; Puppet 7 warns with the same words.
#[test]
fn numeric_coercion_warns_under_7_and_fails_under_8() {
    let fixture = r#"
#- /ws/modules/m/manifests/init.pp
class m {
  $sum = "1" + 1
  $product = '2' * 3
  $second = [1, 2]['1']
  $negative = -'1.5'
  $fine = 1 + 2
  $both = '1' + 'x'
}
"#;
    let codes = ["numeric-coercion", "evaluation-error"];
    expect_test::expect![[r#"
        /ws/modules/m/manifests/init.pp:2 warning [numeric-coercion] `"1" + 1` The string '1' was automatically coerced to the numerical value 1: deprecated, and an error under strict = error (Puppet 8's default); convert it first (Integer(), Float(), Numeric())
        /ws/modules/m/manifests/init.pp:3 warning [numeric-coercion] `'2' * 3` The string '2' was automatically coerced to the numerical value 2: deprecated, and an error under strict = error (Puppet 8's default); convert it first (Integer(), Float(), Numeric())
        /ws/modules/m/manifests/init.pp:4 warning [numeric-coercion] `[1, 2]['1']` The string '1' was automatically coerced to the numerical value 1: deprecated, and an error under strict = error (Puppet 8's default); convert it first (Integer(), Float(), Numeric())
        /ws/modules/m/manifests/init.pp:5 warning [numeric-coercion] `-'1.5'` The string '1.5' was automatically coerced to the numerical value 1.5: deprecated, and an error under strict = error (Puppet 8's default); convert it first (Integer(), Float(), Numeric())
        /ws/modules/m/manifests/init.pp:7 error [evaluation-error] `'1' + 'x'` The value 'x' cannot be converted to Numeric.
    "#]]
    .assert_eq(&check_as(fixture, puppet7(), &codes));
    expect_test::expect![[r#"
        /ws/modules/m/manifests/init.pp:2 error [numeric-coercion] `"1" + 1` The string '1' was automatically coerced to the numerical value 1: Puppet 8 fails on a string used as a number (strict = error); convert it first (Integer(), Float(), Numeric())
        /ws/modules/m/manifests/init.pp:3 error [numeric-coercion] `'2' * 3` The string '2' was automatically coerced to the numerical value 2: Puppet 8 fails on a string used as a number (strict = error); convert it first (Integer(), Float(), Numeric())
        /ws/modules/m/manifests/init.pp:4 error [numeric-coercion] `[1, 2]['1']` The string '1' was automatically coerced to the numerical value 1: Puppet 8 fails on a string used as a number (strict = error); convert it first (Integer(), Float(), Numeric())
        /ws/modules/m/manifests/init.pp:5 error [numeric-coercion] `-'1.5'` The string '1.5' was automatically coerced to the numerical value 1.5: Puppet 8 fails on a string used as a number (strict = error); convert it first (Integer(), Float(), Numeric())
        /ws/modules/m/manifests/init.pp:7 error [numeric-coercion] `'1' + 'x'` The string '1' was automatically coerced to the numerical value 1: Puppet 8 fails on a string used as a number (strict = error); convert it first (Integer(), Float(), Numeric())
    "#]]
    .assert_eq(&check_as(fixture, puppet8(), &codes));
    let off = Target {
        strict: Strict::Off,
        ..puppet8()
    };
    expect_test::expect![[r#"
        /ws/modules/m/manifests/init.pp:7 error [evaluation-error] `'1' + 'x'` The value 'x' cannot be converted to Numeric.
    "#]]
    .assert_eq(&check_as(fixture, off, &codes));
}

/// `puppet parser validate`: Puppet 7 warns "The key 'a' is declared more
/// than once" and exits 0; Puppet 8 reports it as an error and exits 1
/// (p8_duplicate_hash_key in the verdicts' fixtures); `strict = off`
/// ignores it. The quick syntax pass agrees with the full analysis.
#[test]
fn duplicate_keys_fail_validation_under_strict_error() {
    let fixture = r#"
#- /ws/modules/m/manifests/init.pp
class m {
  $h = { a => 1, a => 2, 'b' => 1, "b" => 3 }
}
"#;
    let codes = ["duplicate-key"];
    expect_test::expect![[r#"
        /ws/modules/m/manifests/init.pp:2 warning [duplicate-key] `a => 2` the key 'a' is declared more than once in this hash
        /ws/modules/m/manifests/init.pp:2 warning [duplicate-key] `"b" => 3` the key 'b' is declared more than once in this hash
    "#]]
    .assert_eq(&check_as(fixture, puppet7(), &codes));
    expect_test::expect![[r#"
        /ws/modules/m/manifests/init.pp:2 error [duplicate-key] `a => 2` the key 'a' is declared more than once in this hash: Puppet 8 fails on it (strict = error), already at `puppet parser validate`
        /ws/modules/m/manifests/init.pp:2 error [duplicate-key] `"b" => 3` the key 'b' is declared more than once in this hash: Puppet 8 fails on it (strict = error), already at `puppet parser validate`
    "#]]
    .assert_eq(&check_as(fixture, puppet8(), &codes));
    let off = Target {
        strict: Strict::Off,
        ..puppet7()
    };
    assert_eq!(check_as(fixture, off, &codes), "");
    for target in [puppet7(), puppet8(), off] {
        let mut host = AnalysisHost::from_files(parse_fixture(fixture));
        host.set_target(target, "test");
        let path = Path::new("/ws/modules/m/manifests/init.pp");
        let quick = host.analysis().syntax_diagnostics(path).unwrap();
        let full: Vec<_> = host
            .diagnostics(path)
            .into_iter()
            .filter(|d| d.code.as_str() == "duplicate-key")
            .collect();
        assert_eq!(quick, full, "{target}");
    }
}

/// [`check_as`] on a workspace discovered under `/ws` (modules,
/// `metadata.json`, Hiera).
fn discover_as(fixture: &str, target: Target, codes: &[&str]) -> String {
    let mut host = AnalysisHost::discover_fixture("/ws", fixture);
    host.set_target(target, "test");
    render(&host, codes)
}

/// A `metadata.json` that does not parse. Puppet 7 warns "web has an
/// invalid and unparsable metadata.json file. The parse error: ..." and
/// loads the module; Puppet 8 logs the same as an error and refuses the
/// module: `include web` fails with "Could not find class ::web", a
/// manifest that does not use it compiles, and `puppet8 parser validate`
/// logs the error but exits 0 (p8_metadata_invalid_json_used_module and
/// _unused_module in the verdicts' fixtures).
#[test]
fn unparsable_metadata_refuses_the_module_under_strict_error() {
    let fixture = r#"
#- /ws/manifests/site.pp
include web
#- /ws/modules/web/manifests/init.pp
class web { }
#- /ws/modules/web/metadata.json
{ "name": "me-web",
"#;
    let codes = ["metadata-syntax"];
    expect_test::expect![[r#"
        /ws/modules/web/metadata.json:2 warning [metadata-syntax] `` not valid JSON (EOF while parsing a value at line 2 column 0): Puppet ignores this metadata.json, and the Forge, `puppet module` and the PDK refuse it
    "#]]
    .assert_eq(&discover_as(fixture, puppet7(), &codes));
    expect_test::expect![[r#"
        /ws/modules/web/metadata.json:2 warning [metadata-syntax] `` not valid JSON (EOF while parsing a value at line 2 column 0): Puppet 8 refuses the module (strict = error: 'web has an invalid and unparsable metadata.json file'), so every use of its classes, defined types and functions fails; the Forge, `puppet module` and the PDK refuse it too
    "#]]
    .assert_eq(&discover_as(fixture, puppet8(), &codes));
}

/// `puppet8 parser validate` (and compilation) warns, exit status 0, for
/// exactly these parameters of the class (Puppet's `LiteralEvaluator`:
/// keys of an access must be literals, the left side is not looked at, a
/// single key may not be a list); Puppet 7 says nothing; defined types and
/// functions are not checked (p8_parameter_type_expression in the
/// verdicts' fixtures).
#[test]
fn non_literal_class_parameter_types_warn_under_8() {
    let fixture = r#"
#- /ws/modules/m/manifests/init.pp
class m (
  Integer[0, 60*24] $minutes = 5,
  Optional[[String]] $o = undef,
  Integer[-1, 5] $neg = 1,
  Enum["a", 'b', c] $e = 'a',
  Variant[Integer, Pattern[/x/]] $v = 1,
  Hash[String, Array[String]] $h = {},
  String $s = '',
  Struct[{a => Integer, Optional[b] => String}] $st = {a => 1},
  Integer[0, $facts['x']] $z = 1,
  Integer[(1)] $paren = 1,
  Variant[Integer, "${::x}"] $interp = 1,
  Optional[Integer[0, $max]] $nested = 1,
  Integer[-(1)] $negparen = 1,
  Variant[[String], Integer] $list2 = 1,
  Integer[0, f(1)] $call = 1,
  Integer[0, 1 ? { default => 2 }] $sel = 1,
  Integer[-$x] $negvar = 1,
  String[1, default] $dflt = 'x',
) {}
#- /ws/modules/m/manifests/d.pp
define m::d(Integer[0, 60*24] $minutes = 5) {}
#- /ws/modules/m/functions/f.pp
function m::f(Integer[0, 60*24] $minutes) { 1 }
"#;
    let codes = ["non-literal-parameter-type"];
    assert_eq!(check_as(fixture, puppet7(), &codes), "");
    expect_test::expect![[r#"
        /ws/modules/m/manifests/init.pp:2 warning [non-literal-parameter-type] `Integer[0, 60*24]` The parameter '$minutes' must be a literal type, not a Puppet::Pops::Model::AccessExpression: Puppet 8 warns (a deprecation); compute the bound elsewhere or write its value
        /ws/modules/m/manifests/init.pp:3 warning [non-literal-parameter-type] `Optional[[String]]` The parameter '$o' must be a literal type, not a Puppet::Pops::Model::AccessExpression: Puppet 8 warns (a deprecation); compute the bound elsewhere or write its value
        /ws/modules/m/manifests/init.pp:11 warning [non-literal-parameter-type] `Integer[(1)]` The parameter '$paren' must be a literal type, not a Puppet::Pops::Model::AccessExpression: Puppet 8 warns (a deprecation); compute the bound elsewhere or write its value
        /ws/modules/m/manifests/init.pp:12 warning [non-literal-parameter-type] `Variant[Integer, "${::x}"]` The parameter '$interp' must be a literal type, not a Puppet::Pops::Model::AccessExpression: Puppet 8 warns (a deprecation); compute the bound elsewhere or write its value
        /ws/modules/m/manifests/init.pp:13 warning [non-literal-parameter-type] `Optional[Integer[0, $max]]` The parameter '$nested' must be a literal type, not a Puppet::Pops::Model::AccessExpression: Puppet 8 warns (a deprecation); compute the bound elsewhere or write its value
        /ws/modules/m/manifests/init.pp:14 warning [non-literal-parameter-type] `Integer[-(1)]` The parameter '$negparen' must be a literal type, not a Puppet::Pops::Model::AccessExpression: Puppet 8 warns (a deprecation); compute the bound elsewhere or write its value
        /ws/modules/m/manifests/init.pp:16 warning [non-literal-parameter-type] `Integer[0, f(1)]` The parameter '$call' must be a literal type, not a Puppet::Pops::Model::AccessExpression: Puppet 8 warns (a deprecation); compute the bound elsewhere or write its value
        /ws/modules/m/manifests/init.pp:17 warning [non-literal-parameter-type] `Integer[0, 1 ? { default => 2 }]` The parameter '$sel' must be a literal type, not a Puppet::Pops::Model::AccessExpression: Puppet 8 warns (a deprecation); compute the bound elsewhere or write its value
        /ws/modules/m/manifests/init.pp:18 warning [non-literal-parameter-type] `Integer[-$x]` The parameter '$negvar' must be a literal type, not a Puppet::Pops::Model::AccessExpression: Puppet 8 warns (a deprecation); compute the bound elsewhere or write its value
    "#]]
    .assert_eq(&check_as(fixture, puppet8(), &codes));
}

/// A version 3 `hiera.yaml` at the environment's and at a module's root.
/// Puppet 7 warns "hiera.yaml version 3 found at the environment root was
/// ignored" ("... found at module root was ignored") and compiles without
/// the data; Puppet 8 fails with "hiera.yaml version 3 cannot be used in
/// an environment" ("... in a module") at the first lookup
/// (p8_hiera3_environment, p8_hiera3_module).
#[test]
fn hiera_version_3_fails_under_strict_error() {
    let fixture = r#"
#- /ws/hiera.yaml
---
:backends:
  - yaml
:hierarchy:
  - common
#- /ws/data/common.yaml
m::x: 5
#- /ws/manifests/site.pp
include m
#- /ws/modules/m/manifests/init.pp
class m($x = 1) { notice($x) }
#- /ws/modules/m/hiera.yaml
---
:backends:
  - yaml
"#;
    let codes = ["hiera-config"];
    expect_test::expect![[r#"
        /ws/hiera.yaml:2 warning [hiera-config] `:backends:
          - yaml
        :hierarchy:
          - common
        ` hiera.yaml version 3 found at the environment root was ignored: Puppet reads none of its data, with a warning, and fails every lookup under strict = error (Puppet 8's default); convert it to version 5
        /ws/modules/m/hiera.yaml:2 warning [hiera-config] `:backends:
          - yaml
        ` hiera.yaml version 3 found at module root was ignored: Puppet reads none of its data, with a warning, and fails every lookup under strict = error (Puppet 8's default); convert it to version 5
    "#]]
    .assert_eq(&discover_as(fixture, puppet7(), &codes));
    expect_test::expect![[r#"
        /ws/hiera.yaml:2 error [hiera-config] `:backends:
          - yaml
        :hierarchy:
          - common
        ` hiera.yaml version 3 cannot be used in an environment: Puppet 8 fails every lookup (strict = error); convert it to version 5
        /ws/modules/m/hiera.yaml:2 error [hiera-config] `:backends:
          - yaml
        ` hiera.yaml version 3 cannot be used in a module: Puppet 8 fails every lookup (strict = error); convert it to version 5
    "#]]
    .assert_eq(&discover_as(fixture, puppet8(), &codes));
}

/// Data files that are not a hash. `puppet apply` with Puppet 7: a YAML
/// list or a single value warns "PATH: file does not contain a valid yaml
/// hash" and the class takes its default; Puppet 8 fails with that
/// message (p8_hiera_data_list); an empty file only warns in both; a JSON
/// list fails in both ("Value returned from data_hash function
/// 'json_data', when using location '...', has wrong type, expects a Hash
/// value, got Tuple"). A file no level reads never fails.
#[test]
fn hiera_data_that_is_not_a_hash() {
    let fixture = r#"
#- /ws/hiera.yaml
version: 5
hierarchy:
  - name: Common
    path: common.yaml
  - name: Single
    path: single.yaml
  - name: Empty
    path: empty.yaml
  - name: Json
    data_hash: json_data
    path: common.json
#- /ws/data/common.yaml
- a
- b
#- /ws/data/single.yaml
just a string
#- /ws/data/empty.yaml
#- /ws/data/common.json
["a"]
#- /ws/data/unread.yaml
- a
#- /ws/manifests/site.pp
include m
#- /ws/modules/m/manifests/init.pp
class m($x = 1) { notice($x) }
"#;
    let codes = ["hiera-data-not-hash"];
    expect_test::expect![[r#"
        /ws/data/common.json:1 error [hiera-data-not-hash] `["a"` the file is a list, not an object of keys: every lookup that reads it fails (the value of `json_data` must be a hash)
        /ws/data/common.yaml:1 warning [hiera-data-not-hash] `- a
        - b
        ` the file is a list, not a hash of keys: Puppet ignores it with a warning ('file does not contain a valid yaml hash'), and fails every lookup that reads it under strict = error (Puppet 8's default)
        /ws/data/single.yaml:1 warning [hiera-data-not-hash] `just a string` the file is a single value, not a hash of keys: Puppet ignores it with a warning ('file does not contain a valid yaml hash'), and fails every lookup that reads it under strict = error (Puppet 8's default)
        /ws/data/unread.yaml:1 warning [hiera-data-not-hash] `- a
        ` the file is a list, not a hash of keys: Puppet ignores it with a warning ('file does not contain a valid yaml hash'), and fails every lookup that reads it under strict = error (Puppet 8's default)
    "#]]
    .assert_eq(&discover_as(fixture, puppet7(), &codes));
    expect_test::expect![[r#"
        /ws/data/common.json:1 error [hiera-data-not-hash] `["a"` the file is a list, not an object of keys: every lookup that reads it fails (the value of `json_data` must be a hash)
        /ws/data/common.yaml:1 error [hiera-data-not-hash] `- a
        - b
        ` the file is a list, not a hash of keys: Puppet 8 fails every lookup that reads it (strict = error: 'file does not contain a valid yaml hash')
        /ws/data/single.yaml:1 error [hiera-data-not-hash] `just a string` the file is a single value, not a hash of keys: Puppet 8 fails every lookup that reads it (strict = error: 'file does not contain a valid yaml hash')
        /ws/data/unread.yaml:1 warning [hiera-data-not-hash] `- a
        ` the file is a list, not a hash of keys: Puppet 8 fails every lookup that reads it (strict = error: 'file does not contain a valid yaml hash')
    "#]]
    .assert_eq(&discover_as(fixture, puppet8(), &codes));
}

/// Variables Hiera interpolates. `puppet apply` of the same environment
/// on a Debian node (Puppet 7.23 with its defaults, Puppet 8.10 with its
/// own): `lookup('m::u', undef, undef, 'dflt')` of `"x%{some_unknown}y"`
/// warns "Undefined variable 'some_unknown'; " and gives "xy" under 7,
/// fails with "Undefined variable 'some_unknown'; " under 8 (also with
/// strict_variables = false; with strict = warning Puppet 8 warns: Hiera
/// follows `strict`). Legacy facts: Puppet 8 fails `lookup('m::t')` of
/// `"x%{::osfamily}y"` ("Undefined variable '::osfamily'; "), gives "xy"
/// for `"x%{facts.osfamily}y"`; in hierarchy paths `%{::osfamily}` and
/// `%{osfamily}` warn "Interpolation failed with '::osfamily', but
/// compilation continuing; " and `%{facts.osfamily}` is silently empty:
/// the levels find nothing (the class gets its common values), where
/// Puppet 7 finds `os/Debian.yaml` for all three. `%{m::nope}` (a class
/// of the workspace without that variable) fails under 8 ("Undefined
/// variable '::m::nope'; "); `m::known`, looked up in class `m`, is
/// found by both (its class's variables, a top-scope variable, the
/// compiler's, facts and trusted facts). A variable of some class of the
/// workspace (`%{role}`) is taken as known wherever it is looked up from.
/// Automatic parameter lookup fails as `lookup()` does
/// (p8_unknown_var_hiera_parameter: "Undefined variable 'some_unknown'").
#[test]
fn hiera_interpolation_of_unknown_variables_and_legacy_facts() {
    let fixture = r#"
#- /ws/hiera.yaml
version: 5
hierarchy:
  - name: Facts
    path: "os/%{facts.osfamily}.yaml"
  - name: Top
    path: "os2/%{::osfamily}.yaml"
  - name: Bare
    path: "os3/%{osfamily}.yaml"
  - name: Structured
    path: "os4/%{facts.os.family}/%{trusted.certname}.yaml"
  - name: Custom
    path: "roles/%{role}.yaml"
  - name: Common
    path: common.yaml
#- /ws/data/os/Debian.yaml
m::a: from-os
#- /ws/data/common.yaml
m::a: common
m::u: "x%{some_unknown}y"
m::f: "x%{facts.osfamily}y"
m::t: "x%{::osfamily}y"
m::o: "x%{scope('osfamily')}y"
m::known: "%{role} %{m::local} %{::environment} %{facts.os.family} %{trusted.certname} %{site_wide}"
m::qualified: "%{m::nope} %{elsewhere::x}"
unread: "%{some_unknown}"
m2::p: "%{some_unknown}"
#- /ws/manifests/site.pp
$site_wide = 1
include m
include m2
notice(lookup('m::u', undef, undef, 'dflt'))
notice(lookup('m::f'))
notice(lookup('m::t'))
notice(lookup('m::o'))
notice(lookup('m::qualified'))
#- /ws/modules/m/manifests/init.pp
class m($a) {
  $local = 1
  $role = 'web'
  notice($a)
  notice(lookup('m::known'))
}
#- /ws/modules/m2/manifests/init.pp
class m2($p) { }
"#;
    let codes = ["hiera-interpolation", "legacy-fact"];
    expect_test::expect![[r#"
        /ws/data/common.yaml:2 warning [hiera-interpolation] `%{some_unknown}` variable 'some_unknown' is set nowhere in the workspace (no top-scope, node or class variable, no fact): it interpolates an empty string, with a warning (Undefined variable 'some_unknown'); under strict = error (Puppet 8's default) the lookup of 'm::u' fails
        /ws/data/common.yaml:7 warning [hiera-interpolation] `%{m::nope}` class 'm' has no parameter or variable 'nope': it interpolates an empty string, with a warning (Undefined variable 'm::nope'); under strict = error (Puppet 8's default) the lookup of 'm::qualified' fails
        /ws/data/common.yaml:8 warning [hiera-interpolation] `%{some_unknown}` variable 'some_unknown' is set nowhere in the workspace (no top-scope, node or class variable, no fact): it interpolates an empty string, with a warning (Undefined variable 'some_unknown'); under strict = error (Puppet 8's default) the lookup of 'unread' fails
        /ws/data/common.yaml:9 warning [hiera-interpolation] `%{some_unknown}` variable 'some_unknown' is set nowhere in the workspace (no top-scope, node or class variable, no fact): it interpolates an empty string, with a warning (Undefined variable 'some_unknown'); under strict = error (Puppet 8's default) the lookup of 'm2::p' fails
    "#]]
    .assert_eq(&discover_as(fixture, puppet7(), &codes));
    expect_test::expect![[r#"
        /ws/data/common.yaml:2 error [hiera-interpolation] `%{some_unknown}` variable 'some_unknown' is set nowhere in the workspace (no top-scope, node or class variable, no fact): Puppet 8 fails the lookup of 'm::u' (strict = error: Undefined variable 'some_unknown'), even a lookup() with a default
        /ws/data/common.yaml:3 warning [legacy-fact] `%{facts.osfamily}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives: `%{facts.osfamily}` interpolates an empty string; use %{facts.os.family}
        /ws/data/common.yaml:4 error [legacy-fact] `%{::osfamily}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives (use %{facts.os.family}): Puppet 8 fails the lookup of 'm::t' (strict = error: Undefined variable '::osfamily'), even a lookup() with a default
        /ws/data/common.yaml:5 error [legacy-fact] `%{scope('osfamily')}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives (use %{facts.os.family}): Puppet 8 fails the lookup of 'm::o' (strict = error: Undefined variable 'osfamily'), even a lookup() with a default
        /ws/data/common.yaml:7 error [hiera-interpolation] `%{m::nope}` class 'm' has no parameter or variable 'nope': Puppet 8 fails the lookup of 'm::qualified' (strict = error: Undefined variable 'm::nope'), even a lookup() with a default
        /ws/data/common.yaml:8 warning [hiera-interpolation] `%{some_unknown}` variable 'some_unknown' is set nowhere in the workspace (no top-scope, node or class variable, no fact): Puppet 8 fails any lookup of 'unread' (strict = error: Undefined variable 'some_unknown'); no code of the workspace looks it up
        /ws/data/common.yaml:9 error [hiera-interpolation] `%{some_unknown}` variable 'some_unknown' is set nowhere in the workspace (no top-scope, node or class variable, no fact): Puppet 8 fails the lookup of 'm2::p' (strict = error: Undefined variable 'some_unknown'), even a lookup() with a default
        /ws/hiera.yaml:4 warning [legacy-fact] `%{facts.osfamily}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives: `%{facts.osfamily}` interpolates an empty string, so level 'Facts' never finds the node's data; use %{facts.os.family}
        /ws/hiera.yaml:6 warning [legacy-fact] `%{::osfamily}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives: `%{::osfamily}` interpolates an empty string, so level 'Top' never finds the node's data; use %{facts.os.family}
        /ws/hiera.yaml:8 warning [legacy-fact] `%{osfamily}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives: `%{osfamily}` interpolates an empty string, so level 'Bare' never finds the node's data; use %{facts.os.family}
    "#]]
    .assert_eq(&discover_as(fixture, puppet8(), &codes));
    let warning = Target {
        strict: Strict::Warning,
        ..puppet8()
    };
    expect_test::expect![[r#"
        /ws/data/common.yaml:2 warning [hiera-interpolation] `%{some_unknown}` variable 'some_unknown' is set nowhere in the workspace (no top-scope, node or class variable, no fact): it interpolates an empty string, with a warning (Undefined variable 'some_unknown'); under strict = error (Puppet 8's default) the lookup of 'm::u' fails
        /ws/data/common.yaml:3 warning [legacy-fact] `%{facts.osfamily}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives: `%{facts.osfamily}` interpolates an empty string; use %{facts.os.family}
        /ws/data/common.yaml:4 warning [legacy-fact] `%{::osfamily}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives (use %{facts.os.family}): it interpolates an empty string, with a warning (Undefined variable '::osfamily'); under strict = error (Puppet 8's default) the lookup of 'm::t' fails
        /ws/data/common.yaml:5 warning [legacy-fact] `%{scope('osfamily')}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives (use %{facts.os.family}): it interpolates an empty string, with a warning (Undefined variable 'osfamily'); under strict = error (Puppet 8's default) the lookup of 'm::o' fails
        /ws/data/common.yaml:7 warning [hiera-interpolation] `%{m::nope}` class 'm' has no parameter or variable 'nope': it interpolates an empty string, with a warning (Undefined variable 'm::nope'); under strict = error (Puppet 8's default) the lookup of 'm::qualified' fails
        /ws/data/common.yaml:8 warning [hiera-interpolation] `%{some_unknown}` variable 'some_unknown' is set nowhere in the workspace (no top-scope, node or class variable, no fact): it interpolates an empty string, with a warning (Undefined variable 'some_unknown'); under strict = error (Puppet 8's default) the lookup of 'unread' fails
        /ws/data/common.yaml:9 warning [hiera-interpolation] `%{some_unknown}` variable 'some_unknown' is set nowhere in the workspace (no top-scope, node or class variable, no fact): it interpolates an empty string, with a warning (Undefined variable 'some_unknown'); under strict = error (Puppet 8's default) the lookup of 'm2::p' fails
        /ws/hiera.yaml:4 warning [legacy-fact] `%{facts.osfamily}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives: `%{facts.osfamily}` interpolates an empty string, so level 'Facts' never finds the node's data; use %{facts.os.family}
        /ws/hiera.yaml:6 warning [legacy-fact] `%{::osfamily}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives: `%{::osfamily}` interpolates an empty string, so level 'Top' never finds the node's data; use %{facts.os.family}
        /ws/hiera.yaml:8 warning [legacy-fact] `%{osfamily}` 'osfamily' is a legacy fact, which Puppet 8 no longer receives: `%{osfamily}` interpolates an empty string, so level 'Bare' never finds the node's data; use %{facts.os.family}
    "#]]
    .assert_eq(&discover_as(fixture, warning, &codes));
}
