//! Hiera in the IDE: a control repository with an environment layer and a
//! module layer; hover, definition both ways, references, rename and
//! completion between class parameters, `lookup()` keys and data keys.

mod common;

use common::{fixture_at, Fixture};
use expect_test::expect;
use puppet_ide::FilePosition;
use std::path::PathBuf;

const WORKSPACE: &str = r#"
#- /env/manifests/site.pp
include ntp
$extra = lookup('ntp::servers', Array[String], 'unique')
#- /env/hiera.yaml
version: 5
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
"ntp::port": 123
#- /env/modules/ntp/hiera.yaml
version: 5
hierarchy:
  - name: Common
    path: common.yaml
#- /env/modules/ntp/data/common.yaml
ntp::servers: [module.pool]
#- /env/modules/ntp/manifests/init.pp
# Keeps the clock right.
class ntp(Array[String] $servers = [], Integer $port = 123) {
  notice($servers, $port)
}
"#;

/// The workspace with a cursor at `$0` in `path`'s text `line`.
fn at(path: &str, marked: &str) -> Fixture {
    let text = WORKSPACE.replace(&marked.replace("$0", ""), marked);
    assert_ne!(text, WORKSPACE, "{marked} is in {path}");
    let f = fixture_at("/env", &text);
    assert_eq!(f.position.path, PathBuf::from(path));
    f
}

fn position(f: &Fixture) -> &FilePosition {
    &f.position
}

#[test]
fn hover_on_a_data_key_shows_the_parameter_and_every_value() {
    let f = at("/env/data/common.yaml", "ntp::ser$0vers:\n  - a.pool");
    let hover = puppet_ide::snapshot(&f.host)
        .hover(position(&f))
        .expect("not cancelled")
        .expect("a hover");
    expect![[r#"
        ```puppet
        class ntp(
          Array[String] $servers = []
        )
        ```

        Parameter `$servers` of class `ntp`, declared on line 2 of `/env/modules/ntp/manifests/init.pp`

        Keeps the clock right.

        Bound by automatic parameter lookup.

        **Hiera** `ntp::servers`: first found wins

        - `data/nodes/web01.yaml` (environment level *Nodes*, `data/nodes/%{trusted.certname}.yaml`): `['web.pool']`
        - `data/common.yaml` (environment level *Common*, `data/common.yaml`): `['a.pool']`
        - `modules/ntp/data/common.yaml` (module ntp level *Common*, `data/common.yaml`): `['module.pool']`

        The data's values are `Array[String]`.
    "#]]
    .assert_eq(&hover.markdown);
}

#[test]
fn definition_goes_from_data_to_the_parameter_and_from_lookup_to_the_data() {
    let f = at("/env/data/common.yaml", "\"ntp::p$0ort\": 123");
    let analysis = puppet_ide::snapshot(&f.host);
    let targets = analysis
        .goto_definition(position(&f))
        .expect("not cancelled");
    let shown: Vec<String> = targets
        .iter()
        .map(|t| f.render(&t.path, t.focus_range))
        .collect();
    expect![[r#"
        [
            "/env/modules/ntp/manifests/init.pp:2:48 '$port'",
        ]
    "#]]
    .assert_debug_eq(&shown);

    let f = at("/env/manifests/site.pp", "lookup('ntp::se$0rvers'");
    let analysis = puppet_ide::snapshot(&f.host);
    let targets = analysis
        .goto_definition(position(&f))
        .expect("not cancelled");
    let shown: Vec<String> = targets
        .iter()
        .map(|t| f.render(&t.path, t.focus_range))
        .collect();
    expect![[r#"
        [
            "/env/data/nodes/web01.yaml:1:1 'ntp::servers'",
            "/env/data/common.yaml:1:1 'ntp::servers'",
            "/env/modules/ntp/data/common.yaml:1:1 'ntp::servers'",
        ]
    "#]]
    .assert_debug_eq(&shown);
}

#[test]
fn references_and_rename_of_a_parameter_reach_its_data_keys() {
    let f = at(
        "/env/modules/ntp/manifests/init.pp",
        "class ntp(Array[String] $ser$0vers",
    );
    let analysis = puppet_ide::snapshot(&f.host);
    let references = analysis
        .find_references(position(&f), true)
        .expect("not cancelled");
    expect![[r#"
        /env/data/common.yaml:1:1 'ntp::servers'
        /env/data/nodes/web01.yaml:1:1 'ntp::servers'
        /env/modules/ntp/data/common.yaml:1:1 'ntp::servers'
        /env/modules/ntp/manifests/init.pp:2:25 '$servers'
        /env/modules/ntp/manifests/init.pp:3:10 '$servers'
    "#]]
    .assert_eq(&f.render_ranges(&references));
    let change = analysis
        .rename(position(&f), "pools")
        .expect("not cancelled")
        .expect("renamable");
    let edited: Vec<String> = change
        .edits
        .iter()
        .flat_map(|(path, edits)| {
            edits
                .iter()
                .map(|e| format!("{} -> {}", f.render(path, e.range), e.new_text))
        })
        .collect();
    expect![[r#"
        [
            "/env/data/common.yaml:1:6 'servers' -> pools",
            "/env/data/nodes/web01.yaml:1:6 'servers' -> pools",
            "/env/modules/ntp/data/common.yaml:1:6 'servers' -> pools",
            "/env/modules/ntp/manifests/init.pp:2:26 'servers' -> pools",
            "/env/modules/ntp/manifests/init.pp:3:11 'servers' -> pools",
        ]
    "#]]
    .assert_debug_eq(&edited);

    // Renaming the class renames the class part of its parameters' keys.
    let f = at("/env/modules/ntp/manifests/init.pp", "class n$0tp(");
    let change = puppet_ide::snapshot(&f.host)
        .rename(position(&f), "chrony")
        .expect("not cancelled")
        .expect("renamable");
    let data_edits: Vec<String> = change
        .edits
        .iter()
        .filter(|(path, _)| path.extension().is_some_and(|e| e == "yaml"))
        .flat_map(|(path, edits)| {
            edits
                .iter()
                .map(|e| format!("{} -> {}", f.render(path, e.range), e.new_text))
        })
        .collect();
    expect![[r#"
        [
            "/env/data/common.yaml:1:1 'ntp' -> chrony",
            "/env/data/common.yaml:3:2 'ntp' -> chrony",
            "/env/data/nodes/web01.yaml:1:1 'ntp' -> chrony",
            "/env/modules/ntp/data/common.yaml:1:1 'ntp' -> chrony",
        ]
    "#]]
    .assert_debug_eq(&data_edits);
}

#[test]
fn completion_offers_keys_in_lookup_calls_and_parameters_in_data_files() {
    let f = at("/env/manifests/site.pp", "lookup('ntp::$0servers'");
    let items = puppet_ide::snapshot(&f.host)
        .completions(position(&f))
        .expect("not cancelled");
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    expect![[r#"
        [
            "ntp::port",
            "ntp::servers",
        ]
    "#]]
    .assert_debug_eq(&labels);

    let f = at("/env/data/nodes/web01.yaml", "$0ntp::servers: [web.pool]");
    let items = puppet_ide::snapshot(&f.host)
        .completions(position(&f))
        .expect("not cancelled");
    let shown: Vec<String> = items
        .iter()
        .map(|i| format!("{} {:?} {:?}", i.label, i.detail, i.insert_text))
        .collect();
    expect![[r#"
        [
            "ntp::servers Some(\"Array[String]\") Some(\"ntp::servers: \")",
            "ntp::port Some(\"Integer\") Some(\"ntp::port: \")",
        ]
    "#]]
    .assert_debug_eq(&shown);
}
