//! Completion by context, on fixtures with a `$0` cursor marker.
//! Snapshots render one item per line: label, kind, detail (and the insert
//! text when it differs from the label). `UPDATE_EXPECT=1` updates them.

use expect_test::{expect, Expect};
use puppet_analysis::host::{parse_fixture, AnalysisHost};
use puppet_ide::completion::{CompletionItem, CompletionKind};
use puppet_ide::FilePosition;
use puppet_syntax::{TextRange, TextSize};
use std::path::PathBuf;

/// The common workspace every fixture is added to.
const WORKSPACE: &str = r#"
#- /ws/modules/ntp/manifests/init.pp
# The NTP service.
class ntp(
  Array[String] $servers,
  Enum['running', 'stopped'] $state = 'running',
  Boolean $enable = true,
  Ntp::Config $config = {},
) {
  $driftfile = '/var/lib/ntp/drift'
}
#- /ws/modules/ntp/manifests/params.pp
class ntp::params {
  $package = 'ntp'
}
#- /ws/modules/ntp/manifests/server.pp
define ntp::server(String $address, Optional[Integer] $weight = undef) {
}
#- /ws/modules/ntp/types/config.pp
type Ntp::Config = Struct[{
  'pool'    => String,
  'options' => Optional[Struct[{'iburst' => Boolean, 'prefer' => Boolean}]],
}]
#- /ws/modules/ntp/functions/servers.pp
# The configured servers.
function ntp::servers(String $kind, Integer $count = 1) >> Array[String] {
  []
}
#- /ws/modules/ntp/lib/puppet/type/ntp_key.rb
Puppet::Type.newtype(:ntp_key) do
  ensurable
  newparam(:name, :namevar => true) do
  end
  newproperty(:secret) do
  end
end
#- /ws/modules/ntp/lib/puppet/functions/ntp/hash_key.rb
Puppet::Functions.create_function(:'ntp::hash_key') do
end
#- /ws/manifests/site.pp
$site_wide = 'x'
"#;

/// The workspace plus `fixture` (files with `#- path` headers; one holds
/// `$0`), and the cursor position.
fn host_at(fixture: &str) -> (AnalysisHost, FilePosition) {
    let mut files = parse_fixture(WORKSPACE);
    let mut cursor = None;
    for (path, mut text) in parse_fixture(fixture) {
        if let Some(at) = text.find("$0") {
            text.replace_range(at..at + 2, "");
            cursor = Some(FilePosition {
                path: path.clone(),
                offset: TextSize::from(at as u32),
            });
        }
        files.push((path, text));
    }
    let host = AnalysisHost::from_files(files);
    (host, cursor.expect("the fixture has a $0 cursor"))
}

fn completions(fixture: &str) -> Vec<CompletionItem> {
    let (host, position) = host_at(fixture);
    let mut items = puppet_ide::snapshot(&host).completions(&position).unwrap();
    items.sort_by(|a, b| {
        let key = |i: &CompletionItem| {
            (
                i.sort_text.clone().unwrap_or(i.label.clone()),
                i.label.clone(),
            )
        };
        key(a).cmp(&key(b))
    });
    items
}

fn render(items: &[CompletionItem]) -> String {
    let mut out = String::new();
    for item in items {
        out.push_str(&format!("{} {:?}", item.label, item.kind));
        if let Some(detail) = &item.detail {
            out.push_str(&format!(" : {detail}"));
        }
        if let Some(insert) = &item.insert_text {
            out.push_str(&format!(" => {insert:?}"));
        }
        out.push('\n');
    }
    out
}

/// Every item.
fn check(fixture: &str, expect: Expect) {
    expect.assert_eq(&render(&completions(fixture)));
}

/// The items a predicate keeps (for long lists), which must not be all.
fn check_filtered(fixture: &str, keep: impl Fn(&CompletionItem) -> bool, expect: Expect) {
    let items = completions(fixture);
    let kept: Vec<CompletionItem> = items.iter().filter(|i| keep(i)).cloned().collect();
    expect.assert_eq(&render(&kept));
}

/// Several fixtures that must give the same (kept) items.
fn check_same(fixtures: &[&str], keep: impl Fn(&CompletionItem) -> bool, expect: Expect) {
    let render_kept = |fixture: &str| {
        let kept: Vec<CompletionItem> = completions(fixture)
            .into_iter()
            .filter(|i| keep(i))
            .collect();
        render(&kept)
    };
    let first = render_kept(fixtures[0]);
    for fixture in &fixtures[1..] {
        assert_eq!(render_kept(fixture), first, "{fixture}");
    }
    expect.assert_eq(&first);
}

/// The text an item replaces.
fn replaced(fixture: &str, item: &CompletionItem) -> String {
    let (host, position) = host_at(fixture);
    let text = host.text(&position.path).unwrap();
    text[item.replace_range].to_string()
}

fn labels(fixture: &str) -> Vec<String> {
    completions(fixture).into_iter().map(|i| i.label).collect()
}

fn not_builtin(item: &CompletionItem) -> bool {
    !item
        .sort_text
        .as_deref()
        .is_some_and(|s| s.starts_with('3'))
}

fn starts_with(prefix: &'static str) -> impl Fn(&CompletionItem) -> bool {
    move |item| item.label.starts_with(prefix)
}

// ----- variables ---------------------------------------------------------

#[test]
fn variables_in_a_class_body() {
    check_filtered(
        r#"
#- /ws/modules/web/manifests/init.pp
class web(String $vhost, $port = 80) inherits ntp {
  $docroot = '/var/www'
  notify { $$0: }
  $later = 1
}
"#,
        not_builtin,
        expect![[r#"
            $docroot Variable : String
            $port Parameter
            $vhost Parameter : String
            $config Parameter : Ntp::Config
            $driftfile Variable
            $enable Parameter : Boolean
            $servers Parameter : Array[String]
            $state Parameter : Enum['running', 'stopped']
            $site_wide Variable
        "#]],
    );
}

#[test]
fn variables_replace_the_partial_word_and_include_builtins() {
    let fixture = "#- /ws/manifests/a.pp\nclass a { $x = 1\n  notice($f$0) }\n";
    let items = completions(fixture);
    let facts = items.iter().find(|i| i.label == "$facts").unwrap();
    assert_eq!(facts.kind, CompletionKind::Variable);
    assert_eq!(facts.detail.as_deref(), Some("Hash[String, Data]"));
    assert_eq!(replaced(fixture, facts), "$f");
    assert!(items.iter().any(|i| i.label == "$trusted"));
    assert!(items.iter().any(|i| i.label == "$x"));
}

#[test]
fn lambda_parameters_and_the_enclosing_scope() {
    check_filtered(
        r#"
#- /ws/manifests/a.pp
define a::b(Integer $count) {
  $list = [1]
  $list.each |String $item| {
    $inner = 2
    notice($$0)
  }
  $after = 3
}
"#,
        not_builtin,
        expect![[r#"
            $count Parameter : Integer
            $inner Variable : Integer[2, 2]
            $item Parameter : String
            $list Variable : Array[Integer[1, 1], 1, 1]
            $site_wide Variable
        "#]],
    );
}

#[test]
fn qualified_class_variables() {
    check(
        "#- /ws/manifests/a.pp\nnotice($ntp::$0)\n",
        expect![[r#"
            $ntp::config Parameter : Ntp::Config
            $ntp::driftfile Variable
            $ntp::enable Parameter : Boolean
            $ntp::servers Parameter : Array[String]
            $ntp::state Parameter : Enum['running', 'stopped']
        "#]],
    );
    check_filtered(
        "#- /ws/manifests/a.pp\nnotice($::$0)\n",
        |i| i.label.starts_with("$::s"),
        expect![[r#"
            $::site_wide Variable
            $::server_facts Variable : Hash[String, Data]
            $::serverip Variable
            $::servername Variable
            $::serverversion Variable
            $::settings Variable : Hash[String, Data]
            $::solaris_zones Fact : Hash
            $::ssh Fact : Hash
            $::system_profiler Fact : Hash
            $::system_uptime Fact : Hash
        "#]],
    );
}

#[test]
fn variables_in_strings() {
    let fixture = "#- /ws/manifests/a.pp\n$name2 = 1\nnotice(\"a ${$0}\")\n";
    let items = completions(fixture);
    let item = items.iter().find(|i| i.label == "name2").unwrap();
    assert_eq!(item.replace_range, TextRange::empty(23.into()));
    let fixture = "#- /ws/manifests/a.pp\n$name2 = 1\nnotice(\"a $na$0 b\")\n";
    let items = completions(fixture);
    let item = items.iter().find(|i| i.label == "$name2").unwrap();
    assert_eq!(replaced(fixture, item), "$na");
    let items = completions("#- /ws/manifests/a.pp\n$name2 = 1\nnotice(\"a ${na$0\n");
    assert!(items.iter().any(|i| i.label == "name2"));
}

// ----- statements, resource types, keywords, functions -------------------

#[test]
fn statement_start_offers_keywords_types_and_functions() {
    let fixture = "#- /ws/manifests/a.pp\n$x = 1\nfi$0\n";
    check_filtered(
        fixture,
        |i| i.kind == CompletionKind::Keyword,
        expect![[r#"
            case Keyword
            class Keyword
            default Keyword
            define Keyword
            false Keyword
            function Keyword
            if Keyword
            node Keyword
            true Keyword
            type Keyword
            undef Keyword
            unless Keyword
        "#]],
    );
    check_filtered(
        fixture,
        |i| i.label.starts_with("file") || i.label.starts_with("ntp"),
        expect![[r#"
            file ResourceType => "file { '${1:title}':\n  $0\n}"
            file Function : file(Any *$p0) => "file(${1:p0})"
            filebucket ResourceType => "filebucket { '${1:title}':\n  $0\n}"
            ntp::hash_key Function : Ruby function => "ntp::hash_key($1)"
            ntp::server DefinedType : defined type => "ntp::server { '${1:title}':\n  $0\n}"
            ntp::servers Function : ntp::servers(String $kind, Integer $count?) >> Array[String] => "ntp::servers(${1:kind})"
            ntp_key ResourceType : Ruby type => "ntp_key { '${1:title}':\n  $0\n}"
        "#]],
    );
}

#[test]
fn branches_after_a_conditional_block() {
    let keep = |i: &CompletionItem| i.label.starts_with("el");
    check_filtered(
        "#- /ws/manifests/a.pp\nif $x {\n} el$0\n",
        keep,
        expect![[r#"
            else Keyword
            elsif Keyword
        "#]],
    );
    check_filtered(
        "#- /ws/manifests/a.pp\nif $x {} elsif $y {\n} $0\n",
        keep,
        expect![[r#"
            else Keyword
            elsif Keyword
        "#]],
    );
    check_filtered(
        "#- /ws/manifests/a.pp\nunless $x {} $0\n",
        keep,
        expect![[r#"
            else Keyword
        "#]],
    );
    check_filtered("#- /ws/manifests/a.pp\nclass a {}\n$0\n", keep, expect![""]);
}

#[test]
fn functions_with_signature_snippets() {
    let items = completions("#- /ws/manifests/a.pp\n$x = lo$0\n");
    let lookup = items.iter().find(|i| i.label == "lookup").unwrap();
    assert_eq!(lookup.kind, CompletionKind::Function);
    assert!(lookup.is_snippet);
    assert_eq!(lookup.insert_text.as_deref(), Some("lookup(${1:name})"));
    expect![[r#"lookup(Variant[String, Array[String]] $name, Type $value_type?, Variant[String[1], Hash[String, Scalar]] $merge?)"#]]
        .assert_eq(lookup.detail.as_deref().unwrap());
    // No statement keywords or resource types inside an expression.
    assert!(!items
        .iter()
        .any(|i| i.label == "class" || i.kind == CompletionKind::ResourceType));
    assert!(items.iter().any(|i| i.label == "undef"));
    let include = completions("#- /ws/manifests/a.pp\ninc$0\n")
        .into_iter()
        .find(|i| i.label == "include")
        .unwrap();
    assert_eq!(include.insert_text.as_deref(), Some("include "));
}

#[test]
fn stdlib_functions_only_with_stdlib() {
    let fixture = "#- /ws/manifests/a.pp\n$x = $0\n";
    assert!(!labels(fixture).iter().any(|l| l == "stdlib::end_with"));
    let with_stdlib =
        "#- /ws/modules/stdlib/manifests/init.pp\nclass stdlib {}\n#- /ws/manifests/a.pp\n$x = $0\n";
    assert!(labels(with_stdlib).iter().any(|l| l == "stdlib::end_with"));
}

#[test]
fn a_title_is_no_statement_start() {
    let items = labels("#- /ws/manifests/a.pp\nfile { '/a': ensure => file; $0 }\n");
    assert!(!items.contains(&"class".to_string()));
    assert!(!items.contains(&"ensure".to_string()));
}

#[test]
fn nothing_right_after_an_expression() {
    check("#- /ws/manifests/a.pp\n$x = 1 $0\n", expect![""]);
    check("#- /ws/manifests/a.pp\n$x = 1 =$0> 2\n", expect![""]);
}

// ----- attributes ----------------------------------------------------------

#[test]
fn attributes_of_a_core_type_while_typing() {
    let fixture = "#- /ws/manifests/a.pp\nfile { '/x':\n  mode => '0644',\n  ens$0";
    let items = completions(fixture);
    let ensure = items.iter().find(|i| i.label == "ensure").unwrap();
    assert_eq!(ensure.insert_text.as_deref(), Some("ensure => "));
    assert_eq!(ensure.kind, CompletionKind::Attribute);
    assert!(ensure.documentation.is_some());
    assert_eq!(replaced(fixture, ensure), "ens");
    assert!(!items.iter().any(|i| i.label == "mode"), "already present");
    check_filtered(
        fixture,
        |i| {
            matches!(
                i.label.as_str(),
                "path" | "ensure" | "require" | "tag" | "checksum"
            )
        },
        expect![[r#"
            checksum Attribute : Enum['ctime', 'md5', 'md5lite', 'mtime', 'none', 'sha1', 'sha1lite', 'sha224', 'sha256', 'sha256lite', 'sha384', 'sha512'] => "checksum => "
            ensure Attribute : Variant[Enum['absent', 'directory', 'false', 'file', 'link', 'present'], Pattern[/./]] => "ensure => "
            path Attribute : namevar => "path => "
            require Metaparameter => "require => "
            tag Metaparameter => "tag => "
        "#]],
    );
}

#[test]
fn attributes_of_classes_and_defines_required_first() {
    check_filtered(
        "#- /ws/manifests/a.pp\nclass { 'ntp':\n  enable => true,\n  $0\n}\n",
        |i| i.kind == CompletionKind::Parameter,
        expect![[r#"
            servers Parameter : Array[String] => "servers => "
            config Parameter : Ntp::Config = {} => "config => "
            state Parameter : Enum['running', 'stopped'] = 'running' => "state => "
        "#]],
    );
    check_filtered(
        "#- /ws/manifests/a.pp\nntp::server { 'a': weight => 1, $0 }\n",
        |i| i.kind != CompletionKind::Metaparameter,
        expect![[r#"
            address Parameter : String => "address => "
        "#]],
    );
    check_filtered(
        "#- /ws/manifests/a.pp\nntp_key { 'a':\n  ensure => present\n  $0\n}\n",
        |i| i.kind != CompletionKind::Metaparameter,
        expect![[r#"
            name Attribute : namevar => "name => "
            provider Attribute => "provider => "
            secret Attribute => "secret => "
        "#]],
    );
}

#[test]
fn editing_an_attribute_name() {
    let fixture = "#- /ws/manifests/a.pp\nservice { 'x': ens$0ure => running, enable => true }\n";
    let items = completions(fixture);
    let ensure = items.iter().find(|i| i.label == "ensure").unwrap();
    assert_eq!(replaced(fixture, ensure), "ensure");
    assert!(!items.iter().any(|i| i.label == "enable"));
}

#[test]
fn attributes_in_defaults_and_overrides() {
    let defaults = labels("#- /ws/manifests/a.pp\nService { $0 }\n");
    assert!(defaults.contains(&"enable".to_string()));
    let overrides = labels("#- /ws/manifests/a.pp\nService['x'] { ensure => running, $0 }\n");
    assert!(overrides.contains(&"enable".to_string()));
    assert!(!overrides.contains(&"ensure".to_string()));
}

#[test]
fn attribute_values() {
    check(
        "#- /ws/manifests/a.pp\nservice { 'x': ensure => $0 }\n",
        expect![[r#"
            false Value : alias of stopped
            running Value
            stopped Value
            true Value : alias of running
        "#]],
    );
    check(
        "#- /ws/manifests/a.pp\nclass { 'ntp': state => s$0 }\n",
        expect![[r#"
            running Value
            stopped Value
        "#]],
    );
    check(
        "#- /ws/manifests/a.pp\nclass { 'ntp': enable => $0 }\n",
        expect![[r#"
            false Value
            true Value
        "#]],
    );
    // Between quotes: no quotes inserted, no booleans.
    check(
        "#- /ws/manifests/a.pp\nclass { 'ntp': state => 'r$0', enable => true }\n",
        expect![[r#"
            running Value
            stopped Value
        "#]],
    );
    check(
        "#- /ws/manifests/a.pp\nclass { 'ntp': enable => '$0' }\n",
        expect![""],
    );
    // Metaparameters of any type.
    assert!(
        labels("#- /ws/manifests/a.pp\nntp::server { 'x': loglevel => $0 }\n")
            .contains(&"debug".to_string())
    );
    // Without known values: expressions.
    assert!(
        labels("#- /ws/manifests/a.pp\nnotify { 'x': message => $0 }\n")
            .contains(&"lookup".to_string())
    );
}

// ----- class names -----------------------------------------------------------

#[test]
fn class_names() {
    check_same(
        &[
            "#- /ws/manifests/a.pp\ninclude $0\n",
            "#- /ws/manifests/a.pp\ncontain ntp::$0\n",
            "#- /ws/manifests/a.pp\ninclude ntp, $0\n",
            "#- /ws/manifests/a.pp\nrequire('$0')\n",
            "#- /ws/manifests/a.pp\nclass a inherits $0 {}\n",
            "#- /ws/manifests/a.pp\nclass { 'n$0': }\n",
            "#- /ws/manifests/a.pp\nClass['$0\n",
        ],
        |i| i.label.starts_with("ntp"),
        expect![[r#"
            ntp Class
            ntp::params Class
        "#]],
    );
    check(
        "#- /ws/manifests/a.pp\nclass { $0 }\n",
        expect![[r#"
            ntp Class => "'ntp':"
            ntp::params Class => "'ntp::params':"
        "#]],
    );
    check(
        "#- /ws/manifests/a.pp\nrequire => Class[$0]\n",
        expect![[r#"
            ntp Class => "'ntp'"
            ntp::params Class => "'ntp::params'"
        "#]],
    );
    let fixture = "#- /ws/manifests/a.pp\ninclude 'ntp::pa$0'\n";
    let items = completions(fixture);
    assert_eq!(replaced(fixture, &items[0]), "ntp::pa");
    assert_eq!(items[0].documentation.as_deref(), Some("The NTP service."));
    let fixture = "#- /ws/manifests/a.pp\ninclude ntp::$0\n";
    assert_eq!(replaced(fixture, &completions(fixture)[0]), "ntp::");
}

// ----- types -----------------------------------------------------------------

#[test]
fn type_positions() {
    let aliases = |i: &CompletionItem| i.label.starts_with("Ntp") || i.label.starts_with("Str");
    check_same(
        &[
            "#- /ws/manifests/a.pp\nclass a($0) {}\n",
            "#- /ws/manifests/a.pp\nclass a(Integer $x, St$0) {}\n",
            "#- /ws/manifests/a.pp\nclass a(Optional[$0\n",
            "#- /ws/manifests/a.pp\nif $x =~ $0 {}\n",
            "#- /ws/manifests/a.pp\ntype A = $0\n",
        ],
        aliases,
        expect![[r#"
            Ntp::Config TypeAlias : Struct[{ 'pool' => String, 'options' => Optional[Struct[{'iburst' => Boolean, 'prefer' => Boolean}]], }]
            String Type
            Struct Type
        "#]],
    );
    assert!(labels("#- /ws/manifests/a.pp\n$x = Integer[1, $0]\n").contains(&"Integer".to_string()));
}

// ----- keys --------------------------------------------------------------

#[test]
fn fact_names() {
    check_filtered(
        "#- /ws/manifests/a.pp\nnotice($facts['o$0'])\n",
        starts_with("o"),
        expect![[r#"
            os Fact : Hash
        "#]],
    );
    check_filtered(
        "#- /ws/manifests/a.pp\nnotice($facts['os']['$0\n",
        starts_with("f"),
        expect![[r#"
            family Fact : String
        "#]],
    );
    check_filtered(
        "#- /ws/manifests/a.pp\nnotice($facts['os']['release'][$0])\n",
        |_| true,
        expect![[r#"
            branch Fact : String => "'branch'"
            full Fact : String => "'full'"
            major Fact : String => "'major'"
            minor Fact : String => "'minor'"
            patchlevel Fact : String => "'patchlevel'"
        "#]],
    );
    let fixture = "#- /ws/manifests/a.pp\n$x = $facts['os'][\"na$0\"]\n";
    let items = completions(fixture);
    let name = items.iter().find(|i| i.label == "name").unwrap();
    assert_eq!(replaced(fixture, name), "na");
    assert!(!labels("#- /ws/manifests/a.pp\n$x = $facts[$0]\n").contains(&"osfamily".to_string()));
}

#[test]
fn trusted_and_struct_keys() {
    check(
        "#- /ws/manifests/a.pp\nnotice($trusted['$0'])\n",
        expect![[r#"
            authenticated Key : String
            certname Key : String
            domain Key : String
            extensions Key : Hash[String, Data]
            external Key : Hash[String, Data]
            hostname Key : String
        "#]],
    );
    check(
        "#- /ws/modules/ntp/manifests/conf.pp\nclass ntp::conf(Ntp::Config $cfg) { notice($cfg['$0']) }\n",
        expect![[r#"
            options Key : Optional[Struct[{'iburst' => Boolean, 'prefer' => Boolean}]]
            pool Key : String
        "#]],
    );
    check(
        "#- /ws/modules/ntp/manifests/conf.pp\nclass ntp::conf(Optional[Ntp::Config] $cfg) { notice($cfg['options'][$0]) }\n",
        expect![""],
    );
    check(
        "#- /ws/manifests/a.pp\nclass a inherits ntp { notice($config['$0']) }\n",
        expect![[r#"
            options Key : Optional[Struct[{'iburst' => Boolean, 'prefer' => Boolean}]]
            pool Key : String
        "#]],
    );
}

// ----- no completion ----------------------------------------------------------

#[test]
fn nothing_in_comments_and_plain_strings() {
    check("#- /ws/manifests/a.pp\n# include $0\n", expect![""]);
    check("#- /ws/manifests/a.pp\n/* $fa$0 */\n", expect![""]);
    check("#- /ws/manifests/a.pp\nnotice('inc$0')\n", expect![""]);
    check("#- /ws/manifests/a.pp\n$x = 1 # $0", expect![""]);
}

#[test]
fn file_start_and_end() {
    assert!(labels("#- /ws/manifests/a.pp\n$0").contains(&"class".to_string()));
    assert!(labels("#- /ws/manifests/a.pp\n$0class a {}\n").contains(&"class".to_string()));
    assert!(labels("#- /ws/manifests/a.pp\nclass a {}\n$0").contains(&"file".to_string()));
    let (host, mut position) = host_at("#- /ws/manifests/a.pp\nclass a {}$0\n");
    position.offset = TextSize::from(1000);
    assert!(puppet_ide::snapshot(&host)
        .completions(&position)
        .unwrap()
        .is_empty());
    position.path = PathBuf::from("/nowhere.pp");
    assert!(puppet_ide::snapshot(&host)
        .completions(&position)
        .unwrap()
        .is_empty());
}

#[test]
fn epp_templates() {
    let items = completions(
        "#- /ws/modules/ntp/templates/a.epp\n<%- | String $who | -%>\nHello <%= $$0 %>\n",
    );
    assert!(items
        .iter()
        .any(|i| i.label == "$who" && i.detail.as_deref() == Some("String")));
    for text in [
        "Hello $0 world\n",
        "$0Hello\n",
        "<%= $who %>$0 text\n",
        "<% if $x { -%>$0\n<% } %>",
    ] {
        let fixture = format!("#- /ws/modules/ntp/templates/a.epp\n{text}");
        assert!(completions(&fixture).is_empty(), "{text}");
    }
    assert!(
        labels("#- /ws/modules/ntp/templates/a.epp\n<% if $x { -%>x<% $0 } %>")
            .contains(&"file".to_string()),
        "a statement start in code after text"
    );
}

/// Every offset of a few fixtures, incomplete ones included: no panic.
#[test]
fn every_offset_is_safe() {
    let fixtures = [
        WORKSPACE,
        "#- /ws/manifests/a.pp\nfile { '/x': ens",
        "#- /ws/manifests/a.pp\nclass a($x = \"${fa\n$facts['os'][ \"$t",
        "#- /ws/manifests/a.pp\ninclude foo:: \nClass['a::\n$::\n$a::b::\n@@file {",
        "#- /ws/manifests/a.pp\ncase $x { 'a': { notify { 'é': message => \"ü${x}\" } } default: {} }\n/* c",
        "#- /ws/modules/ntp/templates/b.epp\n<%- |$a| -%>\n<%= $a %> <%# c %> <% if $a { -%>x<% } -%>\n",
        "#- /ws/manifests/h.pp\n$x = @(END)\n  a $y ${z}\n  | END\nnotice($x)\n",
    ];
    for fixture in fixtures {
        let host = AnalysisHost::from_files(parse_fixture(fixture));
        let analysis = puppet_ide::snapshot(&host);
        for path in host.paths().map(|p| p.to_path_buf()).collect::<Vec<_>>() {
            let text = host.text(&path).unwrap();
            for offset in 0..=text.len() + 1 {
                let position = FilePosition {
                    path: path.clone(),
                    offset: TextSize::from(offset as u32),
                };
                let items = analysis.completions(&position).unwrap();
                for item in items {
                    assert!(item.replace_range.end() <= TextSize::of(&*text));
                }
            }
        }
    }
}

#[test]
fn offered_type_names_are_types() {
    for name in puppet_analysis::model::Type::NAMES {
        assert!(
            puppet_analysis::model::Type::from_name(name).is_some(),
            "{name}"
        );
    }
}

#[test]
fn bolts_plan_functions_in_a_plans_own_code_only() {
    check_filtered(
        r#"
#- /ws/modules/web/plans/deploy.pp
plan web::deploy(TargetSpec $targets) {
  run_t$0
}
"#,
        starts_with("run_"),
        expect![[r#"
            run_command Function : Bolt plan function (boltlib) => "run_command($1)"
            run_container Function : Bolt plan function (boltlib) => "run_container($1)"
            run_plan Function : Bolt plan function (boltlib) => "run_plan($1)"
            run_script Function : Bolt plan function (boltlib) => "run_script($1)"
            run_task Function : Bolt plan function (boltlib) => "run_task($1)"
            run_task_with Function : Bolt plan function (boltlib) => "run_task_with($1)"
        "#]],
    );
    let in_apply = labels(
        "\n#- /ws/modules/web/plans/deploy.pp\nplan web::deploy(TargetSpec $targets) {\n  apply($targets) {\n    run_t$0\n  }\n}\n",
    );
    assert!(!in_apply.iter().any(|l| l == "run_task"), "{in_apply:?}");
    let in_class = labels("\n#- /ws/modules/web/manifests/init.pp\nclass web {\n  run_t$0\n}\n");
    assert!(!in_class.iter().any(|l| l == "run_task"), "{in_class:?}");
}
