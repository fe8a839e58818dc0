//! Formatting over the protocol: `textDocument/formatting`,
//! `rangeFormatting` and `onTypeFormatting` on the real binary.

mod support;

use serde_json::{json, Value};
use std::time::{Duration, Instant};
use support::{apply_edits as apply, fixture, Server, TempDir, TIMEOUT};

const UGLY: &str = "class demo {\n    $a  =  \"x\"\n  file {'/x': ensure=>file, mode=>'0644'}\n}\n";
const TIDY: &str = "class demo {\n  $a = 'x'\n  file { '/x':\n    ensure => file,\n    mode   => '0644',\n  }\n}\n";

fn start() -> (Server, TempDir, Value) {
    let dir = fixture("#- demo/manifests/init.pp\nclass demo {}\n");
    let mut server = Server::start();
    let init = server.initialize(dir.path(), support::push_capabilities(false));
    server.wait_notification("$/progress", |p| p["value"]["kind"] == "end", TIMEOUT);
    (server, dir, init)
}

#[test]
fn capabilities_offer_the_three_formatting_requests() {
    let (server, _dir, init) = start();
    let caps = &init["capabilities"];
    assert_eq!(caps["documentFormattingProvider"], true);
    assert_eq!(caps["documentRangeFormattingProvider"], true);
    assert_eq!(
        caps["documentOnTypeFormattingProvider"],
        json!({"firstTriggerCharacter": ",", "moreTriggerCharacter": ["\n"]})
    );
    assert!(server.shutdown().success());
}

#[test]
fn formatting_gives_edits_to_the_formatted_text() {
    let (mut server, dir, _) = start();
    let uri = dir.uri("demo/manifests/ugly.pp");
    server.did_open(&uri, 1, UGLY);
    let edits = server.call(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(apply(UGLY, &edits), TIDY);
    // The first line is already formatted: no edit touches it.
    assert!(edits
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["range"]["start"]["line"] != 0));

    server.did_open(&dir.uri("demo/manifests/tidy.pp"), 1, TIDY);
    let none = server.call(
        "textDocument/formatting",
        json!({"textDocument": {"uri": dir.uri("demo/manifests/tidy.pp")}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(none, json!([]));
    assert!(server.shutdown().success());
}

#[test]
fn unparsable_documents_and_templates_are_not_formatted() {
    let (mut server, dir, _) = start();
    let broken = dir.uri("demo/manifests/broken.pp");
    server.did_open(
        &broken,
        1,
        "file { '/x':\n  ensure => file\n  mode => 1,\n}\n",
    );
    let options = json!({"tabSize": 2, "insertSpaces": true});
    let reply = server.call(
        "textDocument/formatting",
        json!({"textDocument": {"uri": broken}, "options": options}),
    );
    assert_eq!(reply, Value::Null);
    let template = dir.uri("demo/templates/t.epp");
    server.did_open(&template, 1, "<%= $x  %>\n");
    let reply = server.call(
        "textDocument/formatting",
        json!({"textDocument": {"uri": template}, "options": options}),
    );
    assert_eq!(reply, Value::Null);
    assert!(server.shutdown().success());
}

#[test]
fn range_formatting_changes_only_the_selected_lines() {
    let (mut server, dir, _) = start();
    let uri = dir.uri("demo/manifests/ugly.pp");
    let text = "$a  =  1\n$b  =  2\n$c  =  3\n";
    server.did_open(&uri, 1, text);
    let edits = server.call(
        "textDocument/rangeFormatting",
        json!({
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 3}},
            "options": {"tabSize": 2, "insertSpaces": true},
        }),
    );
    assert_eq!(apply(text, &edits), "$a  =  1\n$b = 2\n$c  =  3\n");
    assert!(server.shutdown().success());
}

#[test]
fn typing_a_comma_or_a_line_break_aligns_the_arrows_around_the_cursor() {
    let (mut server, dir, _) = start();
    let uri = dir.uri("demo/manifests/typing.pp");
    let text = "$x  =  1\nfile { '/x':\n  ensure => file,\n  mode => '0644',\n}\n";
    server.did_open(&uri, 1, text);
    let options = json!({"tabSize": 2, "insertSpaces": true});
    let edits = server.call(
        "textDocument/onTypeFormatting",
        json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 17}, "ch": ",", "options": options}),
    );
    assert_eq!(
        apply(text, &edits),
        "$x  =  1\nfile { '/x':\n  ensure => file,\n  mode   => '0644',\n}\n",
        "the resource is aligned, the line outside it left"
    );

    // Enter after `mode => '0644',`: the new line keeps the editor's
    // indentation (and the cursor); the arrows are aligned.
    let typed = "file { '/x':\n  ensure => file,\n  mode => '0644',\n  \n}\n";
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": typed}]}),
    );
    let edits = server.call(
        "textDocument/onTypeFormatting",
        json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 2}, "ch": "\n", "options": options}),
    );
    assert_eq!(
        apply(typed, &edits),
        "file { '/x':\n  ensure => file,\n  mode   => '0644',\n  \n}\n"
    );
    assert!(server.shutdown().success());
}

/// Format-on-save on the largest corpus file (292 KB) answers quickly even
/// in a debug build.
#[test]
fn formatting_the_largest_corpus_file_is_fast() {
    let path = std::path::Path::new("/usr/share/puppet/modules/oci/manifests/controller.pp");
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("SKIPPED: the corpus is not installed");
        return;
    };
    let (mut server, dir, _) = start();
    let uri = dir.uri("demo/manifests/controller.pp");
    server.did_open(&uri, 1, &text);
    let started = Instant::now();
    let edits = server.call(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let elapsed = started.elapsed();
    assert!(edits.is_array(), "{edits}");
    assert!(
        elapsed < Duration::from_secs(10),
        "formatting took {elapsed:?}"
    );
    let formatted = apply(&text, &edits);
    assert_eq!(
        puppet_format::format_source(
            &formatted,
            puppet_syntax::SourceKind::Manifest,
            &Default::default()
        )
        .as_deref(),
        Ok(formatted.as_str()),
        "the edits give the formatted text"
    );
    assert!(server.shutdown().success());
}
