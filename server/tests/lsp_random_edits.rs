//! Thousands of random incremental edits (UTF-16 positions, multi-byte
//! characters, several changes per notification): the server's final text
//! and diagnostics equal those of a fresh server opening the final text.

mod support;

use serde_json::{json, Value};
use support::{fixture, Server};

const START: &str = "class demo (\n  Integer $port = 8080,\n) {\n  $x = $port + 1\n  notice(\"é ${x}\")\n  file { '/tmp/a':\n    ensure => file,\n  }\n}\n";

const FRAGMENTS: &[&str] = &[
    "$x = 1\n",
    "{",
    "}",
    "'é'",
    "😀",
    "class a {",
    "\n",
    " ",
    "notice($x)\n",
    "$y",
    "if $x { ",
    "(",
    ")",
    "\"${x}\"",
    "# comment 😀\n",
    "include demo::missing\n",
    "service { 'x': ensure => runing }\n",
    ",",
    "=>",
    "[1, 2]",
    "'",
    "\"",
];

/// The LSP position (UTF-16) of a byte offset.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": before[start..].encode_utf16().count()})
}

/// A random char boundary of `text`.
fn boundary(rng: &mut fastrand::Rng, text: &str) -> usize {
    let mut i = rng.usize(..text.len() + 1);
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The (range, code, message) of a pulled report, sorted.
fn diagnostic_set(report: &Value) -> Vec<String> {
    let mut out: Vec<String> = report["items"]
        .as_array()
        .unwrap_or_else(|| panic!("{report:#}"))
        .iter()
        .map(|d| format!("{} {} {}", d["range"], d["code"], d["message"]))
        .collect();
    out.sort();
    out
}

fn caps() -> Value {
    json!({"textDocument": {"diagnostic": {"dynamicRegistration": false}}})
}

#[test]
fn random_incremental_edits_match_a_fresh_analysis() {
    let dir = fixture("#- demo/manifests/other.pp\nclass demo::other {\n}\n");
    let uri = dir.uri("demo/manifests/init.pp");
    let mut server = Server::start();
    server.initialize(dir.path(), caps());
    server.did_open(&uri, 1, START);

    let mut rng = fastrand::Rng::with_seed(0x9E37_79B9_7F4A_7C15);
    let mut mirror = START.to_string();
    let mut version = 1;
    let mut edits = 0;
    while edits < 2000 {
        let batch = 1 + rng.usize(..6);
        let mut changes = Vec::new();
        for _ in 0..batch {
            let start = boundary(&mut rng, &mirror);
            // Delete more when the text grows large.
            let delete = if mirror.len() > 2000 || rng.usize(..3) == 0 {
                rng.usize(..12)
            } else {
                0
            };
            let mut end = start;
            for _ in 0..delete {
                if let Some(c) = mirror[end..].chars().next() {
                    end += c.len_utf8();
                }
            }
            let insert = if rng.usize(..4) == 0 {
                ""
            } else {
                FRAGMENTS[rng.usize(..FRAGMENTS.len())]
            };
            changes.push(json!({
                "range": {"start": position(&mirror, start), "end": position(&mirror, end)},
                "text": insert,
            }));
            mirror.replace_range(start..end, insert);
            edits += 1;
        }
        version += 1;
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        );
        // Now and then, ask for something while edits are in flight.
        if version % 97 == 0 {
            let at = boundary(&mut rng, &mirror);
            let reply = server.request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": position(&mirror, at)}),
            );
            if let Err(e) = reply {
                assert_ne!(e["code"], -32603, "internal error: {e}");
            }
        }
    }

    let tree = server.call(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": uri}}),
    );
    let report = server.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );

    let mut fresh = Server::start();
    fresh.initialize(dir.path(), caps());
    fresh.did_open(&uri, 1, &mirror);
    let fresh_tree = fresh.call(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": uri}}),
    );
    let fresh_report = fresh.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );

    assert_eq!(
        tree.as_str().unwrap(),
        fresh_tree.as_str().unwrap(),
        "the server's text differs from the client's; final text:\n{mirror}"
    );
    assert_eq!(
        diagnostic_set(&report),
        diagnostic_set(&fresh_report),
        "final text:\n{mirror}"
    );
    assert!(server.shutdown().success());
    assert!(fresh.shutdown().success());
}
