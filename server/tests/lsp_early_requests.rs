//! Requests sent right after `initialized`, while the workspace is still
//! being indexed: they wait for the load (bounded) and answer as they
//! would once it is done. The index is held back with the test-only
//! `PUPPET_LS_TEST_INDEX_DELAY_MS`, so that every request here really
//! arrives before it is applied.

mod support;

use serde_json::{json, Value};
use std::time::{Duration, Instant};
use support::{codes, doc_pos, fixture, position_of, Server, TempDir, TIMEOUT};

const MODULE: &str = r#"
#- demo/metadata.json
{"name": "acme-demo", "version": "1.0.0", "author": "acme", "license": "Apache-2.0", "summary": "demo", "source": "x", "dependencies": []}
#- demo/types/port.pp
type Demo::Port = Integer[1, 65535]
#- demo/manifests/init.pp
class demo (
  Demo::Port $port = 8080,
) {
  $x = 8000 + 80
  contain demo::web
  notice($x, $port)
}
#- demo/manifests/web.pp
class demo::web {
  file { '/tmp/web':
    ensure => file,
  }
}
"#;

/// Holds indexing back for an hour: it never completes during a test.
const FOREVER: &str = "3600000";

/// Starts a server on `dir` with these environment variables and sends
/// `initialize` + `initialized` (without waiting for the index).
fn start(dir: &TempDir, env: &[(&str, &str)]) -> Server {
    let mut server = Server::start_env(&[], env);
    let caps = json!({
        "window": {"workDoneProgress": true},
        "textDocument": {"publishDiagnostics": {"versionSupport": true}},
    });
    server.initialize(dir.path(), caps);
    server
}

fn open(server: &mut Server, dir: &TempDir, rel: &str) -> (String, String) {
    let uri = dir.uri(rel);
    let text = std::fs::read_to_string(dir.join(rel)).unwrap();
    server.did_open(&uri, 1, &text);
    (uri, text)
}

/// The target URI of a definition reply's first link.
fn target_uri(def: &Value) -> &str {
    def[0]["targetUri"]
        .as_str()
        .unwrap_or_else(|| panic!("no definition: {def:#}"))
}

fn hover_text(hover: &Value) -> String {
    hover["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[test]
fn cross_file_answers_right_after_initialized() {
    let dir = fixture(MODULE);
    let mut server = start(&dir, &[("PUPPET_LS_TEST_INDEX_DELAY_MS", "500")]);
    let (uri, text) = open(&mut server, &dir, "demo/manifests/init.pp");
    // Sent at once, before any reply: all arrive while indexing.
    let definition = server.send_request(
        "textDocument/definition",
        doc_pos(&uri, position_of(&text, "demo::web", 2)),
    );
    let alias = server.send_request(
        "textDocument/hover",
        doc_pos(&uri, position_of(&text, "Demo::Port", 3)),
    );
    let references = server.send_request(
        "textDocument/references",
        json!({
            "textDocument": {"uri": dir.uri("demo/types/port.pp")},
            "position": {"line": 0, "character": 7},
            "context": {"includeDeclaration": false},
        }),
    );

    let def = server.wait_response(&json!(definition)).unwrap();
    assert!(
        target_uri(&def).ends_with("demo/manifests/web.pp"),
        "{def:#}"
    );
    let hover = server.wait_response(&json!(alias)).unwrap();
    assert!(
        hover_text(&hover).contains("Integer[1, 65535]"),
        "{hover:#}"
    );
    // About a file that is not open: known only from the index.
    let refs = server.wait_response(&json!(references)).unwrap();
    assert_eq!(refs.as_array().map(Vec::len), Some(1), "{refs:#}");
    assert_eq!(refs[0]["uri"], uri, "{refs:#}");
    // The first full diagnostics of the open document come after the
    // load too: the alias and the class are known.
    let diagnostics = server.wait_diagnostics(&uri, |_| true);
    let codes = codes(&diagnostics["diagnostics"]);
    assert!(
        !codes.iter().any(|c| c.starts_with("unknown-")),
        "{diagnostics:#}"
    );
    assert!(server.shutdown().success());
}

#[test]
fn edits_made_while_indexing_are_in_the_answer() {
    let dir = fixture(MODULE);
    let mut server = start(&dir, &[("PUPPET_LS_TEST_INDEX_DELAY_MS", "500")]);
    let (uri, text) = open(&mut server, &dir, "demo/manifests/init.pp");
    // A new line before `contain`: the class name moves down one line.
    let edited = text.replace("  contain", "  notice('moved')\n  contain");
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": edited}],
        }),
    );
    let def = server
        .request(
            "textDocument/definition",
            doc_pos(&uri, position_of(&edited, "demo::web", 2)),
        )
        .unwrap();
    assert!(
        target_uri(&def).ends_with("demo/manifests/web.pp"),
        "{def:#}"
    );
    // The index did not overwrite the editor's text with the disk's.
    let hover = server
        .request(
            "textDocument/hover",
            doc_pos(&uri, position_of(&edited, "'moved'", 1)),
        )
        .unwrap();
    assert!(hover_text(&hover).contains("moved"), "{hover:#}");
    assert!(server.shutdown().success());
}

#[test]
fn the_wait_is_bounded() {
    let dir = fixture(MODULE);
    let begun = Instant::now();
    let mut server = start(
        &dir,
        &[
            ("PUPPET_LS_TEST_INDEX_DELAY_MS", FOREVER),
            ("PUPPET_LS_LOAD_WAIT_MS", "400"),
        ],
    );
    let (uri, text) = open(&mut server, &dir, "demo/manifests/init.pp");
    // Past the bound, the answer is what the open document alone gives.
    let hover = server
        .request(
            "textDocument/hover",
            doc_pos(&uri, position_of(&text, "$x, $port", 1)),
        )
        .unwrap();
    let waited = begun.elapsed();
    assert!(hover_text(&hover).contains("8080"), "{hover:#}");
    assert!(waited >= Duration::from_millis(400), "{waited:?}");
    // Later requests no longer wait: the class is unknown without the
    // index, and the answer says so rather than hanging.
    let asked = Instant::now();
    let def = server
        .request(
            "textDocument/definition",
            doc_pos(&uri, position_of(&text, "demo::web", 2)),
        )
        .unwrap();
    assert_eq!(def, Value::Null);
    assert!(asked.elapsed() < TIMEOUT / 2, "{:?}", asked.elapsed());
    assert!(server.shutdown().success());
}

#[test]
fn document_requests_do_not_wait() {
    let dir = fixture(MODULE);
    // A bound longer than the client's own timeout: a request that waited
    // would fail the test.
    let mut server = start(
        &dir,
        &[
            ("PUPPET_LS_TEST_INDEX_DELAY_MS", FOREVER),
            ("PUPPET_LS_LOAD_WAIT_MS", FOREVER),
        ],
    );
    let (uri, _) = open(&mut server, &dir, "demo/manifests/init.pp");
    let symbols = server
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )
        .unwrap();
    assert_eq!(symbols[0]["name"], "demo", "{symbols:#}");
    let folds = server
        .request(
            "textDocument/foldingRange",
            json!({"textDocument": {"uri": uri}}),
        )
        .unwrap();
    assert!(!folds.as_array().unwrap().is_empty(), "{folds:#}");
    let edits = server
        .request(
            "textDocument/formatting",
            json!({
                "textDocument": {"uri": uri},
                "options": {"tabSize": 2, "insertSpaces": true},
            }),
        )
        .unwrap();
    assert!(edits.is_array(), "{edits:#}");
    assert!(server.shutdown().success());
}

#[test]
fn waiting_requests_can_be_cancelled() {
    let dir = fixture(MODULE);
    let mut server = start(
        &dir,
        &[
            ("PUPPET_LS_TEST_INDEX_DELAY_MS", FOREVER),
            ("PUPPET_LS_LOAD_WAIT_MS", FOREVER),
        ],
    );
    let (uri, text) = open(&mut server, &dir, "demo/manifests/init.pp");
    // More waiting requests than tower-lsp-server's default concurrency
    // (4): the cancellations behind them must still be handled.
    let ids: Vec<i64> = (0..8)
        .map(|_| {
            server.send_request(
                "textDocument/hover",
                doc_pos(&uri, position_of(&text, "Demo::Port", 3)),
            )
        })
        .collect();
    for id in &ids {
        server.notify("$/cancelRequest", json!({"id": id}));
    }
    for id in &ids {
        let reply = server.wait_response(&json!(id));
        let error = reply.expect_err("a cancelled request answers with an error");
        assert_eq!(error["code"], -32800, "{error:#}");
    }
    // `shutdown` is answered although the index never completes.
    assert!(server.shutdown().success());
}

#[test]
fn indexing_does_not_wait_for_the_client() {
    let dir = fixture(MODULE);
    // Requests wait as long as it takes: only the index can release them.
    let mut server = start(&dir, &[("PUPPET_LS_LOAD_WAIT_MS", FOREVER)]);
    // A client that answers `window/workDoneProgress/create` only after
    // its own request: the index must not wait for that answer.
    server.ignore_server_requests = true;
    let (uri, text) = open(&mut server, &dir, "demo/manifests/init.pp");
    let def = server
        .request(
            "textDocument/definition",
            doc_pos(&uri, position_of(&text, "demo::web", 2)),
        )
        .unwrap();
    assert!(
        target_uri(&def).ends_with("demo/manifests/web.pp"),
        "{def:#}"
    );
    // The progress request was sent (maybe after the answer) and is
    // still unanswered.
    assert!(server.wait_server_request("window/workDoneProgress/create", TIMEOUT));
    assert_eq!(
        server
            .server_requests_for("window/workDoneProgress/create")
            .len(),
        1
    );
    assert!(server.shutdown().success());
}

/// A metadata.json opened while indexing (before the layout shows it is a
/// module's) is analysed with the editor's text once the index is in.
#[test]
fn metadata_opened_while_indexing_is_analysed_once_indexed() {
    let dir = fixture(MODULE);
    let mut server = start(&dir, &[("PUPPET_LS_TEST_INDEX_DELAY_MS", "500")]);
    let uri = dir.uri("demo/metadata.json");
    // In the editor, `source` is gone (on disk it is there).
    let text = std::fs::read_to_string(dir.join("demo/metadata.json"))
        .unwrap()
        .replace(", \"source\": \"x\"", "");
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}),
    );
    let diagnostics =
        server.wait_diagnostics(&uri, |p| codes(&p["diagnostics"]) == ["metadata-schema"]);
    assert_eq!(diagnostics["version"], 1, "{diagnostics:#}");
    assert!(server.shutdown().success());
}
