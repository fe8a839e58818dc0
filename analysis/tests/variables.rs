//! Variable resolution and its diagnostics: scopes, flow order,
//! inheritance, qualified names, templates, match variables, reassignment
//! and unused variables, on multi-file fixtures.

use puppet_analysis::host::{parse_fixture, render_diagnostic, AnalysisHost};
use puppet_analysis::resolve::resolution::{variable_resolution, FileTarget};
use puppet_analysis::target::{PuppetVersion, Target};
use std::path::Path;

const CODES: &[&str] = &[
    "unknown-variable",
    "unused-variable",
    "unused-parameter",
    "reassigned-variable",
];

/// A fixture's host, checked for Puppet 7 (these snapshots are its
/// verdicts: legacy facts are top-scope variables, an unknown variable is
/// a warning).
fn puppet7(fixture: &str) -> AnalysisHost {
    host_for(fixture, PuppetVersion::V7)
}

fn host_for(fixture: &str, version: PuppetVersion) -> AnalysisHost {
    let mut host = AnalysisHost::from_files(parse_fixture(fixture));
    host.set_target(Target::of(version), "test");
    host
}

/// Renders the variable diagnostics of a fixture as
/// `path:line severity [code] `snippet` message`, checked for Puppet 7.
fn check(fixture: &str) -> String {
    check_for(fixture, PuppetVersion::V7)
}

fn check_for(fixture: &str, version: PuppetVersion) -> String {
    let host = host_for(fixture, version);
    let mut out = String::new();
    for path in host.paths().map(Path::to_path_buf).collect::<Vec<_>>() {
        let text = host.text(&path).unwrap();
        for d in host.diagnostics(&path) {
            if !CODES.contains(&d.code.as_str()) {
                continue;
            }
            out.push_str(&render_diagnostic(&path, &text, &d));
        }
    }
    out
}

/// Every reference of one file as `name@line -> target`.
fn resolve(fixture: &str, path: &str) -> String {
    let host = puppet7(fixture);
    let file = host.file(Path::new(path)).unwrap();
    let text = host.text(Path::new(path)).unwrap();
    let line = |offset: u32| text[..offset as usize].matches('\n').count() + 1;
    let resolution = variable_resolution(host.db(), host.workspace(), file);
    let mut out = String::new();
    for r in &resolution.references {
        let target = match &r.target {
            FileTarget::Local(defs) => {
                let lines: Vec<String> = defs
                    .iter()
                    .map(|&d| {
                        let def = &resolution.definitions[d];
                        format!("{:?}@{}", def.kind, line(def.range.start().into()))
                    })
                    .collect();
                lines.join(" | ")
            }
            FileTarget::Other(other) => format!("{other:?}"),
        };
        out.push_str(&format!(
            "${}@{} -> {target}\n",
            r.name,
            line(r.range.start().into())
        ));
    }
    out
}

#[test]
fn top_scope_flow_order_and_builtins() {
    let fixture = r#"
#- /ws/site.pp
notice($x)
$x = 1
notice($x, $facts, $trusted, $title, $name, $module_name, $environment)
notice($server_facts, $serverversion, $clientcert, $settings)
notice($osfamily, $::fqdn, $::anything, $nope)
"#;
    expect_test::expect![[r#"
        $x@1 -> Unknown
        $x@3 -> Assignment@2
        $facts@3 -> BuiltIn
        $trusted@3 -> BuiltIn
        $title@3 -> BuiltIn
        $name@3 -> BuiltIn
        $module_name@3 -> BuiltIn
        $environment@3 -> BuiltIn
        $server_facts@4 -> BuiltIn
        $serverversion@4 -> BuiltIn
        $clientcert@4 -> BuiltIn
        $settings@4 -> BuiltIn
        $osfamily@5 -> Fact { legacy: true }
        $::fqdn@5 -> TopScope(Fact { legacy: true })
        $::anything@5 -> TopScope(Unseen)
        $nope@5 -> Unknown
    "#]]
    .assert_eq(&resolve(fixture, "/ws/site.pp"));
    expect_test::expect![[r#"
        /ws/site.pp:1 warning [unknown-variable] `$x` unknown variable '$x'
        /ws/site.pp:5 warning [unknown-variable] `$nope` unknown variable '$nope'
    "#]]
    .assert_eq(&check(fixture));
}

#[test]
fn class_define_and_node_scopes() {
    let fixture = r#"
#- /ws/site.pp
$global = 1
node default {
  $node_var = 2
  include app
}
#- /ws/modules/app/manifests/init.pp
class app(String $port = '80', $other = $port) {
  $local = "${port}:${other}"
  notice($local, $global, $node_var, $title)
  app::vhost { 'x': }
}
#- /ws/modules/app/manifests/vhost.pp
define app::vhost($docroot = "/srv/${title}") {
  $conf = "${name}.conf"
  notice($conf, $docroot, $local, $app::local, $app::port)
}
"#;
    expect_test::expect![[r#"
        $port@1 -> ClassParam@1
        $port@2 -> ClassParam@1
        $other@2 -> ClassParam@1
        $local@3 -> Assignment@2
        $global@3 -> Global
        $node_var@3 -> Global
        $title@3 -> BuiltIn
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/app/manifests/init.pp"));
    expect_test::expect![[r#"
        $title@1 -> BuiltIn
        $name@2 -> BuiltIn
        $conf@3 -> Assignment@2
        $docroot@3 -> DefineParam@1
        $local@3 -> Unknown
        $app::local@3 -> Qualified { class: "app" }
        $app::port@3 -> Qualified { class: "app" }
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/app/manifests/vhost.pp"));
    // A define does not see the variables of the class declaring it.
    expect_test::expect![[r#"
        /ws/modules/app/manifests/vhost.pp:3 warning [unknown-variable] `$local` unknown variable '$local'
    "#]]
    .assert_eq(&check(fixture));
}

#[test]
fn strings_heredocs_and_interpolation() {
    let fixture = r#"
#- /ws/modules/app/manifests/init.pp
class app($port, $hosts) {
  $a = "plain $port, braced ${port}, access ${hosts[0]}, method ${hosts.join(',')}"
  $b = "qualified ${app::port} top ${::fqdn} missing ${nope} and $missing2"
  $c = @("EOT")
    heredoc $a ${b}
    | EOT
  notice($c)
}
"#;
    expect_test::expect![[r#"
        $port@2 -> ClassParam@1
        $port@2 -> ClassParam@1
        $hosts@2 -> ClassParam@1
        $hosts@2 -> ClassParam@1
        $app::port@3 -> Qualified { class: "app" }
        $::fqdn@3 -> TopScope(Fact { legacy: true })
        $nope@3 -> Unknown
        $missing2@3 -> Unknown
        $a@5 -> Assignment@2
        $b@5 -> Assignment@3
        $c@7 -> Assignment@4
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/app/manifests/init.pp"));
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:3 warning [unknown-variable] `nope` unknown variable '$nope'
        /ws/modules/app/manifests/init.pp:3 warning [unknown-variable] `$missing2` unknown variable '$missing2'
    "#]]
    .assert_eq(&check(fixture));
}

#[test]
fn heredoc_body_belongs_to_the_lambda_of_its_header() {
    // The body stands after the line of its header, outside the lambda's
    // braces, but is evaluated where the header is.
    let fixture = r#"
#- /ws/modules/app/manifests/init.pp
class app($items) {
  $items.each |$item| { notice(@("EOT")) }
    item ${item}
    | EOT
}
"#;
    expect_test::expect![[r#"
        $items@2 -> ClassParam@1
        $item@3 -> LambdaParam@2
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/app/manifests/init.pp"));
    expect_test::expect![""].assert_eq(&check(fixture));
}

#[test]
fn epp_templates() {
    let fixture = r#"
#- /ws/modules/app/templates/conf.epp
<%- | String $port, $bind = "0.0.0.0:${port}" | -%>
listen <%= $bind %> <%= $unknown %> <%= $app::port %> <%= $facts['os'] %>
<% $list = [1] -%>
<% $list.each |$i| { -%><%= $i %><% } -%>
<% $unused = 1 -%>
#- /ws/modules/app/templates/free.epp
Any key passed to epp() is a variable here: <%= $whatever %>
#- /ws/modules/app/manifests/init.pp
class app($port) { }
"#;
    expect_test::expect![[r#"
        $port@1 -> TemplateParam@1
        $bind@2 -> TemplateParam@1
        $unknown@2 -> Unknown
        $app::port@2 -> Qualified { class: "app" }
        $facts@2 -> BuiltIn
        $list@4 -> Assignment@3
        $i@4 -> LambdaParam@4
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/app/templates/conf.epp"));
    expect_test::expect![[r#"
        $whatever@1 -> TemplateArgument
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/app/templates/free.epp"));
    expect_test::expect![[r#"
        /ws/modules/app/templates/conf.epp:2 warning [unknown-variable] `$unknown` unknown variable '$unknown'
        /ws/modules/app/templates/conf.epp:5 warning [unused-variable] `$unused` variable '$unused' is assigned but never used
    "#]]
    .assert_eq(&check(fixture));
}

#[test]
fn inherits_sees_the_parents_variables() {
    let fixture = r#"
#- /ws/modules/ntp/manifests/params.pp
class ntp::params inherits ntp::base {
  $servers = ['a']
  if $facts['os']['family'] == 'Debian' {
    $package = 'ntp'
  } else {
    $package = 'chrony'
  }
}
#- /ws/modules/ntp/manifests/base.pp
class ntp::base($base_param = 1) { $base_var = 2 }
#- /ws/modules/ntp/manifests/init.pp
class ntp(
  $servers = $ntp::params::servers,
  $package = $package,
) inherits ntp::params {
  notice($servers, $package, $base_var, $base_param, $ntp::base_var, $ntp::nope, $missing)
}
#- /ws/modules/ext/manifests/init.pp
class ext inherits other::params {
  notice($anything)
}
"#;
    expect_test::expect![[r#"
        $ntp::params::servers@2 -> Qualified { class: "ntp::params" }
        $package@3 -> Inherited { class: "ntp::params" }
        $servers@5 -> ClassParam@2
        $package@5 -> ClassParam@3
        $base_var@5 -> Inherited { class: "ntp::base" }
        $base_param@5 -> Inherited { class: "ntp::base" }
        $ntp::base_var@5 -> Qualified { class: "ntp::base" }
        $ntp::nope@5 -> UnknownQualified { class: "ntp" }
        $missing@5 -> Unknown
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/ntp/manifests/init.pp"));
    expect_test::expect![[r#"
        $anything@2 -> MaybeInherited
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/ext/manifests/init.pp"));
    expect_test::expect![[r#"
        /ws/modules/ntp/manifests/init.pp:5 warning [unknown-variable] `$ntp::nope` unknown variable '$ntp::nope': class 'ntp' has no parameter or variable 'nope'
        /ws/modules/ntp/manifests/init.pp:5 warning [unknown-variable] `$missing` unknown variable '$missing'
    "#]]
    .assert_eq(&check(fixture));
}

#[test]
fn qualified_variables() {
    let fixture = r#"
#- /ws/modules/app/manifests/init.pp
class app($port = 80) {
  $conf = '/etc/app'
  if $port > 1024 { $high = true }
  [1].each |$x| { $in_lambda = $x }
}
#- /ws/site.pp
notice($app::port, $::app::conf, $app::high, $app::in_lambda, $app::nope)
notice($other::thing, $settings::confdir, $app::sub::x)
"#;
    expect_test::expect![[r#"
        $app::port@1 -> Qualified { class: "app" }
        $::app::conf@1 -> Qualified { class: "app" }
        $app::high@1 -> Qualified { class: "app" }
        $app::in_lambda@1 -> UnknownQualified { class: "app" }
        $app::nope@1 -> UnknownQualified { class: "app" }
        $other::thing@2 -> ExternalQualified
        $settings::confdir@2 -> ExternalQualified
        $app::sub::x@2 -> ExternalQualified
    "#]]
    .assert_eq(&resolve(fixture, "/ws/site.pp"));
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:4 warning [unused-variable] `$in_lambda` variable '$in_lambda' is assigned but never used
        /ws/site.pp:1 warning [unknown-variable] `$app::in_lambda` unknown variable '$app::in_lambda': class 'app' has no parameter or variable 'in_lambda'
        /ws/site.pp:1 warning [unknown-variable] `$app::nope` unknown variable '$app::nope': class 'app' has no parameter or variable 'nope'
    "#]]
    .assert_eq(&check(fixture));
}

#[test]
fn match_variables_are_never_unknown() {
    let fixture = r#"
#- /ws/site.pp
if $facts['fqdn'] =~ /^(\w+)\.(.*)$/ { notice($1, $2, $0) }
case $facts['os'] { /(deb)(ian)/: { notice($2) } default: {} }
$v = $facts['x'] ? { /(a)/ => $1, default => $10 }
notice($v, "${1}")
"#;
    expect_test::expect![[r#"
        $facts@1 -> BuiltIn
        $1@1 -> MatchVariable
        $2@1 -> MatchVariable
        $0@1 -> MatchVariable
        $facts@2 -> BuiltIn
        $2@2 -> MatchVariable
        $facts@3 -> BuiltIn
        $1@3 -> MatchVariable
        $10@3 -> MatchVariable
        $v@4 -> Assignment@3
        $1@4 -> MatchVariable
    "#]]
    .assert_eq(&resolve(fixture, "/ws/site.pp"));
    expect_test::expect![""].assert_eq(&check(fixture));
}

#[test]
fn lambdas_see_the_enclosing_scope_and_shadow_it() {
    let fixture = r#"
#- /ws/modules/app/manifests/init.pp
class app($items, $x = 1) {
  $outer = 2
  $items.each |$x, $_unused_ok| {
    $inner = $x + $outer
    notice($inner)
    $items.map |$y| { $x + $y + $inner }
  }
  notice($x, $inner)
  $items.each |$index, $value| { notice($value) }
  $items.filter |$z = $outer| { $dropped = 1; true }
}
"#;
    expect_test::expect![[r#"
        $items@3 -> ClassParam@1
        $x@4 -> LambdaParam@3
        $outer@4 -> Assignment@2
        $inner@5 -> Assignment@4
        $items@6 -> ClassParam@1
        $x@6 -> LambdaParam@3
        $y@6 -> LambdaParam@6
        $inner@6 -> Assignment@4
        $x@8 -> ClassParam@1
        $inner@8 -> Unknown
        $items@9 -> ClassParam@1
        $value@9 -> LambdaParam@9
        $items@10 -> ClassParam@1
        $outer@10 -> Assignment@2
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/app/manifests/init.pp"));
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:8 warning [unknown-variable] `$inner` unknown variable '$inner'
        /ws/modules/app/manifests/init.pp:9 warning [unused-parameter] `$index` parameter '$index' is never used (prefix it with '_' if that is intended)
        /ws/modules/app/manifests/init.pp:10 warning [unused-parameter] `$z` parameter '$z' is never used (prefix it with '_' if that is intended)
        /ws/modules/app/manifests/init.pp:10 warning [unused-variable] `$dropped` variable '$dropped' is assigned but never used
    "#]]
    .assert_eq(&check(fixture));
}

#[test]
fn functions_see_only_their_parameters_and_top_scope() {
    let fixture = r#"
#- /ws/site.pp
$top = 1
#- /ws/modules/app/functions/calc.pp
function app::calc(Integer $a, $b = $a, $unused_param = 0) >> Integer {
  $local = $a + $b
  $never_read = 3
  $local + $top + $class_var + $app::class_var
}
#- /ws/modules/app/manifests/init.pp
class app {
  $class_var = 1
  notice(app::calc(1))
}
"#;
    expect_test::expect![[r#"
        $a@1 -> FunctionParam@1
        $a@2 -> FunctionParam@1
        $b@2 -> FunctionParam@1
        $local@4 -> Assignment@2
        $top@4 -> Global
        $class_var@4 -> Unknown
        $app::class_var@4 -> Qualified { class: "app" }
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/app/functions/calc.pp"));
    expect_test::expect![[r#"
        /ws/modules/app/functions/calc.pp:1 warning [unused-parameter] `$unused_param` parameter '$unused_param' is never used (prefix it with '_' if that is intended)
        /ws/modules/app/functions/calc.pp:3 warning [unused-variable] `$never_read` variable '$never_read' is assigned but never used
        /ws/modules/app/functions/calc.pp:4 warning [unknown-variable] `$class_var` unknown variable '$class_var'
    "#]]
    .assert_eq(&check(fixture));
}

#[test]
fn reassignment() {
    let fixture = r#"
#- /ws/modules/app/manifests/init.pp
class app($param, $flag) {
  $a = 1
  $a = 2
  $param = 3
  if $flag { $b = 1 } else { $b = 2 }
  if $flag { $c = 1 } elsif $param { $c = 2 } else { $c = 3 }
  case $param { 'x': { $d = 1 } default: { $d = 2 } }
  $e = $param ? { 'x' => 1, default => 2 }
  if $flag { $f = 1 }
  unless $flag { $f = 2 }
  if !$flag { $g = 1 }
  if ($flag) { $g = 2 }
  if $flag { $h = 1 }
  $h = 2
  if $param { $i = $param }
  unless $i { $i = 'default' }
  [1].each |$v| { $a = $v $v = 1 }
  $title = 'x'
  $facts = {}
  notice($a, $b, $c, $d, $e, $f, $g, $h, $i)
}
"#;
    expect_test::expect![[r#"
        /ws/modules/app/manifests/init.pp:3 error [reassigned-variable] `$a` cannot reassign variable '$a': it is already assigned on line 2 in this scope
        /ws/modules/app/manifests/init.pp:4 error [reassigned-variable] `$param` cannot reassign variable '$param': it is already assigned on line 1 in this scope
        /ws/modules/app/manifests/init.pp:14 error [reassigned-variable] `$h` cannot reassign variable '$h' when both assignments run, as they do for some parameter values: it is also assigned on line 13 in this scope
        /ws/modules/app/manifests/init.pp:17 warning [unused-variable] `$a` variable '$a' is assigned but never used
        /ws/modules/app/manifests/init.pp:17 error [reassigned-variable] `$v` cannot reassign variable '$v': it is already assigned on line 17 in this scope
        /ws/modules/app/manifests/init.pp:18 error [reassigned-variable] `$title` cannot assign to '$title': the variable is set by Puppet
        /ws/modules/app/manifests/init.pp:19 error [reassigned-variable] `$facts` cannot assign to '$facts': the variable is set by Puppet
    "#]]
    .assert_eq(&check(fixture));
}

#[test]
fn unused_variables_only_where_nothing_else_can_read_them() {
    let fixture = r#"
#- /ws/site.pp
$site_var = 1
node default { $node_var = 2 }
#- /ws/modules/app/manifests/init.pp
class app($unused_class_param) {
  $public = 1
}
#- /ws/modules/app/manifests/vhost.pp
define app::vhost($unused_define_param = 1) {
  $private = 1
  $_ignored = 2
}
#- /ws/modules/app/manifests/erb.pp
define app::erb {
  $for_template = 1
  file { '/x': content => template('app/x.erb') }
}
"#;
    expect_test::expect![[r#"
        /ws/modules/app/manifests/vhost.pp:2 warning [unused-variable] `$private` variable '$private' is assigned but never used
    "#]]
    .assert_eq(&check(fixture));
}

#[test]
fn branches_and_flow_order() {
    let fixture = r#"
#- /ws/modules/app/manifests/init.pp
class app($flag) {
  if $flag { $x = 1 } else { notice($x) }
  notice($x)
  if $flag { $y = 1 } else { $y = 2 }
  notice($y)
  $z = $z
}
"#;
    expect_test::expect![[r#"
        $flag@2 -> ClassParam@1
        $x@2 -> Unknown
        $x@3 -> Assignment@2
        $flag@4 -> ClassParam@1
        $y@5 -> Assignment@4 | Assignment@4
        $z@6 -> Unknown
    "#]]
    .assert_eq(&resolve(fixture, "/ws/modules/app/manifests/init.pp"));
}

#[test]
fn broken_code_never_panics() {
    for text in [
        "$ = 1",
        "[$a, $b = 1",
        "class { $x",
        "$x = \"${",
        "notice(@(E))\n",
        "if $a =~ { $1 }",
        "class a inherits { $x }",
        "$a::b::c = 1",
        "function f($a = $a) { }",
        "<%- | $x | %> <%= $x",
    ] {
        for path in ["/ws/site.pp", "/ws/modules/a/templates/t.epp"] {
            let host = AnalysisHost::from_files(vec![(path.into(), text.to_string())]);
            host.diagnostics(Path::new(path));
        }
    }
}

#[test]
fn an_edit_inside_a_body_re_resolves_only_that_item() {
    let fixture = r#"
#- /ws/site.pp
$top = 1
#- /ws/modules/app/manifests/init.pp
class app($port) { $conf = $port }
#- /ws/modules/app/manifests/vhost.pp
define app::vhost { notice($app::conf, $top) }
"#;
    let mut host = AnalysisHost::from_files(parse_fixture(fixture));
    let paths: Vec<_> = host.paths().map(Path::to_path_buf).collect();
    for path in &paths {
        host.diagnostics(path);
    }
    host.db().log_executions();
    host.db().take_executions();
    let init = Path::new("/ws/modules/app/manifests/init.pp");
    let text = host
        .text(init)
        .unwrap()
        .replace("$conf = $port", "$conf = \"${port}\"");
    host.set_file(init, text);
    for path in &paths {
        host.diagnostics(path);
    }
    let log = host.db().take_executions();
    // Only class `app` is resolved again: its published variables are
    // unchanged, so the define reading `$app::conf` is not.
    let resolved: Vec<_> = log
        .iter()
        .filter(|e| e.starts_with("item_scopes("))
        .collect();
    assert_eq!(resolved.len(), 1, "{log:#?}");
}

/// Under Puppet 8, reads that only run where the variable is
/// set are not unknown: under `if defined('$x')`, on the right of
/// `defined('$x') and`, or of `!defined('$x') or`; a local assigned in every
/// arm, or defaulted with `if !defined('$x')`, is set on every path; one
/// assigned in some arms only is a warning (which arm runs depends on the
/// node); a class's variable read before anything declares the class fails.
#[test]
fn puppet_8_reads_of_variables_that_may_be_unset() {
    let fixture = r#"
#- /ws/modules/m/manifests/init.pp
class m(Boolean $flag) {
  if defined('$::a') { notice($::a) }
  if !defined('$::b') or $::b { }
  if defined('$c') and $c { }
  if $flag { $d = 1 } else { $d = 2 }
  notice($d)
  if $flag { $e = 1 }
  if !defined('$e') { $e = 2 }
  notice($e)
  if $flag { $f = 1 }
  notice($f)
  case $flag { true: { $g = 1 } default: { fail('no') } }
  notice($g)
  notice($other::x)
  include other
  notice($nope)
}
#- /ws/modules/other/manifests/init.pp
class other { $x = 1 }
#- /ws/site.pp
include m
"#;
    expect_test::expect![[r#"
        /ws/modules/m/manifests/init.pp:11 error [unknown-variable] `$f` variable '$f' is assigned only in some arms of a conditional decided by parameters: where a declaration's values send it the other way, Puppet 8 fails on reading it (strict_variables)
        /ws/modules/m/manifests/init.pp:14 error [unknown-variable] `$other::x` unknown variable '$other::x': class 'other' is not evaluated when this runs (nothing in the workspace declares it before): Puppet 8 fails on reading it (strict_variables)
        /ws/modules/m/manifests/init.pp:16 error [unknown-variable] `$nope` unknown variable '$nope': Puppet 8 fails on reading it (strict_variables)
    "#]]
    .assert_eq(&check_for(fixture, PuppetVersion::V8));
}

/// A template without parameters reads its variables from the hash
/// `epp()` passes: under Puppet 8 a call that does not pass one the
/// template reads fails in the template; a computed hash may pass anything;
/// under Puppet 7 the read is undef with a warning at run time.
#[test]
fn puppet_8_epp_calls_pass_what_parameterless_templates_read() {
    let fixture = r#"
#- /ws/modules/m/templates/t.epp
<%= $port %> <%= $m::x %>
#- /ws/modules/m/manifests/init.pp
class m(Hash $h) {
  $x = 1
  notice(epp('m/t.epp'))
  notice(epp('m/t.epp', { 'port' => 80 }))
  notice(epp('m/t.epp', $h))
}
#- /ws/site.pp
include m
"#;
    expect_test::expect![[r#"
        /ws/modules/m/manifests/init.pp:3 error [unknown-variable] `'m/t.epp'` template 'm/t.epp' reads '$port', which this call does not pass and nothing else sets: Puppet 8 fails in the template (Unknown variable)
    "#]]
    .assert_eq(&check_for(fixture, PuppetVersion::V8));
    assert_eq!(check_for(fixture, PuppetVersion::V7), "");
}

/// Classes declared from Hiera data (`hiera_include`, `lookup(...).include`)
/// may be any class: no read of a class variable is then reported as
/// undeclared.
#[test]
fn classes_declared_from_data_may_be_any_class() {
    for declaration in [
        "hiera_include('classes')",
        "lookup('classes', Array[String]).include",
    ] {
        let fixture = format!(
            "#- /ws/modules/m/manifests/init.pp\nclass m {{\n  notice($other::x)\n}}\n#- /ws/modules/other/manifests/init.pp\nclass other {{ $x = 1 }}\n#- /ws/site.pp\n{declaration}\n"
        );
        assert_eq!(check_for(&fixture, PuppetVersion::V8), "", "{declaration}");
    }
}
