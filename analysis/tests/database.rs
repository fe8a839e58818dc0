//! The incremental database: what is recomputed after an edit (proved with
//! the query-execution log), and the workspace diagnostics on fixtures.

use puppet_analysis::host::{parse_fixture, render_diagnostic, AnalysisHost};
use puppet_analysis::target::{PuppetVersion, Target};
use std::path::{Path, PathBuf};

const WORKSPACE: &str = r#"
#- /ws/modules/ntp/manifests/init.pp
class ntp(Array[String] $servers = []) {
  include ntp::config
  $unused = 1
}
#- /ws/modules/ntp/manifests/config.pp
class ntp::config {
  file { '/etc/ntp.conf': ensure => file }
}
#- /ws/modules/web/manifests/init.pp
class web {
  class { 'ntp': servers => ['a'] }
}
#- /ws/modules/other/manifests/init.pp
class other {
  notice('unrelated')
}
"#;

fn host() -> AnalysisHost {
    let host = AnalysisHost::from_files(parse_fixture(WORKSPACE));
    for path in host.paths().map(Path::to_path_buf).collect::<Vec<_>>() {
        assert!(
            host.diagnostics(&path).is_empty(),
            "{}: {:?}",
            path.display(),
            host.diagnostics(&path)
        );
    }
    host.db().log_executions();
    host.db().take_executions();
    host
}

fn all_diagnostics(host: &AnalysisHost) {
    for path in host.paths().map(Path::to_path_buf).collect::<Vec<_>>() {
        host.diagnostics(&path);
    }
}

/// The log entries naming a query, e.g. `parse`, `definition_index`.
fn executed<'a>(log: &'a [String], query: &str) -> Vec<&'a String> {
    log.iter()
        .filter(|entry| entry.starts_with(&format!("{query}(")))
        .collect()
}

#[test]
fn edit_inside_a_body_reanalyses_only_that_file() {
    let mut host = host();
    let init = Path::new("/ws/modules/ntp/manifests/init.pp");
    let text = host
        .text(init)
        .unwrap()
        .replace("$unused = 1", "$unused = 2");
    host.set_file(init, text);
    all_diagnostics(&host);
    let log = host.db().take_executions();
    assert_eq!(executed(&log, "parse").len(), 1, "{log:#?}");
    assert!(
        executed(&log, "definition_index").is_empty(),
        "index rebuilt: {log:#?}"
    );
    assert!(executed(&log, "resolve").is_empty(), "{log:#?}");
    assert_eq!(executed(&log, "file_diagnostics").len(), 1, "{log:#?}");
    // Only the edited item is lowered, typed and checked again.
    assert_eq!(executed(&log, "lowered_item").len(), 1, "{log:#?}");
    assert_eq!(executed(&log, "item_diagnostics").len(), 1, "{log:#?}");
    assert_eq!(executed(&log, "infer_item").len(), 1, "{log:#?}");
}

#[test]
fn signature_change_reanalyses_only_dependents() {
    let mut host = host();
    let init = Path::new("/ws/modules/ntp/manifests/init.pp");
    let text = host.text(init).unwrap().replace(
        "Array[String] $servers = []",
        "Array[String] $servers = [], Boolean $enable = true",
    );
    host.set_file(init, text);
    all_diagnostics(&host);
    let log = host.db().take_executions();
    // The index is rebuilt from signatures; no other file is parsed again.
    assert_eq!(executed(&log, "definition_index").len(), 1, "{log:#?}");
    assert_eq!(executed(&log, "parse").len(), 1, "{log:#?}");
    // Items re-analysed: class ntp itself and class web, which declares
    // it; init.pp's top level, ntp::config and other are not. Web's
    // diagnostics come out equal, so only init.pp's file diagnostics are
    // assembled again.
    assert_eq!(executed(&log, "item_diagnostics").len(), 2, "{log:#?}");
    assert_eq!(executed(&log, "file_diagnostics").len(), 1, "{log:#?}");
}

const MODULES: &str = r#"
#- /ws/modules/app/metadata.json
{"name": "acme-app", "version": "1.0.0", "author": "acme", "summary": "App", "license": "Apache-2.0", "source": "x", "dependencies": [{"name": "acme/base", "version_requirement": ">= 1.0.0 < 2.0.0"}]}
#- /ws/modules/app/manifests/init.pp
class app {
  include base
  $x = 1
  notice($x)
}
#- /ws/modules/app/manifests/extra.pp
class app::extra {
  include base
  include other
}
#- /ws/modules/base/metadata.json
{"name": "acme-base", "version": "1.2.0", "author": "acme", "summary": "Base", "license": "Apache-2.0", "source": "x", "dependencies": []}
#- /ws/modules/base/manifests/init.pp
class base {}
#- /ws/modules/other/manifests/init.pp
class other {}
"#;

#[test]
fn dependency_checks_rerun_only_for_what_changed() {
    let mut host = AnalysisHost::discover_fixture("/ws", MODULES);
    let extra = Path::new("/ws/modules/app/manifests/extra.pp");
    let codes = |host: &AnalysisHost, path: &Path| -> Vec<String> {
        host.diagnostics(path)
            .iter()
            .map(|d| d.code.to_string())
            .collect()
    };
    assert_eq!(codes(&host, extra), ["undeclared-dependency"]);
    all_diagnostics(&host);
    host.db().log_executions();
    host.db().take_executions();
    // A keystroke in one class re-checks that class's references only.
    let init = Path::new("/ws/modules/app/manifests/init.pp");
    let text = host.text(init).unwrap().replace("$x = 1", "$x = 2");
    host.set_file(init, text);
    all_diagnostics(&host);
    let log = host.db().take_executions();
    assert_eq!(
        executed(&log, "undeclared_dependencies").len(),
        1,
        "{log:#?}"
    );
    // Editing metadata.json without changing its dependencies re-checks
    // no code: the declared modules come out equal. (The first edit lowers
    // the file's durability, and salsa does not reuse a result across
    // that: the second edit is the one typing repeats.)
    let metadata = Path::new("/ws/modules/app/metadata.json");
    for summary in ["\"An app\"", "\"The app\""] {
        let text = host.text(metadata).unwrap();
        let text = text
            .replace("\"App\"", summary)
            .replace("\"An app\"", summary);
        host.set_file(metadata, text);
        all_diagnostics(&host);
    }
    let log = host.db().take_executions();
    let log = &log[log
        .iter()
        .rposition(|e| e.starts_with("metadata("))
        .unwrap_or(0)..];
    assert_eq!(executed(log, "metadata").len(), 1, "{log:#?}");
    assert!(
        executed(log, "undeclared_dependencies").is_empty(),
        "{log:#?}"
    );
    // Declaring the module silences the warning.
    let text = host.text(metadata).unwrap().replace(
        "\"dependencies\": [",
        "\"dependencies\": [{\"name\": \"acme/other\"}, ",
    );
    host.set_file(metadata, text);
    assert!(codes(&host, extra).is_empty(), "{:?}", codes(&host, extra));
}

#[test]
fn setting_the_same_text_recomputes_nothing() {
    let mut host = host();
    let init = Path::new("/ws/modules/ntp/manifests/init.pp");
    let text = host.text(init).unwrap().to_string();
    host.set_file(init, text);
    all_diagnostics(&host);
    assert!(host.db().take_executions().is_empty());
}

/// Renders every diagnostic of a fixture as `path:line: severity [code] message`,
/// checked for Puppet 7 (the snapshots are its verdicts).
fn check(fixture: &str) -> String {
    check_as(fixture, Target::of(PuppetVersion::V7))
}

/// [`check`] for the given Puppet.
fn check_as(fixture: &str, target: Target) -> String {
    let mut host = AnalysisHost::from_files(parse_fixture(fixture));
    host.set_target(target, "test");
    let mut out = String::new();
    for path in host.paths().map(Path::to_path_buf).collect::<Vec<_>>() {
        let text = host.text(&path).unwrap();
        for d in host.diagnostics(&path) {
            out.push_str(&render_diagnostic(&path, &text, &d));
        }
    }
    out
}

/// [`check`] of a workspace discovered as from disk under `/ws`, with its
/// environments, and only the diagnostics of `code`.
fn check_discovered(fixture: &str, target: Target, code: &str) -> String {
    let mut host = AnalysisHost::discover_fixture("/ws", fixture);
    host.set_target(target, "test");
    let mut out = String::new();
    for path in host.paths().map(Path::to_path_buf).collect::<Vec<_>>() {
        let text = host.text(&path).unwrap();
        for d in host
            .diagnostics(&path)
            .iter()
            .filter(|d| d.code.as_str() == code)
        {
            out.push_str(&render_diagnostic(&path, &text, d));
        }
    }
    out
}

/// The classes of [`include_like_declarations_need_required_parameters`].
const REQUIRING_CLASSES: &str = r#"
#- /ws/modules/m/manifests/init.pp
class m (String $a, Integer $bound, Optional[String] $o, String $d = 'x') { }
#- /ws/modules/n/manifests/init.pp
class n (String $x) { }
#- /ws/modules/p/manifests/init.pp
class p (String $x) { }
#- /ws/modules/q/manifests/init.pp
class q (String $x) { }
"#;

#[test]
fn include_like_declarations_need_required_parameters() {
    let environment = r#"
#- /ws/hiera.yaml
version: 5
hierarchy:
  - name: Common
    path: common.yaml
#- /ws/data/common.yaml
m::bound: 1
#- /ws/manifests/site.pp
include m, 'n'
include(['::m', 'q'])
contain ::m
require m
include $role
include Class['m']
class { 'n': x => 'y' }
ensure_resource('class', 'p', { 'x' => 'y' })
include p
"#;
    let v7 = Target::of(PuppetVersion::V7);
    let fixture = format!("{environment}{REQUIRING_CLASSES}");
    expect_test::expect![[r#"
        /ws/manifests/site.pp:1 error [missing-required-parameter] `m` class 'm' expects a value for 'a', 'o' (`include` gives none, nothing in the workspace declares it with parameters, and no Hiera data of the workspace binds them)
        /ws/manifests/site.pp:2 error [missing-required-parameter] `'::m'` class 'm' expects a value for 'a', 'o' (`include` gives none, nothing in the workspace declares it with parameters, and no Hiera data of the workspace binds them)
        /ws/manifests/site.pp:2 error [missing-required-parameter] `'q'` class 'q' expects a value for 'x' (`include` gives none, nothing in the workspace declares it with parameters, and no Hiera data of the workspace binds it)
        /ws/manifests/site.pp:3 error [missing-required-parameter] `::m` class 'm' expects a value for 'a', 'o' (`contain` gives none, nothing in the workspace declares it with parameters, and no Hiera data of the workspace binds them)
        /ws/manifests/site.pp:4 error [missing-required-parameter] `m` class 'm' expects a value for 'a', 'o' (`require` gives none, nothing in the workspace declares it with parameters, and no Hiera data of the workspace binds them)
    "#]]
    .assert_eq(&check_discovered(&fixture, v7, "missing-required-parameter"));
    // A resource-like declaration whose class is computed may declare any.
    let computed = format!(
        "{fixture}#- /ws/manifests/roles.pp
class {{ $facts['role']: }}
"
    );
    assert_eq!(
        check_discovered(&computed, v7, "missing-required-parameter"),
        ""
    );
    let created = format!(
        "{fixture}#- /ws/manifests/roles.pp
create_resources('class', $classes)
"
    );
    assert_eq!(
        check_discovered(&created, v7, "missing-required-parameter"),
        ""
    );
    // A module's workspace: the node's data is elsewhere, so a warning,
    // for resource-like declarations too.
    let module = r#"
#- /ws/modules/m/manifests/init.pp
class m (String $a) { }
#- /ws/modules/m/manifests/other.pp
class m::other (String $b) { }
#- /ws/modules/m/manifests/server.pp
class m::server {
  include m
  class { 'm::other': }
}
"#;
    expect_test::expect![[r#"
        /ws/modules/m/manifests/server.pp:2 warning [missing-required-parameter] `m` class 'm' expects a value for 'a' (`include` gives none, nothing in the workspace declares it with parameters, and no Hiera data of the workspace binds it): Puppet fails unless the node's Hiera data, which this workspace does not hold, binds it
        /ws/modules/m/manifests/server.pp:3 warning [missing-required-parameter] `'m::other'` class 'm::other' expects a value for 'b' (no Hiera data of the workspace binds it): Puppet fails unless the node's Hiera data, which this workspace does not hold, binds it
    "#]]
    .assert_eq(&check_discovered(module, v7, "missing-required-parameter"));
}

#[test]
fn unknown_classes_and_types() {
    let out = check(
        r#"
#- /ws/modules/app/manifests/init.pp
class app(App::Port $port, App::Missing $x, Stdlib::Absolutepath $path) inherits app::params {
  include app::missing
  contain app::params
  include stdlib
  class { 'app::nope': }
  require Class['app::params']
  notify { 'x': require => Class['app::gone'] }
}
#- /ws/modules/app/manifests/params.pp
class app::params { }
#- /ws/modules/app/types/port.pp
type App::Port = Integer[1, 65535]
"#,
    );
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:1 error [unknown-type] `App::Missing` unknown type 'App::Missing': module 'app' does not define it
        /ws/modules/app/manifests/init.pp:1 warning [unknown-type] `Stdlib::Absolutepath` unknown type 'Stdlib::Absolutepath': module 'stdlib' is not in the workspace
        /ws/modules/app/manifests/init.pp:2 error [unknown-class] `app::missing` unknown class 'app::missing': module 'app' does not define it
        /ws/modules/app/manifests/init.pp:4 warning [unknown-class] `stdlib` unknown class 'stdlib': module 'stdlib' is not in the workspace
        /ws/modules/app/manifests/init.pp:5 error [unknown-class] `'app::nope'` unknown class 'app::nope': module 'app' does not define it
        /ws/modules/app/manifests/init.pp:7 error [unknown-class] `'app::gone'` unknown class 'app::gone': module 'app' does not define it
    "#]]
    .assert_eq(&out);
}

#[test]
fn definitions_in_the_wrong_file_and_duplicates() {
    let out = check(
        r#"
#- /ws/modules/app/manifests/init.pp
class app { }
class other { }
notice('top level')
#- /ws/modules/app/manifests/server.pp
class app::client { }
#- /ws/modules/app/types/port.pp
type App::Other = Integer
#- /ws/modules/app/functions/helper.pp
function app::helper() { 1 }
#- /ws/site.pp
class app { }
node default { include app }
"#,
    );
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:1 error [duplicate-definition] `app` 'app' is defined more than once (also in /ws/site.pp)
        /ws/modules/app/manifests/init.pp:2 error [definition-location] `other` the class 'other' cannot be autoloaded from this file: this file may only define 'app'
        /ws/modules/app/manifests/init.pp:3 error [top-level-statement-in-module] `notice('top level')` a module's autoloaded file may only contain definitions (class, define, function, type); this statement belongs in a class
        /ws/modules/app/manifests/server.pp:1 error [definition-location] `app::client` the class 'app::client' cannot be autoloaded from this file: this file may only define 'app::server'
        /ws/modules/app/types/port.pp:1 error [definition-location] `App::Other` the type alias 'App::Other' cannot be autoloaded from this file: this file may only define 'app::port'
        /ws/site.pp:1 error [duplicate-definition] `app` 'app' is defined more than once (also in /ws/modules/app/manifests/init.pp)
    "#]]
    .assert_eq(&out);
}

#[test]
fn resources_and_calls_against_builtins_plugins_and_definitions() {
    let out = check(
        r#"
#- /ws/modules/app/manifests/init.pp
class app(String $name_prefix, Optional[String] $extra, Integer $port = 80) {
  servce { 'nginx': ensure => running }
  service { 'nginx': ensure => runing, enable => true, restart_cmd => 'x' }
  file { '/etc/app': ensure => directory, mode => '0644', before => Service['nginx'] }
  app::vhost { 'www': }
  app::vhost { 'api': docroot => '/srv', priority => 10, bogus => 1 }
  app::vhost { 'splat': * => {} }
  ini_setting { 'x': path => '/tmp/x', section => 's', value => 'v', provider => ruby, nope => 1 }
  yumrepo { 'epel': baseurl => 'http://example.com' }
  thirdparty { 'x': }
  $u = upcase('a', 'b')
  $v = sprintf('%s', 'a')
  $w = app::helper(1)
  $x = my_ruby_function()
  $y = lenght('abc')
  $z = [1].each |$i| { $i }
}
#- /ws/modules/app/manifests/vhost.pp
define app::vhost(String $docroot, Integer $priority = 10) { }
#- /ws/modules/app/functions/helper.pp
function app::helper() >> Integer { 1 }
#- /ws/modules/app/manifests/defaults.pp
class app::defaults {
  App::Vhost { docroot => '/var/www' }
  app::vhost { 'defaulted': }
}
#- /ws/modules/inifile/lib/puppet/type/ini_setting.rb
Puppet::Type.newtype(:ini_setting) do
  ensurable
  newparam(:name, :namevar => true)
  newparam :path
  newparam(:section)
  newproperty(:value)
end
#- /ws/modules/app/lib/puppet/functions/my_ruby_function.rb
Puppet::Functions.create_function(:my_ruby_function) do
end
"#,
    );
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:2 error [unknown-resource-type] `servce` unknown resource type 'servce': did you mean 'service'?
        /ws/modules/app/manifests/init.pp:3 warning [invalid-attribute-value] `runing` 'runing' is not a valid value for service's 'ensure': did you mean 'running'?
        /ws/modules/app/manifests/init.pp:3 error [unknown-attribute] `restart_cmd` resource type 'service' has no attribute 'restart_cmd'
        /ws/modules/app/manifests/init.pp:5 error [missing-required-parameter] `'www'` resource type 'app::vhost' expects a value for 'docroot'
        /ws/modules/app/manifests/init.pp:6 error [unknown-attribute] `bogus` resource type 'app::vhost' has no attribute 'bogus'
        /ws/modules/app/manifests/init.pp:8 error [unknown-attribute] `nope` resource type 'ini_setting' has no attribute 'nope': did you mean 'name'?
        /ws/modules/app/manifests/init.pp:10 warning [unknown-resource-type] `thirdparty` unknown resource type 'thirdparty': not a core type, and no module in the workspace defines it
        /ws/modules/app/manifests/init.pp:11 error [wrong-argument-count] `upcase` function 'upcase' does not accept 2 arguments
        /ws/modules/app/manifests/init.pp:13 error [wrong-argument-count] `app::helper` function 'app::helper' expects 0 arguments, got 1
        /ws/modules/app/manifests/init.pp:15 error [unknown-function] `lenght` unknown function 'lenght': did you mean 'length'?
    "#]].assert_eq(&out);
}

/// Bolt loads its own modules (boltlib, ctrl, out, file...) for every plan
/// it runs: a plan's own code may call their functions. Catalog code may
/// not, `apply` blocks of a plan included (they compile on the targets).
#[test]
fn plans_call_bolts_functions() {
    let out = check(
        r#"
#- /ws/modules/app/plans/deploy.pp
plan app::deploy(TargetSpec $targets) {
  $t = get_targets($targets)
  $r = run_task('app::restart', $t, '_catch_errors' => true)
  ctrl::sleep(5)
  out::message(file::join('a', 'b'))
  apply($t) {
    notice(run_command('ls', $t))
  }
  run_tsk('x', $t)
}
#- /ws/modules/app/manifests/init.pp
class app {
  $r = run_task('app::restart', 'localhost')
}
"#,
    );
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:2 warning [unknown-function] `run_task` unknown function 'run_task': a function of Bolt's plans, which catalog code cannot call
        /ws/modules/app/plans/deploy.pp:3 warning [unused-variable] `$r` variable '$r' is assigned but never used
        /ws/modules/app/plans/deploy.pp:7 warning [unknown-function] `run_command` unknown function 'run_command': a function of Bolt's plans, which catalog code cannot call
        /ws/modules/app/plans/deploy.pp:9 warning [unknown-function] `run_tsk` unknown function 'run_tsk': not built in, and no module in the workspace defines it
    "#]]
    .assert_eq(&out);
}

#[test]
fn constant_types_and_values() {
    let out = check(
        r#"
#- /ws/modules/app/manifests/init.pp
class app(
  Integer[3, 1] $bad_range,
  String $name_x = 1,
  Optional[String] $ok = undef,
  Pattern[/\A\d+\Z/] $undecidable = 'x',
  Hash[String, Integer] $h = { 'a' => 1 },
) {
  app::vhost { 'www': port => 'eighty', docroot => '/srv' }
  app::vhost { 'api': port => 8080, docroot => '/srv' }
  $sum = 1 + 'abc'
  $quotient = 10 / 0
  $fine = 1 + 2
  $unknown = $facts['x'] + 1
}
#- /ws/modules/app/manifests/vhost.pp
define app::vhost(Integer[1, 65535] $port, String $docroot) { }
"#,
    );
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:2 error [invalid-type] `Integer[3, 1]` invalid type: 'from' must be less or equal to 'to'. Got (3, 1
        /ws/modules/app/manifests/init.pp:3 warning [default-type-mismatch] `1` parameter '$name_x' expects a value of type String, got 1
        /ws/modules/app/manifests/init.pp:8 error [type-mismatch] `'eighty'` parameter 'port' expects a value of type Integer[1, 65535], got 'eighty'
        /ws/modules/app/manifests/init.pp:10 error [evaluation-error] `1 + 'abc'` The value 'abc' cannot be converted to Numeric.
        /ws/modules/app/manifests/init.pp:11 error [evaluation-error] `10 / 0` Division by 0
    "#]].assert_eq(&out);
}

#[test]
fn an_edit_cancels_analysis_in_flight() {
    // Enough files that a full pass takes a while.
    let files: Vec<(std::path::PathBuf, String)> = (0..400)
        .map(|i| {
            let text = format!(
                "class m{i}::c(Integer $p = {i}) {{\n  include m{i}::c\n  file {{ '/tmp/{i}': ensure => file }}\n  $x = [1, 2, 3].map |$v| {{ $v * {i} }}\n}}\n"
            );
            (std::path::PathBuf::from(format!("/ws/modules/m{i}/manifests/c.pp")), text)
        })
        .collect();
    let mut host = AnalysisHost::from_files(files);
    let analysis = host.analysis();
    let worker = std::thread::spawn(move || {
        let paths: Vec<std::path::PathBuf> = analysis.paths().map(Path::to_path_buf).collect();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while std::time::Instant::now() < deadline {
            for path in &paths {
                if analysis.diagnostics(path).is_err() {
                    return true; // cancelled: the view is dropped on return
                }
            }
        }
        false
    });
    std::thread::sleep(std::time::Duration::from_millis(50));
    let path = Path::new("/ws/modules/m0/manifests/c.pp");
    let text = host.text(path).unwrap().replace("= 0", "= 1");
    // Blocks until the worker's view is dropped.
    host.set_file(path, text);
    assert!(worker.join().unwrap(), "the worker was not cancelled");
    // The host answers from the new revision.
    assert!(host.text(path).unwrap().contains("= 1"));
    assert!(
        host.diagnostics(path).is_empty(),
        "{:?}",
        host.diagnostics(path)
    );
}

#[test]
fn duplicates_unreachable_options_and_puppet3_constructs() {
    let out = check(
        r#"
#- /ws/site.pp
import 'nodes/*.pp'
file { '/tmp/a': ensure => file }
file { ['/tmp/b', '/tmp/a']: ensure => file }
package { 'x': } -> file { '/tmp/b': }
if $::osfamily == 'RedHat' {
  file { '/tmp/c': }
} else {
  file { '/tmp/c': }
}
case $facts['os']['family'] {
  'Debian', 'debian': { }
  /^Red/: { }
  default: { }
}
$size = 'large' ? { 'small' => 1, 'medium' => 2 }
$ok = 'small' ? { 'small' => 1, default => 2 }
"#,
    );
    expect_test::expect![[r#"
        /ws/site.pp:1 error [discontinued-import] `import 'nodes/*.pp'` 'import' was discontinued in Puppet 4: classes and defines are autoloaded from the module path
        /ws/site.pp:3 error [duplicate-resource] `'/tmp/a'` duplicate declaration: File[/tmp/a] is already declared in this block
        /ws/site.pp:4 error [duplicate-resource] `'/tmp/b'` duplicate declaration: File[/tmp/b] is already declared in this block
        /ws/site.pp:5 warning [legacy-fact] `$::osfamily` the legacy fact '$::osfamily' is deprecated (and off by default in Puppet 8): read the structured fact from $facts instead
        /ws/site.pp:10 error [expression-has-no-effect] `case $facts['os']['family'] {
          'Debian', 'debian': { }
          /^Red/: { }
          default: { }
        }` this 'case' statement has no effect: a value was produced and then forgotten (one or more preceding expressions may have the wrong form)
        /ws/site.pp:11 warning [unreachable-option] `'debian'` this case option can never be chosen: an earlier option matches the same value
        /ws/site.pp:15 error [evaluation-error] `'large' ? { 'small' => 1, 'medium' => 2 }` No matching entry for selector parameter with value 'large'
    "#]].assert_eq(&out);
}

#[test]
fn epp_calls_against_template_parameters() {
    let out = check(
        r#"
#- /ws/modules/app/templates/vhost.conf.epp
<%- | String $server_name, Integer $port = 80, Optional[String] $alias = undef | -%>
server <%= $server_name %>:<%= $port %>
#- /ws/modules/app/templates/free.epp
<%= $anything %>
#- /ws/modules/app/manifests/init.pp
class app {
  $a = epp('app/vhost.conf.epp', { 'server_name' => 'www', 'port' => 8080 })
  $b = epp('app/vhost.conf.epp', { 'port' => 8080, 'typo' => 1 })
  $c = epp('app/free.epp', { 'whatever' => 1 })
  $d = epp('app/missing.epp')
  $e = epp('other/x.epp')
}
"#,
    );
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:3 error [epp-missing-parameter] `'app/vhost.conf.epp'` template 'app/vhost.conf.epp' expects a value for 'server_name'
        /ws/modules/app/manifests/init.pp:3 error [epp-unknown-parameter] `'typo'` template 'app/vhost.conf.epp' has no parameter 'typo'
        /ws/modules/app/manifests/init.pp:5 error [unknown-template] `'app/missing.epp'` template 'app/missing.epp' does not exist (no templates/missing.epp in module app)
    "#]].assert_eq(&out);
}

#[test]
fn inline_epp_templates_report_at_the_place_in_the_text() {
    // Positions in the template are positions in the string as written:
    // through `\\` and `\'`, `\$` and `\t`, a heredoc's margin, a template
    // in a template.
    let out = check_as(
        r#"
#- /ws/modules/app/manifests/init.pp
class app {
  $known = 1
  notice(inline_epp('it\'s \\ <%= $known %> <%= $nope1 %>'))
  notice(inline_epp("\t\$x <%= \$nope2 %>"))
  notice(inline_epp(@(EPP)))
    first
      <%= $known %> <%= $nope3 %>
    | EPP
  notice(inline_epp('<%= inline_epp("<%= \$nope4 %>") %>'))
  notice(inline_epp('<%- | $a, Optional[String] $b | -%><%= $a %>', { 'a' => 1, 'c' => 2 }))
  notice(inline_epp('<%= [1].map |$v| { $v } %> <%= $v %>'))
  notice(inline_epp('<%= $y %>', { 'y' => 1 }))
  notice(inline_epp('\\ <%= 1 '))
  notice(inline_epp('<%= inline_epp("<%- |\$p| -%>") %>'))
}
"#,
        Target::of(PuppetVersion::V8),
    );
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:3 error [unknown-variable] `$nope1` unknown variable '$nope1': Puppet 8 fails on reading it (strict_variables)
        /ws/modules/app/manifests/init.pp:4 error [unknown-variable] `\$nope2` unknown variable '$nope2': Puppet 8 fails on reading it (strict_variables)
        /ws/modules/app/manifests/init.pp:7 error [unknown-variable] `$nope3` unknown variable '$nope3': Puppet 8 fails on reading it (strict_variables)
        /ws/modules/app/manifests/init.pp:9 error [unknown-variable] `\$nope4` unknown variable '$nope4': Puppet 8 fails on reading it (strict_variables)
        /ws/modules/app/manifests/init.pp:10 error [epp-missing-parameter] `'<%- | $a, Optional[String] $b | -%><%= $a %>'` the inline_epp() template expects a value for 'b'
        /ws/modules/app/manifests/init.pp:10 error [epp-unknown-parameter] `'c'` the inline_epp() template has no parameter 'c'
        /ws/modules/app/manifests/init.pp:11 error [unknown-variable] `$v` unknown variable '$v': Puppet 8 fails on reading it (strict_variables)
        /ws/modules/app/manifests/init.pp:13 error [unclosed-epp-tag] `<%` invalid EPP in inline_epp(): unbalanced EPP tag: reached the end of the template without a closing '%>'
        /ws/modules/app/manifests/init.pp:13 error [syntax-error] `` invalid EPP in inline_epp(): expected '%>' to end the render expression, found end of input
        /ws/modules/app/manifests/init.pp:14 error [epp-missing-parameter] `"<%- |\$p| -%>"` the inline_epp() template expects a value for 'p'
    "#]]
    .assert_eq(&out);
}

#[test]
fn constant_arguments_against_signatures() {
    let out = check(
        r#"
#- /ws/site.pp
$a = upcase(1)
$b = upcase('abc')
$c = join(['a', 'b'], ',')
$d = join(['a'], 1)
$e = sprintf('%d', 'x')
$f = abs($facts['n'])
"#,
    );
    expect_test::expect![[r#"
        /ws/site.pp:4 error [wrong-argument-type] `1` function 'join' expects String for argument 2, got 1
    "#]].assert_eq(&out);
}

/// Edits applied through `edit_file` reparse incrementally and give
/// exactly the tree and diagnostics of setting the whole new text.
#[test]
fn unresolvable_aliases_keep_type_checks_silent() {
    // Puppet fails on each of these, but not for the reason a type check
    // would give: an alias of a module not checked out (the module may
    // define it), an alias cycle with no real type. Only the existing
    // reference diagnostics speak; no type-mismatch, no wrong-argument-type.
    let out = check(
        r#"
#- /ws/modules/webapp/types/loop.pp
type Webapp::Loop = Webapp::Loopback
#- /ws/modules/webapp/types/loopback.pp
type Webapp::Loopback = Webapp::Loop
#- /ws/modules/webapp/types/mixed.pp
type Webapp::Mixed = Variant[Integer, Other::Name]
#- /ws/modules/webapp/functions/f.pp
function webapp::f(Other::Port $p, Webapp::Mixed $m) { }
#- /ws/modules/webapp/manifests/init.pp
class webapp(
  Other::Port $a,
  Optional[Array[Other::Port]] $b,
  Webapp::Loop $c,
  Webapp::Mixed $d,
) { }
#- /ws/site.pp
class { 'webapp': a => 'x', b => ['x'], c => 'x', d => 'x' }
notice(webapp::f('x', 'y'))
"#,
    );
    expect_test::expect![[r#"
        /ws/modules/webapp/functions/f.pp:1 warning [unknown-type] `Other::Port` unknown type 'Other::Port': module 'other' is not in the workspace
        /ws/modules/webapp/functions/f.pp:1 warning [unused-parameter] `$p` parameter '$p' is never used (prefix it with '_' if that is intended)
        /ws/modules/webapp/functions/f.pp:1 warning [unused-parameter] `$m` parameter '$m' is never used (prefix it with '_' if that is intended)
        /ws/modules/webapp/manifests/init.pp:2 warning [unknown-type] `Other::Port` unknown type 'Other::Port': module 'other' is not in the workspace
        /ws/modules/webapp/manifests/init.pp:3 warning [unknown-type] `Other::Port` unknown type 'Other::Port': module 'other' is not in the workspace
        /ws/modules/webapp/types/mixed.pp:1 warning [unknown-type] `Other::Name` unknown type 'Other::Name': module 'other' is not in the workspace
    "#]]
    .assert_eq(&out);
}

#[test]
fn functions_defined_twice_keep_argument_checks_silent() {
    // Which definition Puppet loads depends on the module path (two Ruby
    // files) or on its loaders (Ruby and Puppet language): no argument is
    // checked against either. `c::once` shows the check is otherwise on.
    let out = check(
        r#"
#- /ws/modules/a/manifests/init.pp
class a { }
#- /ws/modules/a/lib/puppet/functions/halve.rb
Puppet::Functions.create_function(:halve) do
  dispatch :halve do
    param 'Integer', :n
  end
end
#- /ws/modules/b/manifests/init.pp
class b { }
#- /ws/modules/b/lib/puppet/functions/halve.rb
Puppet::Functions.create_function(:halve) do
  dispatch :halve do
    param 'String', :s
  end
end
#- /ws/modules/c/functions/twice.pp
function c::twice(Integer $n) { $n * 2 }
#- /ws/modules/c/lib/puppet/functions/c/twice.rb
Puppet::Functions.create_function(:'c::twice') do
  dispatch :twice do
    param 'String', :s
  end
end
#- /ws/modules/c/lib/puppet/functions/c/once.rb
Puppet::Functions.create_function(:'c::once') do
  dispatch :once do
    param 'String', :s
  end
end
#- /ws/site.pp
notice(halve(true))
notice(c::twice(true))
notice(c::once(true))
"#,
    );
    expect_test::expect![[r#"
        /ws/site.pp:3 error [wrong-argument-type] `true` function 'c::once' expects String for argument 1, got true
    "#]]
    .assert_eq(&out);
}

#[test]
fn an_alias_edit_rechecks_its_users() {
    let mut host = AnalysisHost::from_files(parse_fixture(
        r#"
#- /ws/modules/webapp/types/port.pp
type Webapp::Port = Integer[1, 65535]
#- /ws/modules/webapp/manifests/init.pp
class webapp(Webapp::Port $port) { }
#- /ws/site.pp
class { 'webapp': port => 'http' }
"#,
    ));
    let site = Path::new("/ws/site.pp");
    let codes = |host: &AnalysisHost| -> Vec<&'static str> {
        host.diagnostics(site)
            .iter()
            .map(|d| d.code.as_str())
            .collect()
    };
    assert_eq!(codes(&host), ["type-mismatch"]);
    host.set_file(
        Path::new("/ws/modules/webapp/types/port.pp"),
        "type Webapp::Port = Variant[Integer[1, 65535], Enum['http', 'https']]\n".to_string(),
    );
    assert!(codes(&host).is_empty(), "{:?}", host.diagnostics(site));
}

#[test]
fn edit_file_reparses_incrementally_and_agrees_with_a_full_parse() {
    use puppet_syntax::{TextEdit, TextRange, TextSize};
    let path = PathBuf::from("/ws/modules/m/manifests/init.pp");
    let text = "class m (Integer $port = 80) {\n  $x = $port + 1\n  notify { 'a': message => \"${x}\" }\n}\n";
    let mut incremental = AnalysisHost::from_files(vec![(path.clone(), text.to_string())]);
    let mut current = text.to_string();
    let inserts = ["1", " ", "$y = 2\n", "}", "{", "'", "é", ""];
    let mut seed: u64 = 7;
    for step in 0..200 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut at = (seed >> 33) as usize % (current.len() + 1);
        while !current.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + (seed >> 20) as usize % 3).min(current.len());
        while !current.is_char_boundary(end) {
            end -= 1;
        }
        let insert = inserts[(seed >> 40) as usize % inserts.len()];
        let edit = TextEdit {
            delete: TextRange::new(TextSize::from(at as u32), TextSize::from(end as u32)),
            insert: insert.to_string(),
        };
        current.replace_range(at..end, insert);
        let new_text = incremental.edit_file(&path, &[edit]).expect("edit applies");
        assert_eq!(&*new_text, current.as_str(), "step {step}");
        let file = incremental.file(&path).unwrap();
        let tree = puppet_analysis::db::parse(incremental.db(), file).debug_tree();
        let fresh = puppet_syntax::parse(&current, puppet_syntax::SourceKind::Manifest);
        assert_eq!(tree, fresh.debug_tree(), "step {step}: {current:?}");
        let full = AnalysisHost::from_files(vec![(path.clone(), current.clone())]);
        assert_eq!(
            incremental.diagnostics(&path),
            full.diagnostics(&path),
            "step {step}"
        );
    }
    // An edit outside the text is refused, not applied.
    let outside = TextEdit {
        delete: TextRange::new(TextSize::from(10_000), TextSize::from(10_001)),
        insert: String::new(),
    };
    assert!(incremental.edit_file(&path, &[outside]).is_none());
}

#[test]
fn puppet_strings_comments_against_parameters() {
    let out = check(
        r#"
#- /ws/modules/app/types/port.pp
type App::Port = Integer[1, 65535]
#- /ws/modules/app/manifests/init.pp
# @summary The app.
#
# @param port
#   The port.
# @param [String] label The label.
# @param ensure [Boolean] Whether.
# @param [Integer] size Fits App::Port.
# @param gone Left over.
# @param title The implicit title.
# @option settings [String] :mode A mode.
# @option nothing :x Nothing.
class app(
  App::Port $port,
  String[1] $label,
  Enum['present', 'absent'] $ensure,
  App::Port $size,
  Hash $settings,
  $undocumented = 1,
) { }
#- /ws/modules/app/manifests/plain.pp
# Plain text: not puppet-strings, not checked.
class app::plain(String $x) { }
"#,
    );
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:6 warning [strings-param-type-mismatch] `[Boolean]` @param 'ensure' says [Boolean], but the parameter is declared Enum['present', 'absent']
        /ws/modules/app/manifests/init.pp:8 warning [strings-unknown-param] `gone` @param 'gone' names no parameter
        /ws/modules/app/manifests/init.pp:11 warning [strings-unknown-param] `nothing` @option for 'nothing', which names no parameter
        /ws/modules/app/manifests/init.pp:17 warning [strings-missing-param] `$settings` parameter $settings has no @param documentation
        /ws/modules/app/manifests/init.pp:18 warning [strings-missing-param] `$undocumented` parameter $undocumented has no @param documentation
    "#]].assert_eq(&out);
}
