//! Inlay hints and quick fixes: fixtures with the expected hints and the
//! text after applying each fix.

mod common;

use common::fixture;
use expect_test::expect;
use puppet_syntax::{TextRange, TextSize};

fn whole(text: &str) -> TextRange {
    TextRange::new(TextSize::from(0), TextSize::from(text.len() as u32))
}

/// Every quick fix of a module manifest's text applied together, as
/// `check --fix` applies them.
fn all_fixes_applied(text: &str) -> String {
    let f = fixture(&format!("#- /t/modules/t/manifests/init.pp\n$0{text}"));
    let path = f.position.path.clone();
    let edits: Vec<puppet_ide::TextEdit> = puppet_ide::snapshot(&f.host)
        .quick_fixes(&path, whole(text))
        .unwrap()
        .into_iter()
        .flat_map(|fix| fix.change.edits[&path].clone())
        .collect();
    apply(text, &edits)
}

/// Applies a fix's edits (one file) to the text.
fn apply(text: &str, edits: &[puppet_ide::TextEdit]) -> String {
    let mut out = text.to_string();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| std::cmp::Reverse(e.range.start()));
    for e in edits {
        out.replace_range(
            usize::from(e.range.start())..usize::from(e.range.end()),
            &e.new_text,
        );
    }
    out
}

#[test]
fn inlay_hints_show_inferred_types_and_parameter_names() {
    let f = fixture(
        "#- /t/functions/f.pp\nfunction t::f(Integer $a, Integer $b) { $a + $b }\n#- /t/manifests/init.pp\n$0class t (String $typed, $untyped = 1) {\n  $port = 8000 + 80\n  $parts = split('a,b', ',')\n  $sum = t::f(1, $port)\n  [1, 2].each |$i| { notice($i) }\n}\n",
    );
    let text = &f.texts[&f.position.path];
    let hints = puppet_ide::snapshot(&f.host)
        .inlay_hints(&f.position.path, whole(text))
        .unwrap();
    let rendered: Vec<String> = hints
        .iter()
        .map(|h| format!("{}:{:?}", usize::from(h.offset), h.label))
        .collect();
    expect![[r#"
        [
            "47:\": Integer[8080, 8080]\"",
            "68:\": Array[Enum['a', 'b'], 2, 2]\"",
            "95:\": Integer[8081, 8081]\"",
            "103:\"a:\"",
            "106:\"b:\"",
            "130:\": Integer[1, 2]\"",
        ]
    "#]]
    .assert_debug_eq(&rendered);
    // The written type of `$typed` needs no hint; `$untyped` is Any.
    assert!(!hints
        .iter()
        .any(|h| h.label.contains("String") && h.offset < TextSize::from(30)));
}

fn fixes(text: &str) -> Vec<(String, String)> {
    let f = fixture(&format!("#- /t/modules/t/manifests/init.pp\n$0{text}"));
    let path = f.position.path.clone();
    let fixes = puppet_ide::snapshot(&f.host)
        .quick_fixes(&path, whole(text))
        .unwrap();
    fixes
        .iter()
        .map(|fix| (fix.title.clone(), apply(text, &fix.change.edits[&path])))
        .collect()
}

#[test]
fn did_you_mean_replaces_the_name() {
    let out = fixes("class t {\n  service { 'x': ensure => runing }\n}\n");
    expect![[r#"
        [
            (
                "Change to 'running'",
                "class t {\n  service { 'x': ensure => running }\n}\n",
            ),
        ]
    "#]]
    .assert_debug_eq(&out);
    let out = fixes("class t {\n  file { '/x': ensur => present }\n}\n");
    assert_eq!(
        out[0].1,
        "class t {\n  file { '/x': ensure => present }\n}\n"
    );
}

#[test]
fn unused_variable_is_removed_with_its_line() {
    let out = fixes("define t::d {\n  $unused = 1\n  notice('x')\n}\n");
    let removal = out
        .iter()
        .find(|(t, _)| t.starts_with("Remove"))
        .expect("a removal");
    assert_eq!(removal.1, "define t::d {\n  notice('x')\n}\n");
}

#[test]
fn missing_required_parameters_are_added() {
    let out = fixes("define t::site (String $root) {}\nclass t {\n  t::site { 'a': }\n}\n");
    let add = out
        .iter()
        .find(|(t, _)| t.starts_with("Add missing"))
        .expect("an addition");
    assert_eq!(
        add.1,
        "define t::site (String $root) {}\nclass t {\n  t::site { 'a':\n    root => undef, }\n}\n"
    );
}

/// The fixes of the file at `$0` in a workspace, each as its title and the
/// files it changes, after the change.
fn fixes_in(workspace: &str) -> Vec<(String, Vec<(String, String)>)> {
    let f = common::fixture_at("/ws", workspace);
    let path = f.position.path.clone();
    let text = &f.texts[&path];
    let fixes = puppet_ide::snapshot(&f.host)
        .quick_fixes(&path, whole(text))
        .unwrap();
    fixes
        .iter()
        .map(|fix| {
            let changed = fix
                .change
                .edits
                .iter()
                .map(|(file, edits)| {
                    let before = &f.texts[file];
                    (file.display().to_string(), apply(before, edits))
                })
                .collect();
            (fix.title.clone(), changed)
        })
        .collect()
}

const OTHER_MODULE: &str = r#"
#- /ws/modules/other/metadata.json
{"name": "acme-other", "version": "1.2.0", "author": "acme", "summary": "Other", "license": "Apache-2.0", "source": "x", "dependencies": []}
#- /ws/modules/other/manifests/init.pp
# Other.
class other {}
"#;

#[test]
fn an_undeclared_dependency_is_added_to_the_modules_metadata() {
    // Entries one per line: the new one goes on a line of its own.
    let workspace = format!(
        "{OTHER_MODULE}\
#- /ws/modules/app/metadata.json
{{
  \"name\": \"acme-app\",
  \"version\": \"1.0.0\",
  \"author\": \"acme\",
  \"summary\": \"App\",
  \"license\": \"Apache-2.0\",
  \"source\": \"x\",
  \"dependencies\": [
    {{\"name\": \"puppetlabs/stdlib\", \"version_requirement\": \">= 4.0.0 < 10.0.0\"}}
  ]
}}
#- /ws/modules/app/manifests/init.pp
# App.
$0class app {{
  include other
}}
"
    );
    let fixes = fixes_in(&workspace);
    expect![[r#"
        [
            (
                "Add module 'other' to metadata.json's dependencies",
                [
                    (
                        "/ws/modules/app/metadata.json",
                        "{\n  \"name\": \"acme-app\",\n  \"version\": \"1.0.0\",\n  \"author\": \"acme\",\n  \"summary\": \"App\",\n  \"license\": \"Apache-2.0\",\n  \"source\": \"x\",\n  \"dependencies\": [\n    {\"name\": \"puppetlabs/stdlib\", \"version_requirement\": \">= 4.0.0 < 10.0.0\"},\n    {\"name\": \"acme/other\", \"version_requirement\": \">= 1.2.0 < 2.0.0\"}\n  ]\n}\n",
                    ),
                ],
            ),
        ]
    "#]]
    .assert_debug_eq(&fixes);

    // An empty list becomes a list of one entry; the module then declares
    // what it uses, and nothing is reported.
    let workspace = format!(
        "{OTHER_MODULE}\
#- /ws/modules/app/metadata.json
{{
  \"name\": \"acme-app\", \"version\": \"1.0.0\", \"author\": \"acme\", \"summary\": \"App\",
  \"license\": \"Apache-2.0\", \"source\": \"x\", \"dependencies\": []
}}
#- /ws/modules/app/manifests/init.pp
# App.
$0class app {{
  include other
}}
"
    );
    let fixes = fixes_in(&workspace);
    let (_, changed) = &fixes[0];
    let (_, fixed) = &changed[0];
    expect![[r#"
        {
          "name": "acme-app", "version": "1.0.0", "author": "acme", "summary": "App",
          "license": "Apache-2.0", "source": "x", "dependencies": [
            {"name": "acme/other", "version_requirement": ">= 1.2.0 < 2.0.0"}
          ]
        }
    "#]]
    .assert_eq(fixed);
    let declared = workspace.replace(
        "\"dependencies\": []",
        &fixed[fixed.find("\"dependencies\"").unwrap()..fixed.rfind('}').unwrap()],
    );
    assert!(fixes_in(&declared).is_empty(), "{declared}");
}

#[test]
fn a_misspelt_hiera_key_takes_the_suggested_parameter() {
    let fixes = fixes_in(
        "#- /ws/hiera.yaml\nversion: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n\
         #- /ws/manifests/site.pp\ninclude ntp\n\
         #- /ws/modules/ntp/manifests/init.pp\n# Time.\nclass ntp(Array[String] $servers = []) {}\n\
         #- /ws/data/common.yaml\n$0\"ntp::serverz\": [a.pool]\n",
    );
    expect![[r#"
        [
            (
                "Change to 'ntp::servers'",
                [
                    (
                        "/ws/data/common.yaml",
                        "\"ntp::servers\": [a.pool]\n",
                    ),
                ],
            ),
        ]
    "#]]
    .assert_debug_eq(&fixes);
}

/// Under Puppet 8 (the default), every legacy fact with a structured
/// equivalent is replaced as the place needs it: a variable, inside a
/// string's `${}` or its short form, and a `$facts` key.
#[test]
fn legacy_facts_are_replaced_by_structured_ones() {
    let text = "class t {\n  notice($::osfamily, $osfamily)\n  notice(\"${::fqdn} $ipaddress_eth0\")\n  if $facts['operatingsystem'] == 'Debian' {}\n}\n";
    let out = fixes(text);
    let replacements: Vec<&str> = out.iter().map(|(title, _)| title.as_str()).collect();
    expect![[r#"
        [
            "Use $facts['os']['family']",
            "Use $facts['os']['family']",
            "Use $facts['networking']['fqdn']",
            "Use $facts['networking']['interfaces']['eth0']['ip']",
            "Use $facts['os']['name']",
        ]
    "#]]
    .assert_debug_eq(&replacements);
    // Applied together, as `check --fix` does.
    expect![[r#"
        class t {
          notice($facts['os']['family'], $facts['os']['family'])
          notice("${facts['networking']['fqdn']} ${facts['networking']['interfaces']['eth0']['ip']}")
          if $facts['os']['name'] == 'Debian' {}
        }
    "#]]
    .assert_eq(&all_fixes_applied(text));
    // A legacy fact with no equivalent on every system gets no fix.
    assert!(fixes("class t {\n  notice($::lsbminordistrelease)\n}\n").is_empty());
}

#[test]
fn legacy_facts_in_inline_epp_templates_are_replaced_as_the_string_needs() {
    let text = r#"class t {
  notice(inline_epp('<%= $osfamily %> <%= "${::fqdn}" %>'))
  notice(inline_epp("<%= \$::osfamily %>"))
  notice(inline_epp(@(EPP)))
    <%= $osfamily %>
    | EPP
  notice(inline_epp('<%= inline_epp("<%= \$osfamily %>") %>'))
}
"#;
    let fixed = all_fixes_applied(text);
    expect![[r#"
        class t {
          notice(inline_epp('<%= $facts[\'os\'][\'family\'] %> <%= "${facts[\'networking\'][\'fqdn\']}" %>'))
          notice(inline_epp("<%= \$facts['os']['family'] %>"))
          notice(inline_epp(@(EPP)))
            <%= $facts['os']['family'] %>
            | EPP
          notice(inline_epp('<%= inline_epp("<%= \\$facts[\'os\'][\'family\'] %>") %>'))
        }
    "#]]
    .assert_eq(&fixed);
    // The fixed templates read the structured facts: nothing left to fix.
    assert!(fixes(&fixed).is_empty(), "{:?}", fixes(&fixed));
}
