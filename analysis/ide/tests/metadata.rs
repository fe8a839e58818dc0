//! A module's metadata.json in the IDE: hover on a dependency shows the
//! workspace's module of that name against the range, definition opens
//! its metadata.json; hover on the `puppet` requirement.

mod common;

use common::{fixture_at, Fixture};
use expect_test::{expect, Expect};
use std::path::PathBuf;

const WORKSPACE: &str = r#"
#- /ws/modules/app/metadata.json
{
  "name": "acme-app",
  "version": "1.0.0",
  "author": "acme",
  "summary": "An application",
  "license": "Apache-2.0",
  "source": "https://example.com/acme/app",
  "dependencies": [
    {"name": "puppetlabs/stdlib", "version_requirement": ">= 4.13.1 < 10.0.0"},
    {"name": "puppetlabs-concat", "version_requirement": "1.x"},
    {"name": "puppetlabs/apt", "version_requirement": ">= 1.0.0, < 2.0.0"},
    {"name": "camptocamp/systemd"},
    {"name": "puppetlabs/missing", "version_requirement": "2.x"},
    {"name": "acme/bare"}
  ],
  "requirements": [
    {"name": "puppet", "version_requirement": ">= 6.0.0 < 8.0.0"},
    {"name": "bolt", "version_requirement": ">= 3.0.0"}
  ]
}
#- /ws/modules/app/manifests/init.pp
class app {}
#- /ws/modules/stdlib/metadata.json
{"name": "puppetlabs-stdlib", "version": "9.4.1", "author": "puppetlabs", "summary": "Standard library of resources for Puppet modules.", "license": "Apache-2.0", "source": "x", "dependencies": []}
#- /ws/modules/concat/metadata.json
{"name": "puppetlabs-concat", "version": "7.3.0", "author": "puppetlabs", "summary": "Files from fragments", "license": "Apache-2.0", "source": "x", "dependencies": []}
#- /ws/modules/apt/metadata.json
{"name": "puppetlabs-apt", "version": "9.0.0", "author": "puppetlabs", "summary": "APT", "license": "Apache-2.0", "source": "x", "dependencies": []}
#- /ws/modules/systemd/metadata.json
{"name": "puppet-systemd", "version": "3.0.0", "author": "puppet", "summary": "systemd", "license": "Apache-2.0", "source": "x", "dependencies": []}
#- /ws/modules/bare/manifests/init.pp
class bare {}
"#;

/// The workspace with a cursor at `$0`, placed in the text `marked`.
fn at(marked: &str) -> Fixture {
    let text = WORKSPACE.replacen(&marked.replace("$0", ""), marked, 1);
    assert_ne!(text, WORKSPACE, "{marked} is in the workspace");
    let f = fixture_at("/ws", &text);
    assert_eq!(
        f.position.path,
        PathBuf::from("/ws/modules/app/metadata.json")
    );
    f
}

fn hover(marked: &str, expected: Expect) {
    let f = at(marked);
    let hover = puppet_ide::snapshot(&f.host)
        .hover(&f.position)
        .expect("not cancelled")
        .expect("a hover");
    let shown = format!(
        "{}\n{}",
        f.render(&f.position.path, hover.range),
        hover.markdown
    );
    expected.assert_eq(&shown);
}

#[test]
fn hover_on_a_dependency_in_its_range() {
    hover(
        r#""puppetlabs/std$0lib""#,
        expect![[r#"
            /ws/modules/app/metadata.json:9:14 '"puppetlabs/stdlib"'
            **puppetlabs/stdlib** `>= 4.13.1 < 10.0.0`

            Module `puppetlabs-stdlib` 9.4.1, in the workspace at `/ws/modules/stdlib`.

            Standard library of resources for Puppet modules.

            Version 9.4.1 satisfies `>= 4.13.1 < 10.0.0`.
        "#]],
    );
}

#[test]
fn hover_on_dependencies_the_workspace_does_not_meet() {
    hover(
        r#""puppetlabs-con$0cat""#,
        expect![[r#"
            /ws/modules/app/metadata.json:10:14 '"puppetlabs-concat"'
            **puppetlabs-concat** `1.x`

            Module `puppetlabs-concat` 7.3.0, in the workspace at `/ws/modules/concat`.

            Files from fragments

            Version 7.3.0 is outside `1.x`: `puppet module list` reports the dependency unmet.
        "#]],
    );
    hover(
        r#""puppetlabs/a$0pt""#,
        expect![[r#"
            /ws/modules/app/metadata.json:11:14 '"puppetlabs/apt"'
            **puppetlabs/apt** `>= 1.0.0, < 2.0.0`

            Module `puppetlabs-apt` 9.0.0, in the workspace at `/ws/modules/apt`.

            APT

            Unparsable version range: ">= 1.0.0, < 2.0.0".
        "#]],
    );
    hover(
        r#""camptocamp/sys$0temd""#,
        expect![[r#"
            /ws/modules/app/metadata.json:12:14 '"camptocamp/systemd"'
            **camptocamp/systemd** `>= 0.0.0`

            Module `puppet-systemd` 3.0.0, in the workspace at `/ws/modules/systemd`.

            systemd

            The module is `puppet-systemd`, not `camptocamp/systemd`: `puppet module list` reports the dependency missing.
        "#]],
    );
    hover(
        r#""puppetlabs/miss$0ing""#,
        expect![[r#"
            /ws/modules/app/metadata.json:13:14 '"puppetlabs/missing"'
            **puppetlabs/missing** `2.x`

            No module of the workspace is named `missing`.
        "#]],
    );
    hover(
        r#""acme/ba$0re""#,
        expect![[r#"
            /ws/modules/app/metadata.json:14:14 '"acme/bare"'
            **acme/bare** `>= 0.0.0`

            The workspace's module `bare` (`/ws/modules/bare`) has no metadata.json: its version is unknown.
        "#]],
    );
}

#[test]
fn hover_on_the_puppet_requirement() {
    hover(
        r#""pup$0pet", "version_requirement": ">= 6.0.0 < 8.0.0""#,
        expect![[r#"
            /ws/modules/app/metadata.json:17:14 '"puppet"'
            **puppet** `>= 6.0.0 < 8.0.0`

            Puppet 7.23 allowed, Puppet 8.10 excluded.

            puppet-ls checks this workspace for Puppet 8 (`strict = error`, `strict_variables = true`); the version is the default.
        "#]],
    );
}

#[test]
fn no_hover_outside_dependency_names() {
    let f = at(r#""summary": "An app$0lication""#);
    let hover = puppet_ide::snapshot(&f.host)
        .hover(&f.position)
        .expect("not cancelled");
    assert_eq!(hover, None);
}

fn definition(marked: &str) -> String {
    let f = at(marked);
    let targets = puppet_ide::snapshot(&f.host)
        .goto_definition(&f.position)
        .expect("not cancelled");
    targets
        .iter()
        .map(|t| {
            let text = f.texts[&t.path].clone();
            let full = &text[t.full_range];
            format!(
                "{} {:?} {} (whole file: {})\n",
                f.render(&t.path, t.focus_range),
                t.kind,
                t.name,
                full.len() == text.len()
            )
        })
        .collect()
}

#[test]
fn definition_opens_the_module_metadata() {
    expect![[r#"
        /ws/modules/stdlib/metadata.json:1:10 '"puppetlabs-stdlib"' Module puppetlabs-stdlib (whole file: true)
    "#]]
    .assert_eq(&definition(r#""puppetlabs/std$0lib""#));
    // A module without metadata.json: its main class.
    expect![[r#"
        /ws/modules/bare/manifests/init.pp:1:7 'bare' Class bare (whole file: false)
    "#]]
    .assert_eq(&definition(r#""acme/ba$0re""#));
    assert_eq!(definition(r#""puppetlabs/miss$0ing""#), "");
    assert_eq!(definition(r#""summary": "An app$0lication""#), "");
}
