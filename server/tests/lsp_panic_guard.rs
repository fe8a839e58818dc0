//! A panic while the server applies an edit (a bug in reparsing or
//! analysis on some strange input) must not end the session: the panic is
//! injected with `PUPPET_LS_TEST_PANIC_MARKER`, then the server must keep
//! answering, keep every edit, and analyse the next good text.

mod support;

use serde_json::json;
use support::{doc_pos, fixture, position_of, Server};

const MODULE: &str = r#"
#- demo/manifests/init.pp
class demo {
  $x = 8000 + 80
  notice($x)
}
"#;

const MARKER: &str = "__boom__";

fn change(server: &mut Server, uri: &str, version: i32, text: &str) {
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}],
        }),
    );
}

fn hover_text(server: &mut Server, uri: &str, text: &str, needle: &str) -> String {
    let hover = server
        .request(
            "textDocument/hover",
            doc_pos(uri, position_of(text, needle, 1)),
        )
        .expect("hover answers");
    hover["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[test]
fn a_panic_while_applying_an_edit_does_not_end_the_server() {
    let dir = fixture(MODULE);
    let mut server = Server::start_env(&[], &[("PUPPET_LS_TEST_PANIC_MARKER", MARKER)]);
    server.initialize(dir.path(), json!({}));
    let uri = dir.uri("demo/manifests/init.pp");
    let text = std::fs::read_to_string(dir.join("demo/manifests/init.pp")).unwrap();
    server.did_open(&uri, 1, &text);
    assert!(hover_text(&mut server, &uri, &text, "$x").contains("Integer[8080, 8080]"));

    // The analysis of this text panics (twice: the edit, then the retry
    // with the whole text).
    let marker_line = format!("# {MARKER}");
    let broken = format!("{marker_line}\n{text}");
    change(&mut server, &uri, 2, &broken);
    assert!(server.alive(), "the server ended on a panic");
    // Still serving: a request about the document is answered.
    let symbols = server
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )
        .expect("document symbols answer");
    assert!(symbols.is_array() || symbols.is_null(), "{symbols:#}");

    // An incremental edit of the panicking version's first line: right
    // only if that version was kept.
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 3},
            "contentChanges": [{
                "range": {
                    "start": {"line": 0, "character": 0},
                    "end": {"line": 0, "character": marker_line.len()},
                },
                "text": "$y = 5",
            }],
        }),
    );
    let fixed = format!("$y = 5\n{text}");
    assert!(hover_text(&mut server, &uri, &fixed, "$y").contains("Integer[5, 5]"));
    assert!(hover_text(&mut server, &uri, &fixed, "$x").contains("Integer[8080, 8080]"));
    assert!(server.shutdown().success());
}

/// A panic in a request handler is answered with an internal error naming
/// it; the session goes on, and the same request for other methods works.
#[test]
fn a_panic_in_a_request_handler_is_an_error_reply() {
    let dir = fixture(MODULE);
    let mut server = Server::start_env(
        &[],
        &[("PUPPET_LS_TEST_PANIC_METHOD", "textDocument/hover")],
    );
    server.initialize(dir.path(), json!({}));
    let uri = dir.uri("demo/manifests/init.pp");
    let text = std::fs::read_to_string(dir.join("demo/manifests/init.pp")).unwrap();
    server.did_open(&uri, 1, &text);
    for _ in 0..2 {
        let error = server
            .request(
                "textDocument/hover",
                doc_pos(&uri, position_of(&text, "$x", 1)),
            )
            .expect_err("the hover handler panics");
        assert_eq!(error["code"], json!(-32603), "{error:#}");
        let message = error["message"].as_str().unwrap_or("");
        assert!(message.contains("textDocument/hover"), "{message}");
        assert!(message.contains("injected panic"), "{message}");
        assert!(server.alive(), "the server ended on a panic");
    }
    let definition = server
        .request(
            "textDocument/definition",
            doc_pos(&uri, position_of(&text, "$x", 7)),
        )
        .expect("other requests are answered");
    assert!(
        definition.is_object() || definition.is_array(),
        "{definition:#}"
    );
    assert!(server.shutdown().success());
}

/// A panic in a notification handler is logged and dropped: the
/// documents and the analysis stay as they were.
#[test]
fn a_panic_in_a_notification_handler_is_dropped() {
    let dir = fixture(MODULE);
    let mut server = Server::start_env(
        &[],
        &[(
            "PUPPET_LS_TEST_PANIC_METHOD",
            "workspace/didChangeWatchedFiles",
        )],
    );
    server.initialize(dir.path(), json!({}));
    let uri = dir.uri("demo/manifests/init.pp");
    let text = std::fs::read_to_string(dir.join("demo/manifests/init.pp")).unwrap();
    server.did_open(&uri, 1, &text);
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 2}]}),
    );
    assert!(server.alive(), "the server ended on a panic");
    assert!(hover_text(&mut server, &uri, &text, "$x").contains("Integer[8080, 8080]"));
    assert!(server.shutdown().success());
}
