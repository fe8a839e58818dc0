//! Structural IDE features: document symbols, folding, selection ranges,
//! semantic tokens and signature help, as readable snapshots
//! (`UPDATE_EXPECT=1` updates them), plus robustness over the parser's
//! test corpus. Positions print as 1-based `line:col` (columns in bytes).

use expect_test::{expect, Expect};
use puppet_analysis::host::{parse_fixture, AnalysisHost};
use puppet_ide::Analysis;
use puppet_ide::{DocumentSymbol, FilePosition, FoldKind, SemanticTokenKind, MODIFIER_LEGEND};
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use puppet_syntax::{TextRange, TextSize};
use std::fmt::Write;
use std::path::{Path, PathBuf};

const MAIN: &str = "/ws/modules/m/manifests/init.pp";

fn single(text: &str) -> (Analysis, AnalysisHost) {
    let host = AnalysisHost::from_files(vec![(PathBuf::from(MAIN), text.to_string())]);
    (puppet_ide::snapshot(&host), host)
}

fn pos(index: &LineIndex, offset: TextSize) -> String {
    let lc = index.line_col(offset, ColumnEncoding::Utf8);
    format!("{}:{}", lc.line + 1, lc.col + 1)
}

fn span(index: &LineIndex, range: TextRange) -> String {
    format!("{}-{}", pos(index, range.start()), pos(index, range.end()))
}

// ----- document symbols -------------------------------------------------

fn render_symbols(index: &LineIndex, symbols: &[DocumentSymbol], depth: usize, out: &mut String) {
    for s in symbols {
        let _ = write!(
            out,
            "{:indent$}{:?} {} [{}] focus {}",
            "",
            s.kind,
            s.name,
            span(index, s.full_range),
            span(index, s.focus_range),
            indent = depth * 2
        );
        if let Some(detail) = &s.detail {
            let _ = write!(out, " : {detail}");
        }
        out.push('\n');
        render_symbols(index, &s.children, depth + 1, out);
    }
}

fn check_symbols_at(path: &str, text: &str, expect: Expect) {
    let host = AnalysisHost::from_files(vec![(PathBuf::from(path), text.to_string())]);
    let symbols = puppet_ide::snapshot(&host)
        .document_symbols(Path::new(path))
        .unwrap();
    let mut out = String::new();
    render_symbols(&LineIndex::new(text), &symbols, 0, &mut out);
    expect.assert_eq(&out);
}

fn check_symbols(text: &str, expect: Expect) {
    check_symbols_at(MAIN, text, expect);
}

#[test]
fn symbols_of_definitions() {
    check_symbols(
        r#"# Docs.
class m (
  Array[String] $servers = [],
  $plain,
) inherits m::params {
  file { '/etc/m.conf': ensure => file }
  $local = 1
  if $plain {
    package { ['a', 'b']: ensure => installed }
    [$x, $y] = [1, 2]
  }
  class inner { }
}
define m::vhost(Integer $port) {
  @@file { "/tmp/${title}": }
  user { 'u1': ; 'u2': }
}
node 'web1', /db\d+/ inherits default {
  include m
}
function m::f(String $s) >> Integer { 1 }
plan m::p(TargetSpec $t) { }
type M::Port = Integer[1, 65535]
type M::Obj = Object { attributes => { a => Integer } }
File { mode => '0644' }
$top = $facts['os']
"#,
        expect![[r#"
            Class m [1:1-13:2] focus 2:7-2:8 : inherits m::params
              Parameter $servers [3:3-3:30] focus 3:17-3:25 : Array[String]
              Parameter $plain [4:3-4:9] focus 4:3-4:9
              Resource File['/etc/m.conf'] [6:3-6:41] focus 6:10-6:23
              Variable $local [7:3-7:13] focus 7:3-7:9
              Resource Package[['a', 'b']] [9:5-9:48] focus 9:15-9:25
              Variable $x [10:5-10:22] focus 10:6-10:8
              Variable $y [10:5-10:22] focus 10:10-10:12
              Class inner [12:3-12:18] focus 12:9-12:14
            DefinedType m::vhost [14:1-17:2] focus 14:8-14:16
              Parameter $port [14:17-14:30] focus 14:25-14:30 : Integer
              Resource File["/tmp/${title}"] [15:3-15:30] focus 15:12-15:27 : exported
              Resource User['u1'] [16:10-16:15] focus 16:10-16:14
              Resource User['u2'] [16:18-16:23] focus 16:18-16:22
            Node 'web1', /db\d+/ [18:1-20:2] focus 18:6-18:12 : inherits default
            Function m::f [21:1-21:42] focus 21:10-21:14 : >> Integer
              Parameter $s [21:15-21:24] focus 21:22-21:24 : String
            Plan m::p [22:1-22:29] focus 22:6-22:10
              Parameter $t [22:11-22:24] focus 22:22-22:24 : TargetSpec
            TypeAlias M::Port [23:1-23:33] focus 23:6-23:13 : Integer[1, 65535]
            TypeAlias M::Obj [24:1-24:56] focus 24:6-24:12 : Object { attributes => { a => Integer } }
            ResourceType File [25:1-25:24] focus 25:1-25:5 : resource defaults
            Variable $top [26:1-26:20] focus 26:1-26:5
        "#]],
    );
}

#[test]
fn symbols_of_broken_code() {
    check_symbols(
        "class broken(String $a, {\n  file { '/x':\n    ensure =>\n  $v = \ndefine {\n",
        expect![[r#"
            Class broken [1:1-6:1] focus 1:7-1:13
              Parameter $a [1:14-1:23] focus 1:21-1:23 : String
        "#]],
    );
}

#[test]
fn symbols_of_a_template() {
    check_symbols_at(
        "/ws/modules/m/templates/t.epp",
        "<%- | String $name, Integer $port = 80 | -%>\n<% $greeting = \"hi\" -%>\n<%= $greeting %> <%= $name %>\n",
        expect![[r#"
            Parameter $name [1:7-1:19] focus 1:14-1:19 : String
            Parameter $port [1:21-1:39] focus 1:29-1:34 : Integer
            Variable $greeting [2:4-2:20] focus 2:4-2:13
        "#]],
    );
}

// ----- folding ----------------------------------------------------------

fn check_folding(text: &str, expect: Expect) {
    let (analysis, _host) = single(text);
    let index = LineIndex::new(text);
    let mut out = String::new();
    for fold in analysis.folding_ranges(Path::new(MAIN)).unwrap() {
        let kind = match fold.kind {
            FoldKind::Region => "region",
            FoldKind::Comment => "comment",
        };
        let first_line = text[usize::from(fold.range.start())..]
            .lines()
            .next()
            .unwrap_or("");
        let _ = writeln!(out, "{} {kind} {first_line:?}", span(&index, fold.range));
    }
    expect.assert_eq(&out);
}

#[test]
fn folding_ranges() {
    check_folding(
        r#"# Licence line 1
# Licence line 2

# region setup
class m (
  $a,
  $b,
) {
  file { '/x':
    ensure => file,
  }
  if $a {
    notice(1)
  } else {
    notice(2)
  }
  case $b {
    'x': {
      $h = {
        k => 1,
      }
    }
  }
  $list = [
    1,
  ]
  $doc = @(END)
    text
    | END
  $a.each |$x| {
    notice($x)
  }
  /* block
     comment */
  one_line { } # trailing
  # not joined with the trailing comment
  # second line
}
# endregion
"#,
        expect![[r##"
            1:1-2:17 comment "# Licence line 1"
            4:1-39:12 region "# region setup"
            5:9-8:2 region "("
            8:3-38:2 region "{"
            9:8-11:4 region "{ '/x':"
            12:9-14:4 region "{"
            14:10-16:4 region "{"
            17:11-23:4 region "{"
            18:10-22:6 region "{"
            19:12-21:8 region "{"
            24:11-26:4 region "["
            27:10-29:10 region "@(END)"
            30:16-32:4 region "{"
            33:3-34:16 comment "/* block"
            36:3-37:16 comment "# not joined with the trailing comment"
        "##]],
    );
}

#[test]
fn folding_broken_code() {
    check_folding(
        "class m {\n  file { '/x':\n    ensure => [\n      1,\n",
        expect![[r#"
            1:9-4:9 region "{"
            2:8-4:9 region "{ '/x':"
            3:15-4:9 region "["
        "#]],
    );
}

// ----- selection ranges -------------------------------------------------

/// Text with `$0` markers: the text without them, and their offsets.
fn cursors(marked: &str) -> (String, Vec<TextSize>) {
    let mut text = String::new();
    let mut offsets = Vec::new();
    let mut rest = marked;
    while let Some(i) = rest.find("$0") {
        text.push_str(&rest[..i]);
        offsets.push(TextSize::of(text.as_str()));
        rest = &rest[i + 2..];
    }
    text.push_str(rest);
    (text, offsets)
}

fn check_selection(marked: &str, expect: Expect) {
    let (text, offsets) = cursors(marked);
    let (analysis, _host) = single(&text);
    let mut out = String::new();
    for ranges in analysis
        .selection_ranges(Path::new(MAIN), &offsets)
        .unwrap()
    {
        for range in ranges {
            let _ = writeln!(out, "{:?}", &text[range]);
        }
        out.push_str("--\n");
    }
    expect.assert_eq(&out);
}

#[test]
fn selection_ranges() {
    check_selection(
        "class m {\n  file { '/etc/x$0.conf': mode => \"a${b$0}c\", require => [F$0oo['x']] }\n}\n",
        expect![[r#"
            "/etc/x.conf"
            "'/etc/x.conf'"
            "'/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']]"
            "file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }"
            "{\n  file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }\n}"
            "class m {\n  file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }\n}"
            "class m {\n  file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }\n}\n"
            --
            "b"
            "${b}"
            "a${b}c"
            "\"a${b}c\""
            "mode => \"a${b}c\""
            "'/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']]"
            "file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }"
            "{\n  file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }\n}"
            "class m {\n  file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }\n}"
            "class m {\n  file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }\n}\n"
            --
            "Foo"
            "Foo['x']"
            "[Foo['x']]"
            "require => [Foo['x']]"
            "'/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']]"
            "file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }"
            "{\n  file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }\n}"
            "class m {\n  file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }\n}"
            "class m {\n  file { '/etc/x.conf': mode => \"a${b}c\", require => [Foo['x']] }\n}\n"
            --
        "#]],
    );
}

#[test]
fn selection_at_edges() {
    check_selection(
        "$0notice(1, [2, 3$0])$0\n\n$0",
        expect![[r#"
        "notice"
        "notice(1, [2, 3])"
        "notice(1, [2, 3])\n\n"
        --
        "3"
        "2, 3"
        "[2, 3]"
        "1, [2, 3]"
        "(1, [2, 3])"
        "notice(1, [2, 3])"
        "notice(1, [2, 3])\n\n"
        --
        ")"
        "(1, [2, 3])"
        "notice(1, [2, 3])"
        "notice(1, [2, 3])\n\n"
        --
        "notice(1, [2, 3])\n\n"
        --
    "#]],
    );
}

// ----- semantic tokens --------------------------------------------------

fn render_tokens(path: &str, text: &str, analysis: &Analysis, range: Option<TextRange>) -> String {
    let index = LineIndex::new(text);
    let mut out = String::new();
    for token in analysis.semantic_tokens(Path::new(path), range).unwrap() {
        let mods: Vec<&str> = MODIFIER_LEGEND
            .iter()
            .enumerate()
            .filter(|(i, _)| token.modifiers & (1 << i) != 0)
            .map(|(_, m)| *m)
            .collect();
        let _ = writeln!(
            out,
            "{} {} [{}] {:?}",
            pos(&index, token.range.start()),
            token.kind.name(),
            mods.join(","),
            &text[token.range]
        );
    }
    out
}

fn check_tokens(text: &str, expect: Expect) {
    let (analysis, _host) = single(text);
    expect.assert_eq(&render_tokens(MAIN, text, &analysis, None));
}

#[test]
fn semantic_tokens_of_definitions_and_resources() {
    check_tokens(
        r#"class m::web (String $port = '80') inherits m {
  include m::base, 'm::db'
  class { 'apache': }
  file { "/tmp/${port}":
    ensure  => present,
    content => "$port ${facts['os']}",
  }
  my::thing { 'x': }
  $n = $port + 1 * 0x10
  notice($n, Class['m'])
  $n.each |$k| { unknown_f($k =~ /a+/) }
}
type M::T = Variant[String, Integer]
@user { 'u': }
"#,
        expect![[r#"
            1:1 keyword [] "class"
            1:7 class [declaration,definition] "m::web"
            1:15 type [defaultLibrary] "String"
            1:22 parameter [declaration] "$port"
            1:28 operator [] "="
            1:30 string [] "'80'"
            1:36 keyword [] "inherits"
            1:45 class [] "m"
            2:3 function [defaultLibrary] "include"
            2:11 class [] "m::base"
            2:20 class [] "'m::db'"
            3:3 keyword [] "class"
            3:11 class [] "'apache'"
            4:3 type [defaultLibrary] "file"
            4:10 string [] "\""
            4:11 string [] "/tmp/"
            4:16 operator [] "${"
            4:18 parameter [] "port"
            4:22 operator [] "}"
            4:23 string [] "\""
            5:5 property [] "ensure"
            5:13 operator [] "=>"
            5:16 enumMember [] "present"
            6:5 property [] "content"
            6:13 operator [] "=>"
            6:16 string [] "\""
            6:17 parameter [] "$port"
            6:22 string [] " "
            6:23 operator [] "${"
            6:25 variable [readonly,defaultLibrary] "facts"
            6:31 string [] "'os'"
            6:36 operator [] "}"
            6:37 string [] "\""
            8:3 type [] "my::thing"
            8:15 string [] "'x'"
            9:3 variable [declaration] "$n"
            9:6 operator [] "="
            9:8 parameter [] "$port"
            9:14 operator [] "+"
            9:16 number [] "1"
            9:18 operator [] "*"
            9:20 number [] "0x10"
            10:3 function [defaultLibrary] "notice"
            10:10 variable [] "$n"
            10:14 type [defaultLibrary] "Class"
            10:20 class [] "'m'"
            11:3 variable [] "$n"
            11:6 function [defaultLibrary] "each"
            11:12 parameter [declaration] "$k"
            11:18 function [] "unknown_f"
            11:28 parameter [] "$k"
            11:31 operator [] "=~"
            11:34 regexp [] "/a+/"
            13:1 keyword [] "type"
            13:6 type [declaration,definition] "M::T"
            13:11 operator [] "="
            13:13 type [defaultLibrary] "Variant"
            13:21 type [defaultLibrary] "String"
            13:29 type [defaultLibrary] "Integer"
            14:1 decorator [] "@"
            14:2 type [defaultLibrary] "user"
            14:9 string [] "'u'"
        "#]],
    );
}

#[test]
fn semantic_tokens_split_multi_line_tokens() {
    check_tokens(
        "/* a\n   b */\n$x = @(\"END\")\n  one ${x}\n  two\n  | END\n",
        expect![[r#"
            1:1 comment [] "/* a"
            2:1 comment [] "   b */"
            3:1 variable [declaration] "$x"
            3:4 operator [] "="
            3:6 string [] "@(\"END\")"
            4:1 string [] "  one "
            4:7 operator [] "${"
            4:9 variable [] "x"
            4:10 operator [] "}"
            5:1 string [] "  two"
            6:1 string [] "  | END"
        "#]],
    );
}

#[test]
fn semantic_tokens_in_a_range() {
    let text = "$a = 1\n$b = 2\n$c = 3\n";
    let (analysis, _host) = single(text);
    let range = TextRange::new(TextSize::from(8), TextSize::from(12));
    expect![[r#"
        2:1 variable [declaration] "$b"
        2:4 operator [] "="
    "#]]
    .assert_eq(&render_tokens(MAIN, text, &analysis, Some(range)));
}

#[test]
fn semantic_tokens_of_a_template() {
    let path = "/ws/modules/m/templates/t.epp";
    let text = "<%- | String $name | -%>\n<%# note %>\nHello <%= $name %>!\n";
    let host = AnalysisHost::from_files(vec![(PathBuf::from(path), text.to_string())]);
    expect![[r#"
        1:1 macro [] "<%-"
        1:7 type [defaultLibrary] "String"
        1:14 parameter [declaration] "$name"
        1:22 macro [] "-%>"
        2:1 comment [] "<%# note %>"
        3:7 macro [] "<%="
        3:11 parameter [] "$name"
        3:17 macro [] "%>"
    "#]]
    .assert_eq(&render_tokens(
        path,
        text,
        &puppet_ide::snapshot(&host),
        None,
    ));
}

#[test]
fn semantic_token_legend() {
    let names: Vec<&str> = SemanticTokenKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names, SemanticTokenKind::LEGEND);
    for (i, kind) in SemanticTokenKind::ALL.iter().enumerate() {
        assert_eq!(*kind as usize, i);
    }
    expect![[r#"
        ["namespace", "type", "class", "enum", "parameter", "variable", "property", "enumMember", "function", "keyword", "comment", "string", "number", "regexp", "operator", "decorator", "macro"]
        ["declaration", "definition", "readonly", "defaultLibrary", "deprecated"]"#]].assert_eq(&format!("{names:?}\n{MODIFIER_LEGEND:?}"));
}

// ----- signature help ---------------------------------------------------

const LIBRARY: &str = r#"
#- /ws/modules/m/manifests/init.pp
# The m class.
class m (String $name, Integer $port = 80, Boolean $ssl = false) { }
#- /ws/modules/m/manifests/vhost.pp
define m::vhost (Stdlib::Port $port, Array[String] *$aliases) { }
#- /ws/modules/m/functions/add.pp
# Adds.
function m::add(Integer $a, Integer $b = 1, Integer *$more) >> Integer { $a + $b }
#- /ws/modules/m/lib/puppet/functions/m/pick.rb
Puppet::Functions.create_function(:'m::pick') do
  dispatch :by_count do
    param 'Integer', :count
    optional_param 'String', :sep
  end
  dispatch :by_values do
    param 'Array', :values
    repeated_param 'String', :more
    optional_block_param 'Callable[1, 1]', :block
    return_type 'String'
  end
end
"#;

fn check_signature(marked: &str, expect: Expect) {
    let (text, offsets) = cursors(marked);
    let mut files = parse_fixture(LIBRARY);
    let path = PathBuf::from("/ws/modules/m/manifests/use.pp");
    files.push((path.clone(), text));
    let host = AnalysisHost::from_files(files);
    let analysis = puppet_ide::snapshot(&host);
    let mut out = String::new();
    for offset in offsets {
        let help = analysis
            .signature_help(&FilePosition {
                path: path.clone(),
                offset,
            })
            .unwrap();
        let Some(help) = help else {
            out.push_str("none\n--\n");
            continue;
        };
        for (i, sig) in help.signatures.iter().enumerate() {
            let active = i == help.active_signature;
            let mut label = sig.label.clone();
            if let Some((s, e)) = help
                .active_parameter
                .filter(|_| active)
                .and_then(|p| sig.parameters.get(p))
                .map(|p| p.label_range_in_signature_label)
            {
                label = format!("{}<<{}>>{}", &label[..s], &label[s..e], &label[e..]);
            }
            let _ = writeln!(out, "{} {label}", if active { "*" } else { " " });
            if let Some(doc) = sig.documentation.as_ref().filter(|_| active) {
                let _ = writeln!(out, "    {}", doc.lines().next().unwrap_or(""));
            }
        }
        out.push_str("--\n");
    }
    expect.assert_eq(&out);
}

#[test]
fn signature_help_for_builtin_functions() {
    check_signature(
        "$x = lookup('a', $0)\n$y = [1].each |$v| { }\nnotice(join($0[0], [1, $0]), $0\n",
        expect![[r#"
            * lookup(Variant[String, Array[String]] $name, <<[Type $value_type]>>, [Variant[String[1], Hash[String, Scalar]] $merge])
                Looks up a key in Hiera data.
              lookup(Variant[String, Array[String]] $name, Optional[Type] $value_type, Optional[Variant[String[1], Hash[String, Scalar]]] $merge, Any $default_value)
              lookup(Variant[String, Array[String]] $name, [Type $value_type], [Variant[String[1], Hash[String, Scalar]] $merge], Callable[Variant[String, Array[String]]] &$block)
              lookup(Struct[{'name' => Variant[String, Array[String]], 'value_type' => Optional[Type], 'default_value' => Any, 'override' => Optional[Hash[String, Any]], 'default_values_hash' => Optional[Hash[String, Any]], 'merge' => Optional[Variant[String[1], Hash[String, Scalar]]]}] $options_hash, [Callable[Variant[String, Array[String]]] &$block])
              lookup(Variant[String, Array[String]] $name, Struct[{'value_type' => Optional[Type], 'default_value' => Any, 'override' => Optional[Hash[String, Any]], 'default_values_hash' => Optional[Hash[String, Any]], 'merge' => Optional[Variant[String[1], Hash[String, Scalar]]]}] $options_hash, [Callable[Variant[String, Array[String]]] &$block])
            --
            * join(<<Array $arg>>, [String $delimiter])
                Joins array elements into a string.
            --
            * join(Array $arg, <<[String $delimiter]>>)
                Joins array elements into a string.
            --
            * notice(<<Any *$values>>) >> Undef
                Logs a message at notice level.
            --
        "#]],
    );
}

#[test]
fn signature_help_picks_the_dispatch_by_arity() {
    check_signature(
        "$a = split('a', $0)\n$b = regsubst('a', 'b', 'c', $0\n",
        expect![[r#"
            * split(String $str, <<String $pattern>>)
                Splits a string on a separator or regexp.
              split(String $str, Regexp $pattern)
              split(String $str, Type[Regexp] $pattern)
              split(Sensitive[String] $sensitive, String $pattern)
              split(Sensitive[String] $sensitive, Regexp $pattern)
              split(Sensitive[String] $sensitive, Type[Regexp] $pattern)
            --
            * regsubst(Variant[Array[String], String] $target, String $pattern, Variant[String, Hash[String, String]] $replacement, <<[Optional[Pattern[/^[GEIM]*$/]] $flags]>>, [Enum['E', 'N', 'S', 'U'] $encoding])
                Replaces regexp matches in a string.
              regsubst(Variant[Array[String], String] $target, Variant[Regexp, Type[Regexp]] $pattern, Variant[String, Hash[String, String]] $replacement, [Pattern[/^G?$/] $flags])
            --
        "#]],
    );
}

#[test]
fn signature_help_for_statement_calls_and_methods() {
    check_signature(
        "include m, $0\n$w = 1\nnotice $0\n$x = [1].filter($0)\n$z = 1\n$0",
        expect![[r#"
            * include(<<Any *$names>>)
                Declares classes, each at most once.
            --
            * notice(<<Any *$values>>) >> Undef
                Logs a message at notice level.
            --
              filter(Hash $hash, Callable[2, 2] &$block)
              filter(Hash $hash, Callable[1, 1] &$block)
            * filter(Iterable $enumerable, Callable[2, 2] &$block)
                Elements for which the block returns true.
              filter(Iterable $enumerable, Callable[1, 1] &$block)
            --
            none
            --
        "#]],
    );
}

#[test]
fn signature_help_for_workspace_functions() {
    check_signature(
        "$s = m::add(1, $0)\n$t = m::add(1, 2, 3, 4$0)\n$u = m::add($0\n",
        expect![[r#"
            * m::add(Integer $a, <<Integer $b = 1>>, Integer *$more) >> Integer
                Adds.
            --
            * m::add(Integer $a, Integer $b = 1, <<Integer *$more>>) >> Integer
                Adds.
            --
            * m::add(<<Integer $a>>, Integer $b = 1, Integer *$more) >> Integer
                Adds.
            --
        "#]],
    );
}

#[test]
fn signature_help_for_ruby_functions() {
    check_signature(
        "$a = m::pick(1, $0)\n$b = m::pick([], 'a', 'b', $0)\n$c = m::pick([], $0)\n",
        expect![[r#"
            * m::pick(Integer $count, <<[String $sep]>>)
              m::pick(Array $values, String *$more, [Callable[1, 1] &$block]) >> String
            --
              m::pick(Integer $count, [String $sep])
            * m::pick(Array $values, <<String *$more>>, [Callable[1, 1] &$block]) >> String
            --
              m::pick(Integer $count, [String $sep])
            * m::pick(Array $values, <<String *$more>>, [Callable[1, 1] &$block]) >> String
            --
        "#]],
    );
}

#[test]
fn signature_help_for_declarations() {
    check_signature(
        "class { 'm': port => 1$0, ssl => $0 }\nm::vhost { 'v': port => 1, $0 }\nm::vhost { 'w':\n  port => 1,\n  $0aliases =>",
        expect![[r#"
            * m(String $name, <<Integer $port = 80>>, Boolean $ssl = false)
                The m class.
            --
            * m(String $name, Integer $port = 80, <<Boolean $ssl = false>>)
                The m class.
            --
            * m::vhost(Stdlib::Port $port, Array[String] *$aliases)
            --
            * m::vhost(Stdlib::Port $port, <<Array[String] *$aliases>>)
            --
        "#]],
    );
}

#[test]
fn signature_help_outside_calls() {
    check_signature(
        "$0notice(1)$0 f$0(1)\n$x.each |$v| { $0 }\nunknown_f(1, $0)\n",
        expect![[r#"
            none
            --
            none
            --
            none
            --
            none
            --
            none
            --
        "#]],
    );
}

// ----- robustness -------------------------------------------------------

/// Every `.pp` file of the parser's test data, well-formed and broken.
fn corpus() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../syntax/test_data/parser");
    let mut files = Vec::new();
    for dir in ["ok", "err"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "pp") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    files.push((path, text));
                }
            }
        }
    }
    files.sort();
    // Multi-byte text, CRLF line ends, unterminated constructs.
    let extra = [
        "class é(String $ü = \"ä${x}ö\") {\r\n  # ü\r\n  # ö\r\n  file { 'ß': }\r\n}\r\n",
        "$x = @(END)\n  ünterminated ${",
        "notice(\"${f(1, [\n",
        "/* ünclosed\n comment",
        "class { 'x': a => 'é', b =>",
        "}}}{{{)))(((]]][[[ | || <| |>> \u{0}",
    ];
    for (i, text) in extra.iter().enumerate() {
        files.push((PathBuf::from(format!("/extra/{i}.pp")), text.to_string()));
    }
    files
}

#[test]
fn structural_features_hold_on_the_parser_corpus() {
    let files = corpus();
    assert!(files.len() > 100, "corpus not found: {}", files.len());
    for (path, text) in files {
        let host = AnalysisHost::from_files(vec![(path.clone(), text.clone())]);
        let analysis = puppet_ide::snapshot(&host);
        let end = TextSize::of(text.as_str());

        let tokens = analysis.semantic_tokens(&path, None).unwrap();
        for pair in tokens.windows(2) {
            assert!(
                pair[0].range.end() <= pair[1].range.start(),
                "{}: overlapping {pair:?}",
                path.display()
            );
        }
        for token in &tokens {
            let piece = &text[token.range];
            assert!(
                !piece.is_empty() && !piece.contains(['\n', '\r']),
                "{}: bad token {token:?} {piece:?}",
                path.display()
            );
        }

        for fold in analysis.folding_ranges(&path).unwrap() {
            assert!(fold.range.end() <= end, "{}: {fold:?}", path.display());
        }
        check_symbol_ranges(&path, &analysis.document_symbols(&path).unwrap(), end);

        let offsets: Vec<TextSize> = (0..=u32::from(end) + 2).map(TextSize::from).collect();
        for ranges in analysis.selection_ranges(&path, &offsets).unwrap() {
            for pair in ranges.windows(2) {
                assert!(
                    pair[1].contains_range(pair[0]) && pair[1] != pair[0],
                    "{}: {pair:?}",
                    path.display()
                );
            }
        }
        for offset in offsets {
            let position = FilePosition {
                path: path.clone(),
                offset,
            };
            if let Some(help) = analysis.signature_help(&position).unwrap() {
                for sig in &help.signatures {
                    for p in &sig.parameters {
                        let (s, e) = p.label_range_in_signature_label;
                        assert!(sig.label.get(s..e).is_some(), "{sig:?}");
                    }
                }
            }
        }
    }
}

fn check_symbol_ranges(path: &Path, symbols: &[DocumentSymbol], end: TextSize) {
    for s in symbols {
        assert!(
            s.full_range.contains_range(s.focus_range) && s.full_range.end() <= end,
            "{}: {s:?}",
            path.display()
        );
        check_symbol_ranges(path, &s.children, end);
    }
}

#[test]
fn unknown_files_give_empty_answers() {
    let (analysis, _host) = single("class m { }\n");
    let nowhere = Path::new("/nowhere.pp");
    assert!(analysis.document_symbols(nowhere).unwrap().is_empty());
    assert!(analysis.folding_ranges(nowhere).unwrap().is_empty());
    assert_eq!(
        analysis
            .selection_ranges(nowhere, &[TextSize::from(0)])
            .unwrap(),
        vec![Vec::<TextRange>::new()]
    );
    assert!(analysis.semantic_tokens(nowhere, None).unwrap().is_empty());
    let position = FilePosition {
        path: nowhere.to_path_buf(),
        offset: TextSize::from(0),
    };
    assert_eq!(analysis.signature_help(&position).unwrap(), None);
}

/// A heredoc's tag in its header and on its end line are edited together,
/// from either; elsewhere there is nothing to link.
#[test]
fn linked_editing_of_heredoc_tags() {
    let text = "$a = @(\"END\":json/L)\n  {\"a\": \"${x}\"}\n  |- END\n$b = @(TXT)\nt\nTXT\nnotice('END')\n";
    let (analysis, _host) = single(text);
    let path = PathBuf::from(MAIN);
    let render = |r: TextRange| {
        let before = &text[..usize::from(r.start())];
        let line = before.matches('\n').count() + 1;
        let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        format!("{line}:{col} '{}'", &text[r])
    };
    let at = |needle: &str, occurrence: usize| -> String {
        let offset = text
            .match_indices(needle)
            .nth(occurrence)
            .map(|(i, _)| i)
            .unwrap()
            + 1;
        match analysis
            .linked_editing_ranges(&path, TextSize::new(offset as u32))
            .unwrap()
        {
            Some(linked) => linked
                .ranges
                .iter()
                .map(|r| render(*r))
                .collect::<Vec<_>>()
                .join(" + "),
            None => "none".to_string(),
        }
    };
    expect![[r#"
        1:9 'END' + 3:6 'END'
        1:9 'END' + 3:6 'END'
        4:8 'TXT' + 6:1 'TXT'
        4:8 'TXT' + 6:1 'TXT'
        none
        none"#]]
    .assert_eq(
        &[
            at("END", 0),
            at("END", 1),
            at("TXT", 0),
            at("TXT", 1),
            at("END", 2),
            at("json", 0),
        ]
        .join("\n"),
    );
}
