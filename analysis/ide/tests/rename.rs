//! Rename on multi-file fixtures: `$0` marks the cursor; the change is
//! rendered as each edit (`path:line:col 'old' -> 'new'`) and each file move.

mod common;

use common::fixture;
use expect_test::{expect, Expect};

fn check_rename(text: &str, new_name: &str, expect: Expect) {
    let f = fixture(text);
    let analysis = puppet_ide::snapshot(&f.host);
    let actual = match analysis.rename(&f.position, new_name).unwrap() {
        Ok(change) => {
            let mut out = String::new();
            for (path, edits) in &change.edits {
                for edit in edits {
                    out += &format!("{} -> '{}'\n", f.render(path, edit.range), edit.new_text);
                }
            }
            for (from, to) in &change.file_moves {
                out += &format!("move {} -> {}\n", from.display(), to.display());
            }
            out
        }
        Err(message) => format!("error: {message}\n"),
    };
    expect.assert_eq(&actual);
}

fn check_prepare(text: &str, expect: Expect) {
    let f = fixture(text);
    let actual = match puppet_ide::snapshot(&f.host)
        .prepare_rename(&f.position)
        .unwrap()
    {
        Ok(range) => f.render(&f.position.path, range),
        Err(message) => format!("error: {message}"),
    };
    expect.assert_eq(&actual);
}

const MODULES: &str = r#"
#- /ws/modules/ntp/manifests/init.pp
class ntp(Ntp::Port $port = 123) inherits ntp::params {
  include ntp::config
  class { 'ntp::install': version => $ntp::params::version }
  ntp::peer { 'a': weight => $port }
  $x = ntp::helper($port)
  notice("${port} $x")
}
#- /ws/modules/ntp/manifests/params.pp
class ntp::params {
  $version = '4.2'
}
#- /ws/modules/ntp/manifests/config.pp
class ntp::config {
  notice($ntp::port, $ntp::params::version)
  Ntp::Peer['a'] -> Class['ntp::install']
}
#- /ws/modules/ntp/manifests/install.pp
class ntp::install(String $version) { notice($version) }
#- /ws/modules/ntp/manifests/peer.pp
define ntp::peer(Integer $weight = 0) { notice($weight) }
#- /ws/modules/ntp/types/port.pp
type Ntp::Port = Integer[1, 65535]
#- /ws/modules/ntp/functions/helper.pp
function ntp::helper(Ntp::Port $p) >> String { "${p}" }
"#;

fn with(extra: &str) -> String {
    format!("{MODULES}{extra}")
}

#[test]
fn local_variables_and_lambda_parameters() {
    check_rename(
        "#- /ws/a.pp\n$x$0 = 1\nnotice(\"${x} $x\")\n[1].each |$x| { notice($x) }\n",
        "y",
        expect![[r#"
            /ws/a.pp:1:2 'x' -> 'y'
            /ws/a.pp:2:11 'x' -> 'y'
            /ws/a.pp:2:15 'x' -> 'y'
        "#]],
    );
    check_rename(
        "#- /ws/a.pp\n[1].each |$x| { notice($x$0) }\n",
        "$item",
        expect![[r#"
            /ws/a.pp:1:12 'x' -> 'item'
            /ws/a.pp:1:25 'x' -> 'item'
        "#]],
    );
}

#[test]
fn class_parameters_with_attributes_and_qualified_references() {
    check_rename(
        &with("#- /ws/site.pp\nclass { 'ntp': po$0rt => 1 }\n"),
        "ntp_port",
        expect![[r#"
            /ws/modules/ntp/manifests/config.pp:2:16 'port' -> 'ntp_port'
            /ws/modules/ntp/manifests/init.pp:1:22 'port' -> 'ntp_port'
            /ws/modules/ntp/manifests/init.pp:4:31 'port' -> 'ntp_port'
            /ws/modules/ntp/manifests/init.pp:5:21 'port' -> 'ntp_port'
            /ws/modules/ntp/manifests/init.pp:6:13 'port' -> 'ntp_port'
            /ws/site.pp:1:16 'port' -> 'ntp_port'
        "#]],
    );
    check_rename(
        &with("#- /ws/site.pp\nclass { 'ntp::install': version$0 => '1' }\n"),
        "release",
        expect![[r#"
            /ws/modules/ntp/manifests/init.pp:3:27 'version' -> 'release'
            /ws/modules/ntp/manifests/install.pp:1:28 'version' -> 'release'
            /ws/modules/ntp/manifests/install.pp:1:47 'version' -> 'release'
            /ws/site.pp:1:25 'version' -> 'release'
        "#]],
    );
    // A define parameter and the attributes of its declarations.
    check_rename(
        &with("#- /ws/site.pp\nntp::peer { 'b': wei$0ght => 2 }\n"),
        "prio",
        expect![[r#"
            /ws/modules/ntp/manifests/init.pp:4:20 'weight' -> 'prio'
            /ws/modules/ntp/manifests/peer.pp:1:27 'weight' -> 'prio'
            /ws/modules/ntp/manifests/peer.pp:1:49 'weight' -> 'prio'
            /ws/site.pp:1:18 'weight' -> 'prio'
        "#]],
    );
    // A class-scope variable and its qualified references.
    check_rename(
        &with("#- /ws/site.pp\nnotice($ntp::params::vers$0ion)\n"),
        "ver",
        expect![[r#"
            /ws/modules/ntp/manifests/config.pp:2:36 'version' -> 'ver'
            /ws/modules/ntp/manifests/init.pp:3:52 'version' -> 'ver'
            /ws/modules/ntp/manifests/params.pp:2:4 'version' -> 'ver'
            /ws/site.pp:1:22 'version' -> 'ver'
        "#]],
    );
}

#[test]
fn classes_defines_functions_and_type_aliases_move_their_files() {
    check_rename(
        &with("#- /ws/site.pp\ninclude ntp::ins$0tall\n"),
        "ntp::setup",
        expect![[r#"
            /ws/modules/ntp/manifests/config.pp:3:28 'ntp::install' -> 'ntp::setup'
            /ws/modules/ntp/manifests/init.pp:3:12 'ntp::install' -> 'ntp::setup'
            /ws/modules/ntp/manifests/install.pp:1:7 'ntp::install' -> 'ntp::setup'
            /ws/site.pp:1:9 'ntp::install' -> 'ntp::setup'
            move /ws/modules/ntp/manifests/install.pp -> /ws/modules/ntp/manifests/setup.pp
        "#]],
    );
    check_rename(
        &with("#- /ws/site.pp\nntp::pe$0er { 'z': }\n"),
        "ntp::server::peer",
        expect![[r#"
            /ws/modules/ntp/manifests/config.pp:3:3 'Ntp::Peer' -> 'Ntp::Server::Peer'
            /ws/modules/ntp/manifests/init.pp:4:3 'ntp::peer' -> 'ntp::server::peer'
            /ws/modules/ntp/manifests/peer.pp:1:8 'ntp::peer' -> 'ntp::server::peer'
            /ws/site.pp:1:1 'ntp::peer' -> 'ntp::server::peer'
            move /ws/modules/ntp/manifests/peer.pp -> /ws/modules/ntp/manifests/server/peer.pp
        "#]],
    );
    check_rename(
        &with("#- /ws/site.pp\n$a = ntp::hel$0per(1)\n"),
        "ntp::util",
        expect![[r#"
            /ws/modules/ntp/functions/helper.pp:1:10 'ntp::helper' -> 'ntp::util'
            /ws/modules/ntp/manifests/init.pp:5:8 'ntp::helper' -> 'ntp::util'
            /ws/site.pp:1:6 'ntp::helper' -> 'ntp::util'
            move /ws/modules/ntp/functions/helper.pp -> /ws/modules/ntp/functions/util.pp
        "#]],
    );
    check_rename(
        &with("#- /ws/site.pp\nclass s(Ntp::Po$0rt $p) { }\n"),
        "Ntp::Portnum",
        expect![[r#"
            /ws/modules/ntp/functions/helper.pp:1:22 'Ntp::Port' -> 'Ntp::Portnum'
            /ws/modules/ntp/manifests/init.pp:1:11 'Ntp::Port' -> 'Ntp::Portnum'
            /ws/modules/ntp/types/port.pp:1:6 'Ntp::Port' -> 'Ntp::Portnum'
            /ws/site.pp:1:9 'Ntp::Port' -> 'Ntp::Portnum'
            move /ws/modules/ntp/types/port.pp -> /ws/modules/ntp/types/portnum.pp
        "#]],
    );
    // A class defined outside an autoload location is not moved.
    check_rename(
        "#- /ws/site.pp\nclass lo$0cal { }\ninclude local\n",
        "other",
        expect![[r#"
            /ws/site.pp:1:7 'local' -> 'other'
            /ws/site.pp:2:9 'local' -> 'other'
        "#]],
    );
}

#[test]
fn invalid_names_and_things_that_cannot_be_renamed() {
    check_rename(
        &with("#- /ws/site.pp\ninclude ntp::con$0fig\n"),
        "Ntp::Bad",
        expect![[r#"
            error: 'Ntp::Bad' is not a valid name: expected lower-case segments separated by '::' (e.g. mod::config)
        "#]],
    );
    check_rename(
        &with("#- /ws/site.pp\nclass s(Ntp::Po$0rt $p) { }\n"),
        "ntp::port2",
        expect![[r#"
            error: 'ntp::port2' is not a valid name: expected capitalized segments separated by '::' (e.g. Mod::Port)
        "#]],
    );
    check_rename(
        &with("#- /ws/site.pp\ninclude ntp::con$0fig\n"),
        "ntp::params",
        expect![[r#"
            error: 'ntp::params' is already defined
        "#]],
    );
    check_rename(
        "#- /ws/a.pp\n$x$0 = 1\n",
        "1x",
        expect![[r#"
        error: '1x' is not a valid variable name
    "#]],
    );
    check_rename(
        "#- /ws/a.pp\n$x$0 = 1\n",
        "a::b",
        expect![[r#"
        error: 'a::b' is not a valid variable name
    "#]],
    );
    check_rename(
        "#- /ws/a.pp\nnot$0ice(1)\n",
        "say",
        expect![[r#"
        error: 'notice' is built into Puppet and cannot be renamed
    "#]],
    );
    check_rename(
        "#- /ws/a.pp\nfile$0 { '/x': }\n",
        "myfile",
        expect![[r#"
        error: 'file' is built into Puppet and cannot be renamed
    "#]],
    );
    check_rename(
        "#- /ws/a.pp\nnotice($os$0family)\n",
        "os",
        expect![[r#"
        error: '$osfamily' is a fact and cannot be renamed
    "#]],
    );
    check_rename(
        "#- /ws/a.pp\nnotice($fac$0ts)\n",
        "f",
        expect![[r#"
        error: '$facts' is set by Puppet and cannot be renamed
    "#]],
    );
    check_rename(
        "#- /ws/a.pp\ninclude miss$0ing\n",
        "other",
        expect![[r#"
        error: 'missing' is not defined in the workspace
    "#]],
    );
    check_rename(
        "#- /ws/a.pp\n  $0\n",
        "other",
        expect![[r#"
        error: there is nothing to rename here
    "#]],
    );
}

#[test]
fn prepare_rename_ranges() {
    check_prepare("#- /ws/a.pp\n$x$0 = 1\n", expect!["/ws/a.pp:1:2 'x'"]);
    check_prepare(
        &with("#- /ws/site.pp\nnotice($ntp::params::vers$0ion)\n"),
        expect!["/ws/site.pp:1:22 'version'"],
    );
    check_prepare(
        &with("#- /ws/site.pp\ninclude 'ntp::con$0fig'\n"),
        expect!["/ws/site.pp:1:10 'ntp::config'"],
    );
    check_prepare(
        "#- /ws/a.pp\nnotice('lit$0eral')\n",
        expect!["error: there is nothing to rename here"],
    );
}

#[test]
fn rename_reaches_into_inline_epp_templates() {
    // The template of inline_epp() reads the calling scope: renaming the
    // class's variable renames it in the text too, through escapes; the
    // template's parameter of the same name is another variable.
    check_rename(
        r#"
#- /ws/modules/m/manifests/init.pp
class m {
  $x$0 = 1
  notice(inline_epp('it\'s <%= $x %>'))
  notice(inline_epp('<%- | $x | -%><%= $x %>', { 'x' => 2 }))
}
"#,
        "y",
        expect![[r#"
            /ws/modules/m/manifests/init.pp:2:4 'x' -> 'y'
            /ws/modules/m/manifests/init.pp:3:33 'x' -> 'y'
        "#]],
    );
    // From inside the template.
    check_rename(
        r#"
#- /ws/modules/m/manifests/init.pp
class m {
  $x = 1
  notice(inline_epp(@(EPP)))
      <%= $x$0 %>
    | EPP
}
"#,
        "y",
        expect![[r#"
            /ws/modules/m/manifests/init.pp:2:4 'x' -> 'y'
            /ws/modules/m/manifests/init.pp:4:12 'x' -> 'y'
        "#]],
    );
}
