//! puppetlabs-stdlib under Puppet 7 and 8: the workspace's stdlib sources
//! decide which stdlib functions exist (else the bundled table of the
//! target's version), stdlib 9's removed functions are unknown with what
//! to use instead, and calls of functions that call `deprecation()` fail
//! under `strict = error`.
//!
//! The workspaces join a test's manifests with abridged copies of real
//! stdlib files (`test_data/stdlib/`, whose README records what Puppet 8.10
//! and 7.23 answered for these calls).

use puppet_analysis::host::{parse_fixture, render_diagnostic, AnalysisHost};
use puppet_analysis::stdlib::StdlibSource;
use puppet_analysis::target::{PuppetVersion, Strict, Target};
use std::path::Path;

const STDLIB8: &str = include_str!("../test_data/stdlib/stdlib8.fixture");
const STDLIB9: &str = include_str!("../test_data/stdlib/stdlib9.fixture");

/// A module `stdlib` with no Ruby sources: the bundled table stands for it.
const STDLIB_WITHOUT_SOURCES: &str = "#- /ws/modules/stdlib/manifests/init.pp\nclass stdlib {}\n";

fn host(stdlib: &str, manifests: &str, target: Target) -> AnalysisHost {
    let mut files = parse_fixture(stdlib);
    files.extend(parse_fixture(manifests));
    let mut host = AnalysisHost::from_files(files);
    host.set_target(target, "the test");
    host
}

/// The diagnostics of the test's manifests (`.pp` outside stdlib) as
/// `path:line severity [code] `text` message`.
fn check(stdlib: &str, manifests: &str, target: Target) -> String {
    let host = host(stdlib, manifests, target);
    let mut out = String::new();
    for path in host.paths().map(Path::to_path_buf).collect::<Vec<_>>() {
        if path.starts_with("/ws/modules/stdlib") {
            continue;
        }
        let text = host.text(&path).unwrap();
        for d in host.diagnostics(&path) {
            out.push_str(&render_diagnostic(&path, &text, &d));
        }
    }
    out
}

fn puppet8() -> Target {
    Target::of(PuppetVersion::V8)
}

fn puppet7() -> Target {
    Target::of(PuppetVersion::V7)
}

fn with_strict(version: PuppetVersion, strict: Strict) -> Target {
    Target {
        strict,
        ..Target::of(version)
    }
}

const REMOVED_CALLS: &str = r#"
#- /ws/modules/app/manifests/init.pp
class app(Hash $h, String $s) {
  if has_key($h, 'k') { notice('k') }
  notice(is_string($s))
  validate_re($s, '^a')
  notice(dig44($h, ['a', 'b']))
  notice(pick($s, 'default'))
}
"#;

#[test]
fn stdlib9_sources_under_puppet8_do_not_know_removed_functions() {
    let out = check(STDLIB9, REMOVED_CALLS, puppet8());
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:2 error [unknown-function] `has_key` unknown function 'has_key': the workspace's puppetlabs-stdlib does not define it (stdlib 9 removed it); use the `in` operator (`'key' in $hash`) instead
        /ws/modules/app/manifests/init.pp:3 error [unknown-function] `is_string` unknown function 'is_string': the workspace's puppetlabs-stdlib does not define it (stdlib 9 removed it); use a match with a data type (`$x =~ String`) instead
        /ws/modules/app/manifests/init.pp:4 error [unknown-function] `validate_re` unknown function 'validate_re': the workspace's puppetlabs-stdlib does not define it (stdlib 9 removed it); use a typed parameter (`Pattern[/regex/] $x`) or `assert_type(Pattern[/regex/], $x)` instead
        /ws/modules/app/manifests/init.pp:5 error [unknown-function] `dig44` unknown function 'dig44': the workspace's puppetlabs-stdlib does not define it (stdlib 9 removed it); use the core `dig()` (`$data.dig('a', 'b').lest || { $default }`) or `getvar('data.a.b', $default)` instead
    "#]]
    .assert_eq(&out);
}

#[test]
fn the_workspace_stdlib_wins_under_puppet7_too() {
    // The bundled table for Puppet 7 is stdlib 8.5's, which has them all;
    // the workspace's stdlib 9 does not.
    let out = check(STDLIB9, REMOVED_CALLS, puppet7());
    assert_eq!(out.matches("[unknown-function]").count(), 4, "{out}");
    assert!(!out.contains("`pick`"), "{out}");
}

const DEPRECATED_CALLS: &str = r#"
#- /ws/modules/app/manifests/init.pp
class app(String $s) {
  notice(is_string($s))
  validate_string($s)
  notice(is_integer($s))
  notice(has_key({}, 'k'))
  validate_legacy(String, 'validate_string', $s)
}
"#;

#[test]
fn stdlib8_deprecations_fail_under_puppet8() {
    // `is_integer` is a 3.x function only: stdlib 8.5's 3.x `deprecation`
    // is silent. `validate_legacy` deprecates only some values in 8.5.
    let out = check(STDLIB8, DEPRECATED_CALLS, puppet8());
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:2 error [deprecated-function] `is_string` deprecation. is_string. This method is deprecated, please use match expressions with Stdlib::Compat::String instead. They are described at https://docs.puppet.com/puppet/latest/reference/lang_data_type.html#match-expressions.
        /ws/modules/app/manifests/init.pp:3 error [deprecated-function] `validate_string` deprecation. validate_string. This method is deprecated, please use the stdlib validate_legacy function, with Stdlib::Compat::String. There is further documentation for validate_legacy function in the README.
    "#]]
    .assert_eq(&out);
}

/// Puppet 7's deprecation warnings are its run-time log: checking for
/// Puppet 7 reports them only where they fail (`strict = error`); Puppet 8
/// with `strict = warning` warns.
#[test]
fn stdlib8_deprecations_under_puppet7_and_strict_warning() {
    assert_eq!(check(STDLIB8, DEPRECATED_CALLS, puppet7()), "");
    let mut seven_strict = puppet7();
    seven_strict.strict = Strict::Error;
    assert_eq!(
        check(STDLIB8, DEPRECATED_CALLS, seven_strict)
            .matches(" error [deprecated-function]")
            .count(),
        2
    );
    let mut eight_warning = puppet8();
    eight_warning.strict = Strict::Warning;
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:2 warning [deprecated-function] `is_string` function 'is_string' is deprecated: This method is deprecated, please use match expressions with Stdlib::Compat::String instead. They are described at https://docs.puppet.com/puppet/latest/reference/lang_data_type.html#match-expressions. (an error under strict = error, Puppet 8's default)
        /ws/modules/app/manifests/init.pp:3 warning [deprecated-function] `validate_string` function 'validate_string' is deprecated: This method is deprecated, please use the stdlib validate_legacy function, with Stdlib::Compat::String. There is further documentation for validate_legacy function in the README. (an error under strict = error, Puppet 8's default)
    "#]]
    .assert_eq(&check(STDLIB8, DEPRECATED_CALLS, eight_warning));
}

#[test]
fn deprecations_are_silent_under_strict_off() {
    let out = check(
        STDLIB8,
        DEPRECATED_CALLS,
        with_strict(PuppetVersion::V8, Strict::Off),
    );
    assert_eq!(out, "");
    // Puppet 8 with `strict = warning`: warnings, as Puppet 7's default.
    let out = check(
        STDLIB8,
        DEPRECATED_CALLS,
        with_strict(PuppetVersion::V8, Strict::Warning),
    );
    assert_eq!(
        out.matches("warning [deprecated-function]").count(),
        2,
        "{out}"
    );
    assert!(!out.contains(" error ["), "{out}");
}

const STDLIB9_CALLS: &str = r#"
#- /ws/modules/app/manifests/init.pp
class app(String $s) {
  validate_legacy(String, 'validate_string', $s)
  notice(to_json([1]))
  notice(stdlib::to_json([1]))
  notice([1].to_json)
  deprecation('app_s', 'app: $s is deprecated')
  deprecation('app_t', 'app: $t is deprecated', false)
  deprecation('app_u', "app: ${s} is deprecated")
}
"#;

#[test]
fn stdlib9_validate_legacy_fails_and_forwarders_only_warn() {
    let out = check(STDLIB9, STDLIB9_CALLS, puppet8());
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:2 error [deprecated-function] `validate_legacy` deprecation. validate_legacy. This method is deprecated, please use Puppet data types to validate parameters
        /ws/modules/app/manifests/init.pp:3 warning [deprecated-function] `to_json` function 'to_json' is deprecated: This function is deprecated, please use stdlib::to_json instead.
        /ws/modules/app/manifests/init.pp:5 warning [deprecated-function] `to_json` function 'to_json' is deprecated: This function is deprecated, please use stdlib::to_json instead.
        /ws/modules/app/manifests/init.pp:6 error [deprecated-function] `deprecation` deprecation. app_s. app: $s is deprecated
        /ws/modules/app/manifests/init.pp:7 warning [deprecated-function] `deprecation` deprecation('app_t'): app: $t is deprecated
        /ws/modules/app/manifests/init.pp:8 error [deprecated-function] `deprecation` deprecation('app_u'): deprecation() fails under strict = error
    "#]]
    .assert_eq(&out);
    // Puppet logs the forwarders' warning whatever `strict` is.
    let off = check(
        STDLIB9,
        STDLIB9_CALLS,
        with_strict(PuppetVersion::V8, Strict::Off),
    );
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:3 warning [deprecated-function] `to_json` function 'to_json' is deprecated: This function is deprecated, please use stdlib::to_json instead.
        /ws/modules/app/manifests/init.pp:5 warning [deprecated-function] `to_json` function 'to_json' is deprecated: This function is deprecated, please use stdlib::to_json instead.
        /ws/modules/app/manifests/init.pp:7 warning [deprecated-function] `deprecation` deprecation('app_t'): app: $t is deprecated
    "#]]
    .assert_eq(&off);
}

const TABLE_CALLS: &str = r#"
#- /ws/modules/app/manifests/init.pp
class app(Hash $h) {
  notice(has_key($h, 'k'))
  notice(stdlib::to_json($h))
  notice(is_string('x'))
}
"#;

#[test]
fn without_sources_the_bundled_table_of_the_version_stands_for_stdlib() {
    let host = host(STDLIB_WITHOUT_SOURCES, TABLE_CALLS, puppet8());
    assert_eq!(host.analysis().stdlib().source, StdlibSource::Bundled);
    // Puppet 8: stdlib 9.4.1's table.
    let out = check(STDLIB_WITHOUT_SOURCES, TABLE_CALLS, puppet8());
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:2 warning [unknown-function] `has_key` unknown function 'has_key': puppetlabs-stdlib 9 removed it; use the `in` operator (`'key' in $hash`) instead
        /ws/modules/app/manifests/init.pp:4 warning [unknown-function] `is_string` unknown function 'is_string': puppetlabs-stdlib 9 removed it; use a match with a data type (`$x =~ String`) instead
    "#]]
    .assert_eq(&out);
    // Puppet 7: stdlib 8.5's, which has no `stdlib::to_json` yet.
    let out = check(STDLIB_WITHOUT_SOURCES, TABLE_CALLS, puppet7());
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:3 error [unknown-function] `stdlib::to_json` unknown function 'stdlib::to_json': module 'stdlib' does not define it
    "#]]
    .assert_eq(&out);
}

#[test]
fn without_stdlib_removed_functions_still_say_what_replaces_them() {
    let out = check("", TABLE_CALLS, puppet8());
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:2 warning [unknown-function] `has_key` unknown function 'has_key': no module in the workspace defines it, and puppetlabs-stdlib 9 removed it; use the `in` operator (`'key' in $hash`) instead
        /ws/modules/app/manifests/init.pp:3 warning [unknown-function] `stdlib::to_json` unknown function 'stdlib::to_json': module 'stdlib' is not in the workspace
        /ws/modules/app/manifests/init.pp:4 warning [unknown-function] `is_string` unknown function 'is_string': no module in the workspace defines it, and puppetlabs-stdlib 9 removed it; use a match with a data type (`$x =~ String`) instead
    "#]]
    .assert_eq(&out);
}

#[test]
fn which_stdlib_functions_exist() {
    let sources = host(STDLIB9, "", puppet7());
    let stdlib = sources.analysis().stdlib().clone();
    assert_eq!(stdlib.source, StdlibSource::Sources);
    assert!(stdlib.defines("to_json") && stdlib.defines("stdlib::to_json"));
    assert!(stdlib.defines("pick") && !stdlib.defines("has_key"));
    // The sources' functions are the workspace's Ruby functions, not
    // entries of the bundled table.
    assert!(stdlib.bundled_function("pick").is_none());
    assert!(stdlib.resolve_function("has_key").is_none());
    assert!(stdlib.resolve_function("flatten").is_some());
    let bundled = host(STDLIB_WITHOUT_SOURCES, "", puppet7());
    let stdlib = bundled.analysis().stdlib().clone();
    assert!(stdlib.defines("has_key") && stdlib.bundled_function("has_key").is_some());
    assert!(!stdlib.defines("stdlib::to_json"));
    let absent = host("", "", puppet8());
    assert_eq!(absent.analysis().stdlib().source, StdlibSource::Absent);
    assert!(!absent.analysis().stdlib().defines("pick"));
}

#[test]
fn the_target_decides_again_when_it_changes() {
    let mut host = host(STDLIB8, DEPRECATED_CALLS, puppet8());
    let init = Path::new("/ws/modules/app/manifests/init.pp");
    let errors = |host: &AnalysisHost| {
        host.diagnostics(init)
            .iter()
            .filter(|d| d.severity == puppet_syntax::Severity::Error)
            .count()
    };
    assert_eq!(errors(&host), 2);
    host.set_target(puppet7(), "the test");
    assert_eq!(errors(&host), 0);
    assert!(host.diagnostics(init).is_empty());
}
