//! Hover: fixtures with a `$0` cursor; the snapshot is the range hovered
//! and the Markdown shown.

mod common;

use common::fixture;
use expect_test::{expect, Expect};

fn check(text: &str, expected: Expect) {
    let f = fixture(text);
    let result = puppet_ide::snapshot(&f.host)
        .hover(&f.position)
        .expect("not cancelled");
    let actual = match result {
        Some(h) => format!(
            "{}\n{}",
            f.render(&f.position.path, h.range),
            h.markdown.trim_end()
        ),
        None => "no hover".to_string(),
    };
    expected.assert_eq(&actual);
}

const WORKSPACE: &str = r#"
#- /ws/modules/demo/types/port.pp
type Demo::Port = Integer[1, 65535]
#- /ws/modules/demo/types/endpoint.pp
type Demo::Endpoint = Struct[{ host => String, port => Demo::Port }]
#- /ws/modules/demo/functions/double.pp
function demo::double(Integer $x) >> Integer { $x * 2 }
"#;

fn with_workspace(manifest: &str) -> String {
    format!("{WORKSPACE}#- /ws/modules/demo/manifests/init.pp\n{manifest}")
}

#[test]
fn variable_assigned_a_constant_shows_type_and_value() {
    check(
        &with_workspace("class demo {\n  $po$0rt = 8000 + 80\n}\n"),
        expect![[r#"
            /ws/modules/demo/manifests/init.pp:2:3 '$port'
            ```puppet
            $port: Integer[8080, 8080]
            ```

            Value: `8080`

            Variable"#]],
    );
}

#[test]
fn variable_reference_shows_narrowed_type() {
    check(
        &with_workspace(
            "class demo (Variant[String, Integer] $v) {\n  if $v =~ Integer {\n    notice($$0v)\n  }\n}\n",
        ),
        expect![[r#"
            /ws/modules/demo/manifests/init.pp:3:12 '$v'
            ```puppet
            $v: Integer
            ```

            ```puppet
            class demo(
              Variant[String, Integer] $v
            )
            ```

            Parameter `$v` of class `demo`, declared on line 1 of `/ws/modules/demo/manifests/init.pp`"#]],
    );
}

#[test]
fn parameter_of_alias_type() {
    check(
        &with_workspace("class demo (Demo::Port $p$0ort = 80) {}\n"),
        expect![[r#"
            /ws/modules/demo/manifests/init.pp:1:24 '$port'
            ```puppet
            $port: Demo::Port
            ```

            ```puppet
            class demo(
              Demo::Port $port = 80
            )
            ```

            Expands to `Integer[1, 65535]`

            Parameter `$port` of class `demo`, declared on line 1 of `/ws/modules/demo/manifests/init.pp`"#]],
    );
}

#[test]
fn type_alias_reference_shows_definition_expanded() {
    check(
        &with_workspace("class demo (Demo::End$0point $e) {}\n"),
        expect![[r#"
            /ws/modules/demo/manifests/init.pp:1:13 'Demo::Endpoint'
            ```puppet
            type Demo::Endpoint = Struct[{ host => String, port => Demo::Port }]
            ```

            Expands to `Struct[{'host' => String, 'port' => Demo::Port = Integer[1, 65535]}]`

            type alias in `/ws/modules/demo/types/endpoint.pp`"#]],
    );
}

#[test]
fn workspace_function_shows_signature() {
    check(
        &with_workspace("class demo {\n  $x = demo::dou$0ble(2)\n}\n"),
        expect![[r#"
            /ws/modules/demo/manifests/init.pp:2:8 'demo::double'
            ```puppet
            function demo::double(Integer $x) >> Integer
            ```

            function in `/ws/modules/demo/functions/double.pp`"#]],
    );
}

#[test]
fn struct_member_access_has_the_member_type() {
    check(
        &with_workspace("class demo (Demo::Endpoint $e) {\n  $h = $e['ho$0st']\n}\n"),
        expect![[r#"
            /ws/modules/demo/manifests/init.pp:2:11 ''host''
            ```puppet
            String
            ```

            Value: `'host'`"#]],
    );
    check(
        &with_workspace("class demo (Demo::Endpoint $e) {\n  $$0h = $e['host']\n}\n"),
        expect![[r#"
            /ws/modules/demo/manifests/init.pp:2:3 '$h'
            ```puppet
            $h: String
            ```

            Variable"#]],
    );
}

#[test]
fn core_resource_type_and_attribute() {
    let hover = |m: &str| {
        let f = fixture(&format!("#- /t/manifests/init.pp\n{m}"));
        puppet_ide::snapshot(&f.host)
            .hover(&f.position)
            .expect("not cancelled")
    };
    let t = hover("ser$0vice { 'x': ensure => running }").expect("hover on type");
    assert!(t.markdown.contains("type service"), "{}", t.markdown);
    assert!(t.markdown.contains("Core resource type"), "{}", t.markdown);
    let a = hover("service { 'x': ens$0ure => running }").expect("hover on attribute");
    assert!(a.markdown.contains("ensure =>"), "{}", a.markdown);
    assert!(a.markdown.contains("running"), "{}", a.markdown);
    let m = hover("service { 'x': befo$0re => File['/x'] }").expect("metaparameter");
    assert!(m.markdown.contains("metaparameter"), "{}", m.markdown);
}

#[test]
fn builtin_function_shows_its_signatures() {
    let f = fixture("#- /t/manifests/init.pp\n$x = spl$0it('a,b', ',')\n");
    let h = puppet_ide::snapshot(&f.host)
        .hover(&f.position)
        .unwrap()
        .expect("hover");
    assert!(h.markdown.contains("split(String $str"), "{}", h.markdown);
    assert!(h.markdown.contains("Function of Puppet"), "{}", h.markdown);
}

#[test]
fn facts_have_their_types() {
    check(
        "#- /t/manifests/init.pp\n$$0fam = $facts['os']['family']\n",
        expect![[r#"
            /t/manifests/init.pp:1:1 '$fam'
            ```puppet
            $fam: String
            ```

            Variable"#]],
    );
}

#[test]
fn nothing_on_comments_whitespace_or_past_the_end() {
    check(
        "#- /t/manifests/init.pp\n# a com$0ment\n$x = 1\n",
        expect!["no hover"],
    );
    check(
        "#- /t/manifests/init.pp\n$x = 1\n\n  $0\n",
        expect!["no hover"],
    );
    let f = fixture("#- /t/manifests/init.pp\n$x = 1$0\n");
    let mut past = f.position.clone();
    past.offset += puppet_syntax::TextSize::from(100);
    assert_eq!(puppet_ide::snapshot(&f.host).hover(&past).unwrap(), None);
}

#[test]
fn hover_never_panics_at_any_offset() {
    let text = "class a (Integer $x = 1, Demo::Nope $y) inherits b {\n  $z = \"${x} é ${y['k']}\" + \n  if $x =~ /(\\d)/ { notice($1) }\n  file { '/x': ensure => present, }\n  $l = [1, 2].map |$i| { $i * \n}\n";
    let f = fixture(&format!("#- /t/manifests/init.pp\n$0{text}"));
    let analysis = puppet_ide::snapshot(&f.host);
    for offset in 0..=text.len() + 2 {
        let mut pos = f.position.clone();
        pos.path = "/t/manifests/init.pp".into();
        pos.offset = puppet_syntax::TextSize::from(offset as u32);
        let _ = analysis.hover(&pos).expect("not cancelled");
    }
}

#[test]
fn untyped_parameter_says_what_is_known() {
    check(
        r#"
#- /ws/modules/web/manifests/init.pp
class web ($p$0ort = 8080, $docroot) {
  validate_integer($port)
  notice($port, $docroot)
}
#- /ws/manifests/site.pp
class { 'web': port => '8081', docroot => '/srv' }
node 'a' {
  class { 'web': port => 80 + 1 }
}
node 'b' {
  class { 'web': port => 'x' }
}
"#,
        expect![[r#"
            /ws/modules/web/manifests/init.pp:1:12 '$port'
            ```puppet
            $port: Any
            ```

            ```puppet
            class web(
              $port = 8080
            )
            ```

            Parameter `$port` of class `web`, declared on line 1 of `/ws/modules/web/manifests/init.pp`

            Untyped: any value can be passed.

            Default: `8080` (Integer[8080, 8080])

            Validated by `validate_integer`

            Set as `String` in 2 declarations, `Integer` in 1 declaration"#]],
    );
}

#[test]
fn typed_parameter_has_no_untyped_notes() {
    check(
        "#- /ws/modules/web/manifests/init.pp\nclass web (Integer $p$0ort = 8080) {}\n",
        expect![[r#"
            /ws/modules/web/manifests/init.pp:1:20 '$port'
            ```puppet
            $port: Integer
            ```

            ```puppet
            class web(
              Integer $port = 8080
            )
            ```

            Parameter `$port` of class `web`, declared on line 1 of `/ws/modules/web/manifests/init.pp`"#]],
    );
}

#[test]
fn untyped_parameter_use_shows_default_and_validations() {
    check(
        "#- /ws/modules/web/manifests/init.pp\nclass web ($port = 8080) {\n  validate_integer($port)\n  notice($p$0ort)\n}\n",
        expect![[r#"
            /ws/modules/web/manifests/init.pp:3:10 '$port'
            ```puppet
            $port: Variant[Integer, String, Array[Variant[Integer, String]]]
            ```

            ```puppet
            class web(
              $port = 8080
            )
            ```

            Parameter `$port` of class `web`, declared on line 1 of `/ws/modules/web/manifests/init.pp`

            Untyped: any value can be passed.

            Default: `8080` (Integer[8080, 8080])

            Validated by `validate_integer`"#]],
    );
}

/// A control repository with an environment layer (node and common
/// levels) and a module layer, for the Hiera hovers.
const HIERA: &str = r#"
#- /env/manifests/site.pp
include ntp
#- /env/hiera.yaml
version: 5
defaults:
  datadir: data
hierarchy:
  - name: Nodes
    path: nodes/%{trusted.certname}.yaml
  - name: Common
    path: common.yaml
#- /env/data/nodes/web01.yaml
ntp::servers: [web.pool]
#- /env/data/common.yaml
ntp::servers:
  - a.pool
  - b.pool
lookup_options:
  ntp::servers:
    merge: unique
#- /env/data/old/unused.yaml
ntp::servers: [never]
#- /env/modules/ntp/hiera.yaml
version: 5
hierarchy:
  - name: OS family
    path: os/%{facts.os.family}.yaml
  - name: Common
    path: common.yaml
#- /env/modules/ntp/data/common.yaml
ntp::servers: [module.pool]
ntp::port: 123
"#;

#[test]
fn class_parameter_shows_its_hiera_data_in_lookup_order() {
    let text = format!(
        "{HIERA}#- /env/modules/ntp/manifests/init.pp\nclass ntp(Array[String] $ser$0vers, Integer $port) {{\n  notice($port)\n}}\n"
    );
    let f = common::fixture_at("/env", &text);
    let hover = puppet_ide::snapshot(&f.host)
        .hover(&f.position)
        .expect("not cancelled")
        .expect("a hover");
    expect![[r#"
        ```puppet
        $servers: Array[String]
        ```

        ```puppet
        class ntp(
          Array[String] $servers
        )
        ```

        Parameter `$servers` of class `ntp`, declared on line 1 of `/env/modules/ntp/manifests/init.pp`

        **Hiera** `ntp::servers`: merge `unique` (`lookup_options` in `data/common.yaml`)

        - `data/nodes/web01.yaml` (environment level *Nodes*, `data/nodes/%{trusted.certname}.yaml`): `['web.pool']`
        - `data/common.yaml` (environment level *Common*, `data/common.yaml`): `['a.pool', 'b.pool']`
        - `modules/ntp/data/common.yaml` (module ntp level *Common*, `data/common.yaml`): `['module.pool']`
        - `data/old/unused.yaml` (read by no hierarchy level): `['never']`

        The data's values are `Array[String]`.
    "#]].assert_eq(&hover.markdown);
}

#[test]
fn lookup_key_shows_the_data_and_the_calls_merge() {
    let text = format!(
        "{HIERA}#- /env/modules/ntp/manifests/init.pp\nclass ntp {{\n  $p = lookup('ntp::p$0ort', Integer, 'first')\n  $s = hiera_array('ntp::servers')\n}}\n"
    );
    let f = common::fixture_at("/env", &text);
    let hover = puppet_ide::snapshot(&f.host)
        .hover(&f.position)
        .expect("not cancelled")
        .expect("a hover");
    expect![[r#"
        /env/modules/ntp/manifests/init.pp:2:15 ''ntp::port''
        **Hiera** `ntp::port`: merge `first` (given in the call)

        - `modules/ntp/data/common.yaml` (module ntp level *Common*, `data/common.yaml`): `123`

        The data's values are `Integer`.
    "#]]
    .assert_eq(&format!(
        "{}\n{}",
        f.render(&f.position.path, hover.range),
        hover.markdown
    ));
}

/// A puppet-strings comment is shown rendered: summary, description,
/// parameters with their options, return, other tags, examples as code,
/// and a note when the API is private.
#[test]
fn puppet_strings_documentation_is_rendered() {
    check(
        r#"
#- /ws/modules/web/manifests/init.pp
# @summary Runs a web server.
#
# Serves the sites it is given.
#
# @param port
#   Where it listens.
# @param [Hash] options Tuning.
# @option options [Integer] :workers How many.
# @see https://example.com
# @example Basic
#   include web
# @api private
class web(Integer $port = 80, Hash $options = {}) { }
#- /ws/site.pp
include w$0eb
"#,
        expect![[r#"
            /ws/site.pp:1:9 'web'
            ```puppet
            class web(Integer $port = 80, Hash $options = {})
            ```

            class in `/ws/modules/web/manifests/init.pp`

            **Private API**: not for use outside its module.

            Runs a web server.

            Serves the sites it is given.

            **Parameters**

            - `port`: Where it listens.
            - `options` `[Hash]`: Tuning.
              - `workers` `[Integer]`: How many.

            *@see* https://example.com

            **Basic**
            ```puppet
            include web
            ```"#]],
    );
}

#[test]
fn bolts_plan_functions_say_where_they_come_from() {
    check(
        "#- /ws/modules/demo/plans/init.pp\nplan demo(TargetSpec $targets) {\n  ctrl::sl$0eep(5)\n}\n",
        expect![[r#"
            /ws/modules/demo/plans/init.pp:2:3 'ctrl::sleep'
            ```puppet
            function ctrl::sleep
            ```

            Function of Bolt's `ctrl` module (Bolt 4.0.0), which Bolt gives to every plan.

            Catalog code cannot call it, `apply` blocks included."#]],
    );
}

/// What a variable is depends on the Puppet checked for.
#[test]
fn variables_are_described_under_the_target_puppet() {
    use puppet_analysis::target::{PuppetVersion, Target};
    let hover = |text: &str, version: PuppetVersion| {
        let mut f = common::fixture(text);
        f.host.set_target(Target::of(version), "the test's");
        let h = puppet_ide::snapshot(&f.host)
            .hover(&f.position)
            .expect("not cancelled")
            .expect("a hover");
        h.markdown
            .lines()
            .find(|l| l.contains("fact") || l.contains("nknown"))
            .unwrap_or_default()
            .to_string()
    };
    let legacy = "#- /ws/modules/m/manifests/init.pp\nclass m { notice($::os$0family) }\n";
    expect!["Legacy fact: unknown on Puppet 8, which no longer receives legacy facts; use `$facts['os']['family']`"]
        .assert_eq(&hover(legacy, PuppetVersion::V8));
    expect!["Legacy fact (deprecated; unknown on Puppet 8); use `$facts['os']['family']`"]
        .assert_eq(&hover(legacy, PuppetVersion::V7));
    let unknown = "#- /ws/modules/m/manifests/init.pp\nclass m { notice($no$0pe) }\n";
    expect!["Unknown variable: Puppet 8 fails on reading it"]
        .assert_eq(&hover(unknown, PuppetVersion::V8));
    expect!["Unknown variable: undef on Puppet 7, with a warning"]
        .assert_eq(&hover(unknown, PuppetVersion::V7));
}
