//! Call hierarchies on multi-file fixtures: `$0` marks where the hierarchy
//! is prepared; incoming and outgoing calls of the first item are rendered
//! as `caller/callee (kinds): call sites`.

mod common;

use common::fixture;
use expect_test::{expect, Expect};
use puppet_ide::call_hierarchy::HierarchyCall;
use puppet_ide::FilePosition;

const WORKSPACE: &str = r#"
#- /ws/modules/web/manifests/init.pp
class web(Integer $port = 80) inherits web::params {
  include web::install
  contain 'web::config'
  require ::web::service
  web::vhost { 'default': port => $port }
  $name = web::name($port)
  notify { 'x': require => Class['web::install'] }
}
#- /ws/modules/web/manifests/params.pp
class web::params { }
#- /ws/modules/web/manifests/install.pp
class web::install { package { 'nginx': } }
#- /ws/modules/web/manifests/config.pp
class web::config {
  include web::install
}
#- /ws/modules/web/manifests/service.pp
class web::service { }
#- /ws/modules/web/manifests/vhost.pp
define web::vhost(Integer $port) {
  $n = "${title}".web::name
  class { 'web::install': }
}
#- /ws/modules/web/functions/name.pp
function web::name(Any $x) >> String { String($x) }
#- /ws/manifests/site.pp
node 'www.example.com' {
  include web
}
include web::config
"#;

fn render(
    f: &common::Fixture,
    calls: &[HierarchyCall],
    ranges_in: Option<&std::path::Path>,
) -> String {
    calls
        .iter()
        .map(|call| {
            let file = ranges_in.unwrap_or(&call.item.path);
            let sites: Vec<String> = call
                .ranges
                .iter()
                .map(|r| {
                    let rendered = f.render(file, *r);
                    rendered.rsplit('/').next().unwrap_or_default().to_string()
                })
                .collect();
            format!(
                "{} {:?} {:?}: {}\n",
                call.item.name,
                call.item.kind,
                call.kinds,
                sites.join(", ")
            )
        })
        .collect()
}

fn check(marked: &str, incoming: Expect, outgoing: Expect) {
    let text = WORKSPACE.replacen(&marked.replace('|', ""), &marked.replacen('|', "$0", 1), 1);
    assert_ne!(text, WORKSPACE, "marker {marked} not found");
    let f = fixture(&text);
    let analysis = puppet_ide::snapshot(&f.host);
    let items = analysis.prepare_call_hierarchy(&f.position).unwrap();
    let item = items.first().expect("an item to start from");
    let at = FilePosition {
        path: item.path.clone(),
        offset: item.focus_range.start(),
    };
    let calls_in = analysis.incoming_calls(&at).unwrap();
    incoming.assert_eq(&render(&f, &calls_in, None));
    let calls_out = analysis.outgoing_calls(&at).unwrap();
    outgoing.assert_eq(&render(&f, &calls_out, Some(&item.path)));
}

#[test]
fn a_class_included_contained_required_and_declared() {
    check(
        "class web::|install",
        expect![[r#"
            web::config Class [Include]: config.pp:2:11 'web::install'
            web Class [Include]: init.pp:2:11 'web::install'
            web::vhost DefinedType [Declare]: vhost.pp:3:12 'web::install'
        "#]],
        expect![[r#""#]],
    );
}

#[test]
fn a_class_and_what_it_does() {
    check(
        "class w|eb(",
        expect![[r#"
        'www.example.com' Node [Include]: site.pp:2:11 'web'
    "#]],
        expect![[r#"
        web::params Class [Inherit]: init.pp:1:40 'web::params'
        web::install Class [Include]: init.pp:2:11 'web::install'
        web::config Class [Contain]: init.pp:3:12 'web::config'
        web::service Class [Require]: init.pp:4:13 'web::service'
        web::vhost DefinedType [Declare]: init.pp:5:3 'web::vhost'
        web::name Function [Call]: init.pp:6:11 'web::name'
    "#]],
    );
}

#[test]
fn a_function_from_a_call_and_a_method_call() {
    check(
        "web::na|me($port)",
        expect![[r#"
        web Class [Call]: init.pp:6:11 'web::name'
        web::vhost DefinedType [Call]: vhost.pp:2:19 'web::name'
    "#]],
        expect![[r#""#]],
    );
}

#[test]
fn a_defined_type_and_a_node() {
    check(
        "web::vh|ost {",
        expect![[r#"
        web Class [Declare]: init.pp:5:3 'web::vhost'
    "#]],
        expect![[r#"
        web::name Function [Call]: vhost.pp:2:19 'web::name'
        web::install Class [Declare]: vhost.pp:3:12 'web::install'
    "#]],
    );
    check(
        "node 'www|",
        expect![[r#""#]],
        expect![[r#"
        web Class [Include]: site.pp:2:11 'web'
    "#]],
    );
}

#[test]
fn top_level_code_calls_as_its_file() {
    check(
        "class web::|config",
        expect![[r#"
        site.pp File [Include]: site.pp:4:9 'web::config'
        web Class [Contain]: init.pp:3:12 'web::config'
    "#]],
        expect![[r#"
        web::install Class [Include]: config.pp:2:11 'web::install'
    "#]],
    );
}

#[test]
fn types_and_variables_have_no_hierarchy() {
    let f = fixture(&WORKSPACE.replace("Integer $port = 80", "Integer $p$0ort = 80"));
    let analysis = puppet_ide::snapshot(&f.host);
    assert_eq!(analysis.prepare_call_hierarchy(&f.position).unwrap(), []);
}

/// Lenses count a definition's references (declarations left out) and,
/// for classes, the places that include, contain, require, inherit or
/// declare them.
#[test]
fn code_lenses_count_references_and_includes() {
    let f = fixture(&WORKSPACE.replace("class web::install {", "class web::install {$0"));
    let lenses = puppet_ide::snapshot(&f.host)
        .code_lenses(&f.position.path)
        .unwrap();
    let actual: String = lenses
        .iter()
        .map(|l| {
            let places: Vec<String> = l
                .locations
                .iter()
                .map(|r| {
                    f.render(&r.path, r.range)
                        .rsplit('/')
                        .next()
                        .unwrap_or_default()
                        .to_string()
                })
                .collect();
            format!(
                "{} {}: {}\n",
                f.render(&f.position.path, l.range)
                    .rsplit('/')
                    .next()
                    .unwrap_or_default(),
                l.title,
                places.join(", ")
            )
        })
        .collect();
    expect![[r#"
        install.pp:1:7 'web::install' 4 references: config.pp:2:11 'web::install', init.pp:2:11 'web::install', init.pp:7:35 'web::install', vhost.pp:3:12 'web::install'
        install.pp:1:7 'web::install' included by 3: config.pp:2:11 'web::install', init.pp:2:11 'web::install', vhost.pp:3:12 'web::install'
    "#]].assert_eq(&actual);
    let f = fixture(&WORKSPACE.replace("function web::name(", "function web::name($0"));
    let lenses = puppet_ide::snapshot(&f.host)
        .code_lenses(&f.position.path)
        .unwrap();
    let titles: Vec<&str> = lenses.iter().map(|l| l.title.as_str()).collect();
    assert_eq!(titles, ["2 references"]);
}
