//! Go to definition, find references, highlight and workspace symbols on
//! multi-file fixtures. `$0` marks the cursor; results are rendered as
//! `path:line:col 'text'` (1-based line and column).

mod common;

use common::fixture;
use expect_test::{expect, Expect};
use puppet_ide::FilePosition;
use puppet_syntax::TextSize;
use std::path::PathBuf;

fn check_definition(text: &str, expect: Expect) {
    let f = fixture(text);
    let targets = puppet_ide::snapshot(&f.host)
        .goto_definition(&f.position)
        .unwrap();
    let actual: String = targets
        .iter()
        .map(|t| {
            let full = f.render(&t.path, t.full_range);
            let full_first_line = full.lines().next().unwrap_or_default().to_string();
            format!(
                "{} {:?} {} (full {})\n",
                f.render(&t.path, t.focus_range),
                t.kind,
                t.name,
                full_first_line
            )
        })
        .collect();
    expect.assert_eq(&actual);
}

fn check_references(text: &str, include_declaration: bool, expect: Expect) {
    let f = fixture(text);
    let refs = puppet_ide::snapshot(&f.host)
        .find_references(&f.position, include_declaration)
        .unwrap();
    expect.assert_eq(&f.render_ranges(&refs));
}

fn check_highlight(text: &str, expect: Expect) {
    let f = fixture(text);
    let found = puppet_ide::snapshot(&f.host)
        .highlight(&f.position)
        .unwrap();
    let actual: String = found
        .iter()
        .map(|(range, kind)| format!("{} {kind:?}\n", f.render(&f.position.path, *range)))
        .collect();
    expect.assert_eq(&actual);
}

const MODULES: &str = r#"
#- /ws/modules/ntp/manifests/init.pp
class ntp(
  Ntp::Port $port = 123,
  String $server = 'pool',
) inherits ntp::params {
  include ntp::config
  contain 'ntp::service'
  class { 'ntp::install': version => $ntp::params::version }
  ntp::peer { 'a': weight => 1 }
  file { '/etc/ntp.conf': content => epp('ntp/ntp.conf.epp') }
  $x = ntp::helper($port)
  notice("${x} $server", $ntp::params::version, $::osfamily)
}
#- /ws/modules/ntp/manifests/params.pp
class ntp::params {
  $version = '4.2'
}
#- /ws/modules/ntp/manifests/config.pp
class ntp::config {
  require ntp
  File['/etc/ntp.conf'] -> Class['ntp::service']
  Ntp::Peer['a'] ~> Class[Ntp::Install]
}
#- /ws/modules/ntp/manifests/service.pp
class ntp::service { }
#- /ws/modules/ntp/manifests/install.pp
class ntp::install(String $version) { }
#- /ws/modules/ntp/manifests/peer.pp
define ntp::peer(Integer $weight = 0) { }
#- /ws/modules/ntp/types/port.pp
type Ntp::Port = Ntp::Range
#- /ws/modules/ntp/types/range.pp
type Ntp::Range = Integer[1, 65535]
#- /ws/modules/ntp/functions/helper.pp
function ntp::helper(Ntp::Port $p) >> String { "${p}" }
#- /ws/modules/ntp/templates/ntp.conf.epp
<%- | $servers = [] | -%>
server <%= $servers %>
#- /ws/modules/ntp/lib/puppet/type/ntp_key.rb
Puppet::Type.newtype(:ntp_key) do
  newparam(:name, :namevar => true)
end
#- /ws/modules/ntp/lib/puppet/functions/ntp/checksum.rb
Puppet::Functions.create_function(:'ntp::checksum') do
end
#- /ws/modules/ntp/lib/puppet/parser/functions/ntp_legacy.rb
module Puppet::Parser::Functions
  newfunction(:ntp_legacy, :type => :rvalue) do |args|
  end
end
"#;

/// The shared workspace with one more file holding the cursor.
fn with(extra: &str) -> String {
    format!("{MODULES}{extra}")
}

#[test]
fn class_in_include_string_and_bare_word() {
    check_definition(
        &with("#- /ws/site.pp\ninclude ntp::con$0fig\n"),
        expect![[r#"
            /ws/modules/ntp/manifests/config.pp:1:7 'ntp::config' Class ntp::config (full /ws/modules/ntp/manifests/config.pp:1:1 'class ntp::config {)
        "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\ninclude ['ntp', 'ntp::serv$0ice']\n"),
        expect![[r#"
            /ws/modules/ntp/manifests/service.pp:1:7 'ntp::service' Class ntp::service (full /ws/modules/ntp/manifests/service.pp:1:1 'class ntp::service { }')
        "#]],
    );
}

#[test]
fn class_in_resource_like_declaration_reference_and_inherits() {
    check_definition(
        &with("#- /ws/site.pp\nclass { 'ntp::inst$0all': version => '1' }\n"),
        expect![[r#"
            /ws/modules/ntp/manifests/install.pp:1:7 'ntp::install' Class ntp::install (full /ws/modules/ntp/manifests/install.pp:1:1 'class ntp::install(String $version) { }')
        "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\nnotice(Class['ntp::ser$0vice'])\n"),
        expect![[r#"
            /ws/modules/ntp/manifests/service.pp:1:7 'ntp::service' Class ntp::service (full /ws/modules/ntp/manifests/service.pp:1:1 'class ntp::service { }')
        "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\nnotice(Class[Ntp::Ins$0tall])\n"),
        expect![[r#"
            /ws/modules/ntp/manifests/install.pp:1:7 'ntp::install' Class ntp::install (full /ws/modules/ntp/manifests/install.pp:1:1 'class ntp::install(String $version) { }')
        "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\nclass site::x inherits ntp::par$0ams { }\n"),
        expect![[r#"
            /ws/modules/ntp/manifests/params.pp:1:7 'ntp::params' Class ntp::params (full /ws/modules/ntp/manifests/params.pp:1:1 'class ntp::params {)
        "#]],
    );
}

#[test]
fn type_aliases_in_parameters_aliases_and_other_modules() {
    // Autoloaded from the module's types/, used in a parameter type.
    check_definition(
        &with("#- /ws/site.pp\nclass site(Ntp::P$0ort $p) { }\n"),
        expect![[r#"
        /ws/modules/ntp/types/port.pp:1:6 'Ntp::Port' TypeAlias Ntp::Port (full /ws/modules/ntp/types/port.pp:1:1 'type Ntp::Port = Ntp::Range')
    "#]],
    );
    // Used inside another alias.
    check_definition(
        &with("#- /ws/site.pp\ntype Site::T = Array[Ntp::Ran$0ge]\n"),
        expect![[r#"
            /ws/modules/ntp/types/range.pp:1:6 'Ntp::Range' TypeAlias Ntp::Range (full /ws/modules/ntp/types/range.pp:1:1 'type Ntp::Range = Integer[1, 65535]')
        "#]],
    );
    // Defined in the same file.
    check_definition(
        "#- /ws/site.pp\ntype Local = String\nfunction f(Optional[Lo$0cal] $x) { }\n",
        expect![[r#"
            /ws/site.pp:1:6 'Local' TypeAlias Local (full /ws/site.pp:1:1 'type Local = String')
        "#]],
    );
}

#[test]
fn defined_types_and_ruby_types() {
    check_definition(
        &with("#- /ws/site.pp\nntp::pe$0er { 'b': }\n"),
        expect![[r#"
        /ws/modules/ntp/manifests/peer.pp:1:8 'ntp::peer' DefinedType ntp::peer (full /ws/modules/ntp/manifests/peer.pp:1:1 'define ntp::peer(Integer $weight = 0) { }')
    "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\nnotice(Ntp::Pe$0er['a'])\n"),
        expect![[r#"
        /ws/modules/ntp/manifests/peer.pp:1:8 'ntp::peer' DefinedType ntp::peer (full /ws/modules/ntp/manifests/peer.pp:1:1 'define ntp::peer(Integer $weight = 0) { }')
    "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\nntp_k$0ey { 'k': }\n"),
        expect![[r#"
        /ws/modules/ntp/lib/puppet/type/ntp_key.rb:1:23 'ntp_key' ResourceType ntp_key (full /ws/modules/ntp/lib/puppet/type/ntp_key.rb:1:23 'ntp_key')
    "#]],
    );
}

#[test]
fn functions_in_puppet_and_ruby() {
    check_definition(
        &with("#- /ws/site.pp\n$a = ntp::hel$0per(1)\n"),
        expect![[r#"
        /ws/modules/ntp/functions/helper.pp:1:10 'ntp::helper' Function ntp::helper (full /ws/modules/ntp/functions/helper.pp:1:1 'function ntp::helper(Ntp::Port $p) >> String { "${p}" }')
    "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\n$a = ntp::check$0sum(1)\n"),
        expect![[r#"
        /ws/modules/ntp/lib/puppet/functions/ntp/checksum.rb:1:37 'ntp::checksum' Function ntp::checksum (full /ws/modules/ntp/lib/puppet/functions/ntp/checksum.rb:1:37 'ntp::checksum')
    "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\n$a = [1].ntp_leg$0acy()\n"),
        expect![[r#"
        /ws/modules/ntp/lib/puppet/parser/functions/ntp_legacy.rb:2:16 'ntp_legacy' Function ntp_legacy (full /ws/modules/ntp/lib/puppet/parser/functions/ntp_legacy.rb:2:16 'ntp_legacy')
    "#]],
    );
    // A built-in function is defined nowhere in the workspace.
    check_definition(&with("#- /ws/site.pp\nnot$0ice(1)\n"), expect![[""]]);
}

#[test]
fn variables_and_parameters() {
    check_definition(
        "#- /ws/site.pp\nclass a(String $p) {\n  $v = $p\n  notice(\"${v$0}\")\n}\n",
        expect![[r#"
            /ws/site.pp:2:3 '$v' Variable v (full /ws/site.pp:2:3 '$v = $p')
        "#]],
    );
    check_definition(
        "#- /ws/site.pp\nclass a(String $p) {\n  notice(\"x $p$0\")\n}\n",
        expect![[r#"
            /ws/site.pp:1:16 '$p' Parameter p (full /ws/site.pp:1:9 'String $p')
        "#]],
    );
    check_definition(
        "#- /ws/site.pp\n$list.each |$i| { notice($i$0) }\n",
        expect![[r#"
            /ws/site.pp:1:13 '$i' Variable i (full /ws/site.pp:1:13 '$i')
        "#]],
    );
    // Exclusive branches: both assignments.
    check_definition(
        "#- /ws/site.pp\nif $c { $v = 1 } else { $v = 2 }\nnotice($v$0)\n",
        expect![[r#"
            /ws/site.pp:1:9 '$v' Variable v (full /ws/site.pp:1:9 '$v = 1')
            /ws/site.pp:1:25 '$v' Variable v (full /ws/site.pp:1:25 '$v = 2')
        "#]],
    );
}

#[test]
fn qualified_and_inherited_variables_and_attributes() {
    check_definition(
        &with("#- /ws/site.pp\nnotice($ntp::params::vers$0ion)\n"),
        expect![[r#"
            /ws/modules/ntp/manifests/params.pp:2:3 '$version' Variable version (full /ws/modules/ntp/manifests/params.pp:2:3 '$version = '4.2'')
        "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\nclass site inherits ntp::params { notice($vers$0ion) }\n"),
        expect![[r#"
            /ws/modules/ntp/manifests/params.pp:2:3 '$version' Variable version (full /ws/modules/ntp/manifests/params.pp:2:3 '$version = '4.2'')
        "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\nclass { 'ntp::install': vers$0ion => '1' }\n"),
        expect![[r#"
            /ws/modules/ntp/manifests/install.pp:1:27 '$version' Parameter version (full /ws/modules/ntp/manifests/install.pp:1:20 'String $version')
        "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\nntp::peer { 'b': weig$0ht => 2 }\n"),
        expect![[r#"
        /ws/modules/ntp/manifests/peer.pp:1:26 '$weight' Parameter weight (full /ws/modules/ntp/manifests/peer.pp:1:18 'Integer $weight = 0')
    "#]],
    );
    // A top-scope variable of another file.
    check_definition(
        "#- /ws/manifests/a.pp\n$region = 'eu'\n#- /ws/manifests/b.pp\nnode default { notice($reg$0ion) }\n",
        expect![[r#"
            /ws/manifests/a.pp:1:1 '$region' Variable region (full /ws/manifests/a.pp:1:1 '$region = 'eu'')
        "#]],
    );
}

#[test]
fn resources_and_templates() {
    check_definition(
        &with("#- /ws/site.pp\nnotice(File['/etc/ntp$0.conf'])\n"),
        expect![[r#"
            /ws/modules/ntp/manifests/init.pp:9:11 '/etc/ntp.conf' Resource /etc/ntp.conf (full /ws/modules/ntp/manifests/init.pp:9:10 ''/etc/ntp.conf': content => epp('ntp/ntp.conf.epp')')
        "#]],
    );
    check_definition(
        &with("#- /ws/site.pp\n$t = epp('ntp/ntp.c$0onf.epp')\n"),
        expect![[r#"
            /ws/modules/ntp/templates/ntp.conf.epp:1:1 '' Template ntp.conf.epp (full /ws/modules/ntp/templates/ntp.conf.epp:1:1 '<%- | $servers = [] | -%>)
        "#]],
    );
    // A template that does not exist.
    check_definition(
        &with("#- /ws/site.pp\n$t = epp('ntp/mis$0sing.epp')\n"),
        expect![[""]],
    );
}

#[test]
fn nothing_to_go_to() {
    // Whitespace, punctuation, a fact, a literal, broken code, past the end.
    check_definition("#- /ws/a.pp\nclass a {  $0 }\n", expect![[""]]);
    check_definition("#- /ws/a.pp\nnotice($facts$0)\n", expect![[""]]);
    check_definition("#- /ws/a.pp\n$x = 4$02\n", expect![[""]]);
    check_definition("#- /ws/a.pp\nclass a { include $0\n", expect![[""]]);
    check_definition("#- /ws/a.pp\nclass { 'b$0\n", expect![[""]]);
    let f = fixture("#- /ws/a.pp\n$0$x = 1\n");
    let past_end = FilePosition {
        path: f.position.path.clone(),
        offset: TextSize::new(10_000),
    };
    let analysis = puppet_ide::snapshot(&f.host);
    assert!(analysis.goto_definition(&past_end).unwrap().is_empty());
    assert!(analysis
        .find_references(&past_end, true)
        .unwrap()
        .is_empty());
    assert!(analysis.highlight(&past_end).unwrap().is_empty());
    let unknown = FilePosition {
        path: PathBuf::from("/nowhere.pp"),
        offset: TextSize::new(0),
    };
    assert!(analysis.goto_definition(&unknown).unwrap().is_empty());
}

#[test]
fn references_of_a_class() {
    check_references(
        &with("#- /ws/site.pp\ninclude ntp::serv$0ice\n"),
        true,
        expect![[r#"
        /ws/modules/ntp/manifests/config.pp:3:35 'ntp::service'
        /ws/modules/ntp/manifests/init.pp:6:12 'ntp::service'
        /ws/modules/ntp/manifests/service.pp:1:7 'ntp::service'
        /ws/site.pp:1:9 'ntp::service'
    "#]],
    );
    check_references(
        &with("#- /ws/site.pp\ninclude ntp::par$0ams\n"),
        false,
        expect![[r#"
        /ws/modules/ntp/manifests/init.pp:4:12 'ntp::params'
        /ws/modules/ntp/manifests/init.pp:7:39 'ntp::params'
        /ws/modules/ntp/manifests/init.pp:11:27 'ntp::params'
        /ws/site.pp:1:9 'ntp::params'
    "#]],
    );
}

#[test]
fn references_of_types_functions_and_defines() {
    check_references(
        &with("#- /ws/site.pp\nclass s(Ntp::Po$0rt $p) { }\n"),
        true,
        expect![[r#"
        /ws/modules/ntp/functions/helper.pp:1:22 'Ntp::Port'
        /ws/modules/ntp/manifests/init.pp:2:3 'Ntp::Port'
        /ws/modules/ntp/types/port.pp:1:6 'Ntp::Port'
        /ws/site.pp:1:9 'Ntp::Port'
    "#]],
    );
    check_references(
        &with("#- /ws/site.pp\n$a = ntp::he$0lper(1)\n"),
        true,
        expect![[r#"
        /ws/modules/ntp/functions/helper.pp:1:10 'ntp::helper'
        /ws/modules/ntp/manifests/init.pp:10:8 'ntp::helper'
        /ws/site.pp:1:6 'ntp::helper'
    "#]],
    );
    check_references(
        &with("#- /ws/site.pp\nntp::pe$0er { 'z': }\n"),
        true,
        expect![[r#"
        /ws/modules/ntp/manifests/config.pp:4:3 'Ntp::Peer'
        /ws/modules/ntp/manifests/init.pp:8:3 'ntp::peer'
        /ws/modules/ntp/manifests/peer.pp:1:8 'ntp::peer'
        /ws/site.pp:1:1 'ntp::peer'
    "#]],
    );
}

#[test]
fn references_of_parameters_and_variables() {
    // A class parameter: inside the class, qualified, and as an attribute.
    check_references(
        &with("#- /ws/site.pp\nclass { 'ntp::install': version$0 => '1' }\nnotice($ntp::install::version)\n"),
        true,
        expect![[r#"
            /ws/modules/ntp/manifests/init.pp:7:27 'version'
            /ws/modules/ntp/manifests/install.pp:1:27 '$version'
            /ws/site.pp:1:25 'version'
            /ws/site.pp:2:8 '$ntp::install::version'
        "#]],
    );
    check_references(
        &with("#- /ws/site.pp\nnotice($ntp::params::version$0)\n"),
        false,
        expect![[r#"
        /ws/modules/ntp/manifests/init.pp:7:38 '$ntp::params::version'
        /ws/modules/ntp/manifests/init.pp:11:26 '$ntp::params::version'
        /ws/site.pp:1:8 '$ntp::params::version'
    "#]],
    );
    check_references(
        &with("#- /ws/site.pp\nnotice(File['/etc/ntp.co$0nf'])\n"),
        true,
        expect![[r#"
        /ws/modules/ntp/manifests/config.pp:3:9 '/etc/ntp.conf'
        /ws/modules/ntp/manifests/init.pp:9:11 '/etc/ntp.conf'
        /ws/site.pp:1:14 '/etc/ntp.conf'
    "#]],
    );
}

#[test]
fn highlight_in_a_file() {
    check_highlight(
        "#- /ws/a.pp\nclass a(String $p) {\n  $v = \"${p}\"\n  notice($v, $p$0)\n  $list.each |$p| { notice($p) }\n}\n",
        expect![[r#"
            /ws/a.pp:1:16 '$p' Write
            /ws/a.pp:2:11 'p' Read
            /ws/a.pp:3:14 '$p' Read
        "#]],
    );
    check_highlight(
        &with("#- /ws/site.pp\ninclude ntp\nclass { 'ntp$0': }\nClass['ntp'] -> Class[Ntp]\n"),
        expect![[r#"
            /ws/site.pp:1:9 'ntp' Read
            /ws/site.pp:2:10 'ntp' Text
            /ws/site.pp:3:8 'ntp' Text
            /ws/site.pp:3:23 'Ntp' Read
        "#]],
    );
}

fn check_symbols(query: &str, expect: Expect) {
    let f = fixture(&with("#- /ws/site.pp\n$0node default { }\n"));
    let symbols = puppet_ide::snapshot(&f.host)
        .workspace_symbols(query, 5)
        .unwrap();
    let actual: String = symbols
        .iter()
        .map(|s| {
            format!(
                "{} {:?} {}\n",
                f.render(&s.path, s.focus_range),
                s.kind,
                s.name
            )
        })
        .collect();
    expect.assert_eq(&actual);
}

#[test]
fn workspace_symbols_fuzzy_and_ranked() {
    // Exact first, then prefixes, then segment prefixes, then subsequences.
    check_symbols(
        "ntp",
        expect![[r#"
        /ws/modules/ntp/manifests/init.pp:1:7 'ntp' Class ntp
        /ws/modules/ntp/lib/puppet/type/ntp_key.rb:1:23 'ntp_key' ResourceType ntp_key
        /ws/modules/ntp/types/port.pp:1:6 'Ntp::Port' TypeAlias Ntp::Port
        /ws/modules/ntp/manifests/peer.pp:1:8 'ntp::peer' DefinedType ntp::peer
        /ws/modules/ntp/types/range.pp:1:6 'Ntp::Range' TypeAlias Ntp::Range
    "#]],
    );
    check_symbols(
        "n::p",
        expect![[r#"
        /ws/modules/ntp/types/port.pp:1:6 'Ntp::Port' TypeAlias Ntp::Port
        /ws/modules/ntp/manifests/peer.pp:1:8 'ntp::peer' DefinedType ntp::peer
        /ws/modules/ntp/manifests/params.pp:1:7 'ntp::params' Class ntp::params
        /ws/modules/ntp/functions/helper.pp:1:10 'ntp::helper' Function ntp::helper
    "#]],
    );
    check_symbols(
        "PORT",
        expect![[r#"
        /ws/modules/ntp/types/port.pp:1:6 'Ntp::Port' TypeAlias Ntp::Port
    "#]],
    );
    check_symbols(
        "chksm",
        expect![[r#"
        /ws/modules/ntp/lib/puppet/functions/ntp/checksum.rb:1:37 'ntp::checksum' Function ntp::checksum
    "#]],
    );
    check_symbols(
        "default",
        expect![[r#"
        /ws/site.pp:1:6 'default' Node default
    "#]],
    );
    check_symbols("zzz", expect![[""]]);
}

/// The symbol index follows edits: a class added, renamed or removed in a
/// file is found, or no longer found, by the next search, and an edit inside
/// a body moves the result's position.
#[test]
fn workspace_symbols_follow_edits() {
    let mut f = fixture(&with("#- /ws/site.pp\n$0node default { }\n"));
    let search = |f: &common::Fixture, query: &str| -> Vec<String> {
        puppet_ide::snapshot(&f.host)
            .workspace_symbols(query, 10)
            .unwrap()
            .iter()
            .map(|s| format!("{} {}:{:?}", s.name, s.path.display(), s.focus_range))
            .collect()
    };
    let path = PathBuf::from("/ws/site.pp");
    assert!(search(&f, "web::app").is_empty());
    f.host
        .set_file(&path, "class web::app { }\nnode default { }\n".into());
    assert_eq!(search(&f, "web::app"), ["web::app /ws/site.pp:6..14"]);
    f.host
        .set_file(&path, "\n\nclass web::app { }\nnode default { }\n".into());
    assert_eq!(search(&f, "web::app"), ["web::app /ws/site.pp:8..16"]);
    f.host
        .set_file(&path, "class web::api { }\nnode default { }\n".into());
    assert!(search(&f, "web::app").is_empty());
    assert_eq!(search(&f, "web::api"), ["web::api /ws/site.pp:6..14"]);
    f.host.set_file(&path, "node default { }\n".into());
    assert!(search(&f, "web::").is_empty());
    assert_eq!(search(&f, "default"), ["default /ws/site.pp:5..12"]);
}

#[test]
fn inline_epp_template_variables_resolve_in_the_calling_scope() {
    check_definition(
        r#"
#- /ws/modules/m/manifests/init.pp
class m {
  $x = 1
  notice(inline_epp('\\ <%= $x$0 %>'))
}
"#,
        expect![[r#"
            /ws/modules/m/manifests/init.pp:2:3 '$x' Variable x (full /ws/modules/m/manifests/init.pp:2:3 '$x = 1')
        "#]],
    );
    check_references(
        r#"
#- /ws/modules/m/manifests/init.pp
class m {
  $x$0 = 1
  notice(inline_epp('<%= $x %> <%= [1].map |$x| { $x } %>'))
  notice(inline_epp('<%- | $p = $x | -%><%= $p %>'))
}
"#,
        true,
        expect![[r#"
            /ws/modules/m/manifests/init.pp:2:3 '$x'
            /ws/modules/m/manifests/init.pp:3:26 '$x'
            /ws/modules/m/manifests/init.pp:4:33 '$x'
        "#]],
    );
}

/// Every feature at every offset of `inline_epp()` templates (written
/// out with escapes, in a heredoc, broken) answers without panicking.
#[test]
fn every_offset_of_inline_epp_templates_is_safe() {
    let text = r#"#- /ws/modules/m/manifests/init.pp
class m {
  $x = 'é'
  notice(inline_epp('\\ it\'s <%= $x %> <%= $nope %> <%- |$p| -%>', { 'p' => 1 }))
  notice(inline_epp("\t\$x <%= \$x %> \u{1F600} <%= \$x"))
  notice(inline_epp(@(EPP/t), $x))
      <%= inline_epp('<%= $x %>') %>\t<% $y = 1 %>
    | EPP
  notice(inline_epp('<%= $x
"#;
    answer_at_every_offset(text);
}

/// Every feature at every offset (inside multi-byte characters, in broken
/// code, past the end) answers without panicking.
#[test]
fn every_offset_of_odd_code_is_safe() {
    let text = r#"#- /ws/modules/m/manifests/init.pp
class m(Stri $p = 'é€', $::q) inherits {
  include 'ü', [m::, ]
  class { 'm': p => , * => {} }
  $x = "${p} ${::m::p} $m::"
  M::T['", ;
  [$a, $b] = $x.each |$y| { notice($y, $ö) }
  File[
  type X =
"#;
    let analysis = answer_at_every_offset(text);
    assert!(analysis.workspace_symbols("", 10).unwrap().len() <= 10);
}

/// Asks every position feature at every offset of the fixture's file
/// (and a little past its end): each must answer without an error or a
/// panic. Returns the snapshot for further questions.
fn answer_at_every_offset(text: &str) -> puppet_ide::Analysis {
    let f = fixture(&format!("{text}$0"));
    let analysis = puppet_ide::snapshot(&f.host);
    let len = f.texts[&f.position.path].len() as u32;
    for offset in 0..len + 3 {
        let pos = FilePosition {
            path: f.position.path.clone(),
            offset: TextSize::new(offset),
        };
        analysis.goto_definition(&pos).unwrap();
        analysis.find_references(&pos, true).unwrap();
        analysis.highlight(&pos).unwrap();
        let _ = analysis.prepare_rename(&pos).unwrap();
        let _ = analysis.rename(&pos, "n").unwrap();
        let _ = analysis.hover(&pos).unwrap();
        let _ = analysis.completions(&pos).unwrap();
    }
    analysis
}

#[test]
fn type_definition_goes_to_the_aliases_a_variables_type_names() {
    let text = r#"
#- /ws/modules/web/types/port.pp
type Web::Port = Integer[1, 65535]
#- /ws/modules/web/types/host.pp
type Web::Host = String[1]
#- /ws/modules/web/manifests/init.pp
class web(Web::Port $port, Optional[Struct[{ host => Web::Host, port => Web::Port }]] $site = undef, String $name = 'x') {
  notice($po$0rt)
}
"#;
    let targets = |text: &str| {
        let f = fixture(text);
        let found = puppet_ide::snapshot(&f.host)
            .goto_type_definition(&f.position)
            .unwrap();
        found
            .iter()
            .map(|t| f.render(&t.path, t.focus_range))
            .collect::<Vec<_>>()
    };
    expect![[r#"
        [
            "/ws/modules/web/types/port.pp:1:6 'Web::Port'",
        ]
    "#]]
    .assert_debug_eq(&targets(text));
    let site = text.replace("notice($po$0rt)", "notice($si$0te)");
    expect![[r#"
        [
            "/ws/modules/web/types/host.pp:1:6 'Web::Host'",
            "/ws/modules/web/types/port.pp:1:6 'Web::Port'",
        ]
    "#]]
    .assert_debug_eq(&targets(&site));
    // A built-in type has no definition in the workspace.
    let name = text.replace("notice($po$0rt)", "notice($na$0me)");
    assert!(targets(&name).is_empty());
}

/// Strings naming a module's files link to them when they exist: every
/// template of `template()`, the template of `epp()` (with `.epp` added),
/// each name of `file()`, each `puppet:///modules/` URL of a `source`.
#[test]
fn document_links_to_templates_and_files() {
    let f = fixture(
        r#"
#- /ws/modules/web/templates/a.erb
#- /ws/modules/web/templates/sub/b.erb
#- /ws/modules/web/templates/c.conf.epp
#- /ws/modules/web/files/motd
#- /ws/modules/web/manifests/init.pp
class web {$0
  file { '/a': content => template('web/a.erb', "web/sub/b.erb", 'web/gone.erb') }
  file { '/c': content => epp('web/c.conf', { 'x' => 'web/a.erb' }) }
  file { '/f': content => file('web/nope', 'web/motd') }
  file { '/s': source => ['puppet:///modules/web/motd', 'puppet://srv/modules/web/motd', 'puppet:///files/motd'] }
  file { '/x': source => "puppet:///modules/${module_name}/motd" }
  file { '/y': source => "puppet:///modules/${module_name}/${x}" }
  file { '/o': content => template('other/a.erb') }
}
"#,
    );
    let links = puppet_ide::snapshot(&f.host)
        .document_links(&f.position.path)
        .unwrap();
    let actual: String = links
        .iter()
        .map(|l| {
            format!(
                "{} -> {}\n",
                f.render(&f.position.path, l.range),
                l.target.display()
            )
        })
        .collect();
    expect![[r#"
        /ws/modules/web/manifests/init.pp:2:37 'web/a.erb' -> /ws/modules/web/templates/a.erb
        /ws/modules/web/manifests/init.pp:2:50 'web/sub/b.erb' -> /ws/modules/web/templates/sub/b.erb
        /ws/modules/web/manifests/init.pp:3:32 'web/c.conf' -> /ws/modules/web/templates/c.conf.epp
        /ws/modules/web/manifests/init.pp:4:45 'web/motd' -> /ws/modules/web/files/motd
        /ws/modules/web/manifests/init.pp:5:28 'puppet:///modules/web/motd' -> /ws/modules/web/files/motd
        /ws/modules/web/manifests/init.pp:5:58 'puppet://srv/modules/web/motd' -> /ws/modules/web/files/motd
        /ws/modules/web/manifests/init.pp:6:27 'puppet:///modules/${module_name}/motd' -> /ws/modules/web/files/motd
    "#]].assert_eq(&actual);
}
