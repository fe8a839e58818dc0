//! Adversarial input over stdio: the server survives it and still answers
//! correctly afterwards.

mod support;

use serde_json::{json, Value};
use std::time::Duration;
use support::{
    cli_tree, doc_pos, file_uri, fixture, position_of, push_capabilities, Server, TIMEOUT,
};

const TEXT: &str = "class demo {\n  $port = 8000 + 80\n  notice($port)\n}\n";

fn hover_on_port(server: &mut Server, uri: &str) -> Value {
    server.call(
        "textDocument/hover",
        doc_pos(uri, position_of(TEXT, "$port)", 1)),
    )
}

fn assert_hover_ok(server: &mut Server, uri: &str) {
    let hover = hover_on_port(server, uri);
    let shown = hover["contents"].to_string();
    assert!(shown.contains("Integer[8080, 8080]"), "{hover:#}");
}

#[test]
fn survives_adversarial_input_and_answers_afterwards() {
    let dir = fixture("#- demo/manifests/init.pp\nclass demo {\n}\n");
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}));
    let uri = dir.uri("demo/manifests/init.pp");
    server.did_open(&uri, 1, TEXT);
    assert_hover_ok(&mut server, &uri);

    // Invalid JSON-RPC: no method, params of the wrong shape.
    server.send(&json!({"jsonrpc": "2.0", "id": 1000}));
    let err = server
        .request("textDocument/hover", json!({"textDocument": 3}))
        .expect_err("malformed params are rejected");
    assert_eq!(err["code"], -32602, "InvalidParams: {err}");
    assert_hover_ok(&mut server, &uri);

    // Unknown methods: a request gets MethodNotFound, a notification is ignored.
    let err = server
        .request("puppet-ls/noSuchMethod", json!({}))
        .expect_err("unknown method");
    assert_eq!(err["code"], -32601, "{err}");
    server.notify("puppet-ls/noSuchNotification", json!({"x": 1}));
    server.notify("$/someClientNotification", json!(null));
    assert_hover_ok(&mut server, &uri);

    // Out-of-range positions.
    for method in [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
        "textDocument/signatureHelp",
        "textDocument/references",
        "textDocument/documentHighlight",
        "textDocument/prepareRename",
    ] {
        for position in [
            json!({"line": 9999, "character": 0}),
            json!({"line": 1, "character": 9999}),
            json!({"line": 4, "character": 0}),
        ] {
            let mut params = doc_pos(&uri, position);
            params["context"] = json!({"includeDeclaration": true});
            let reply = server.request(method, params);
            if let Err(e) = &reply {
                assert_ne!(e["code"], -32603, "{method}: internal error {e}");
            }
        }
    }
    let _ = server.request(
        "textDocument/semanticTokens/range",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 500, "character": 0}, "end": {"line": 9999, "character": 9}}}),
    );
    let _ = server.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 9000, "character": 0}, "end": {"line": 1, "character": 0}}}),
    );
    assert_hover_ok(&mut server, &uri);

    // An out-of-range edit to an open document does not corrupt it beyond
    // repair: the server is still alive and a full resync restores it.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 9999, "character": 5}, "end": {"line": 10000, "character": 0}}, "text": "x"}
        ]}),
    );
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": TEXT}]}),
    );
    assert_hover_ok(&mut server, &uri);

    // Changes and requests for documents that are not open, and non-file URIs.
    let unopened = dir.uri("demo/manifests/never_opened.pp");
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": unopened, "version": 5}, "contentChanges": [
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "class x {"}
        ]}),
    );
    server.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": unopened}}),
    );
    let reply = server.request(
        "textDocument/hover",
        doc_pos(&unopened, json!({"line": 0, "character": 0})),
    );
    assert!(
        matches!(reply, Ok(Value::Null)) || reply.is_err(),
        "{reply:?}"
    );
    for uri in [
        "untitled:Untitled-1",
        "https://example.com/x.pp",
        "not a uri",
    ] {
        server.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "puppet", "version": 1, "text": "$a = 1\n"}}),
        );
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": "$b = 2\n"}]}),
        );
        let reply = server.request(
            "textDocument/hover",
            doc_pos(uri, json!({"line": 0, "character": 1})),
        );
        if let Err(e) = &reply {
            assert_ne!(e["code"], -32603, "{uri}: {e}");
        }
        let _ = server.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        );
    }
    assert_hover_ok(&mut server, &uri);

    // Cancelling a request that already finished, and one that never existed.
    server.notify("$/cancelRequest", json!({"id": 1}));
    server.notify("$/cancelRequest", json!({"id": "nope"}));
    assert_hover_ok(&mut server, &uri);
    assert!(server.alive());

    // Shutdown; then requests fail with InvalidRequest; exit ends the process.
    let reply = server.request("shutdown", Value::Null);
    assert_eq!(reply, Ok(Value::Null));
    let err = hover_on_port_raw(&mut server, &uri).expect_err("request after shutdown");
    assert_eq!(err["code"], -32600, "InvalidRequest: {err}");
    server.notify("exit", Value::Null);
    let status = server
        .wait_exit(TIMEOUT)
        .expect("the server exits after `exit`");
    assert!(status.success(), "{status:?}");
}

fn hover_on_port_raw(server: &mut Server, uri: &str) -> Result<Value, Value> {
    server.request(
        "textDocument/hover",
        doc_pos(uri, position_of(TEXT, "$port)", 1)),
    )
}

#[test]
fn garbage_framing_does_not_hang_the_test() {
    // A bad Content-Length header and raw garbage: the server may close the
    // connection (the stream cannot be resynchronised), but it must not
    // spin or hang: it either answers or exits.
    let dir = fixture("#- a.pp\n$a = 1\n");
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}));
    server.send_raw(b"Content-Length: banana\r\n\r\n{}");
    server.send_raw(b"\x00\x01\x02 garbage garbage\r\n\r\n");
    // The request may never be answered if the stream is lost.
    server.send_request("workspace/symbol", json!({"query": "a"}));
    std::thread::sleep(Duration::from_millis(500));
    // Either still alive (and then it must exit on request) or already gone.
    if server.alive() {
        server.notify("exit", Value::Null);
    }
    assert!(
        server.wait_exit(TIMEOUT).is_some(),
        "server neither recovered nor exited"
    );
}

#[test]
fn exit_without_shutdown_fails() {
    let dir = fixture("#- a.pp\n$a = 1\n");
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}));
    server.notify("exit", Value::Null);
    let status = server
        .wait_exit(TIMEOUT)
        .expect("the server exits on `exit` without `shutdown`");
    // The spec asks for exit code 1 here.
    assert!(!status.success(), "{status:?}");
}

#[test]
fn exit_while_a_server_request_is_unanswered() {
    let dir = fixture("#- a.pp\n$a = 1\n");
    let mut server = Server::start();
    let uri = file_uri(dir.path());
    // Initialize by hand so that `window/workDoneProgress/create` is never answered.
    server.send_request(
        "initialize",
        json!({"processId": null, "rootUri": uri, "capabilities": {"window": {"workDoneProgress": true}}}),
    );
    server.notify("initialized", json!({}));
    std::thread::sleep(Duration::from_millis(300));
    server.send_request("shutdown", Value::Null);
    std::thread::sleep(Duration::from_millis(300));
    server.notify("exit", Value::Null);
    assert!(
        server.wait_exit(Duration::from_secs(5)).is_some(),
        "the server does not exit while its own request is unanswered"
    );
}

#[test]
fn survives_invalid_json() {
    let dir = fixture("#- demo/manifests/init.pp\nclass demo {\n}\n");
    let mut server = Server::start();
    server.initialize(dir.path(), json!({}));
    let uri = dir.uri("demo/manifests/init.pp");
    server.did_open(&uri, 1, TEXT);
    assert_hover_ok(&mut server, &uri);
    // Well-framed but invalid JSON: a ParseError reply (id null) at most.
    server.send_body(b"{\"jsonrpc\": \"2.0\", \"id\": 77, \"method\": ");
    server.send_body(b"not json at all");
    server.send(&json!({"jsonrpc": "1.0", "id": 1001, "method": "textDocument/hover"}));
    assert_hover_ok(&mut server, &uri);
}

fn change(version: i32, uri: &str, changes: Value) -> Value {
    json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
}

fn range(l1: usize, c1: usize, l2: usize, c2: usize) -> Value {
    json!({"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}})
}

/// Invalid JSON gets a ParseError reply with a null id, malformed
/// `puppet-ls/syntaxTree` parameters InvalidParams, and out-of-range edit
/// positions clamp to the text (the resulting tree is the CLI's for the
/// clamped text); notifications after `shutdown` are ignored.
#[test]
fn parse_errors_bad_params_and_clamped_edits() {
    let dir = fixture("");
    let path = dir.join("a.pp");
    let uri = file_uri(&path);
    let mut server = Server::start();
    server.initialize(dir.path(), push_capabilities(false));

    // Invalid JSON: a parse error reply with a null id.
    server.send_body(b"{this is not json");
    let err = server
        .wait_response(&Value::Null)
        .expect_err("a ParseError reply");
    assert_eq!(err["code"], -32700, "{err}");
    // Invalid JSON-RPC shapes.
    server.send_body(br#"{"jsonrpc": "2.0", "id": 77}"#);
    server.send_body(br#"[1, 2, 3]"#);
    server.send_body(br#"{"jsonrpc": "2.0", "method": 5, "id": "x"}"#);
    // Unknown methods.
    let err = server
        .request("no/such/method", json!({}))
        .expect_err("unknown method");
    assert_eq!(err["code"], -32601, "{err}");
    server.notify("no/such/notification", json!({"x": 1}));
    server.notify("$/unknownThing", json!(null));
    // Changes to unopened documents, bad parameters, non-file URIs.
    server.notify(
        "textDocument/didChange",
        change(2, &dir.uri("never.pp"), json!([{"text": "x"}])),
    );
    server.notify("textDocument/didChange", json!({"bogus": true}));
    server.did_open("untitled:1", 1, "$x = ");
    server.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let err = server
        .request(
            "puppet-ls/syntaxTree",
            json!({"textDocument": {"uri": "untitled:1"}}),
        )
        .expect_err("not a file URI");
    assert_eq!(err["code"], -32602, "{err}");
    let err = server
        .request("puppet-ls/syntaxTree", json!({"nothing": 1}))
        .expect_err("no textDocument");
    assert_eq!(err["code"], -32602, "{err}");
    let reply = server.request(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": dir.uri("nope.pp")}}),
    );
    assert!(matches!(&reply, Err(e) if e.is_object()), "{reply:?}");

    // Out-of-range positions clamp: the text goes to the end.
    server.did_open(&uri, 1, "$a = 1\n");
    server.notify(
        "textDocument/didChange",
        change(
            2,
            &uri,
            json!([
                {"range": range(99, 99, 120, 0), "text": "$b = 2\n"},
                {"range": range(0, 500, 0, 9999), "text": " # é"},
                {"range": range(1, 3, 0, 1), "text": ""},
            ]),
        ),
    );
    // A normal request is answered correctly afterwards.
    let tree = server.call(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": uri}}),
    );
    // A reversed range becomes an empty one at its start: no change.
    let expected = cli_tree(&dir.join("expected.pp"), "$a = 1 # é\n$b = 2\n");
    assert_eq!(tree, json!(expected));

    // After shutdown, requests are refused; `exit` ends the process cleanly.
    assert_eq!(server.request("shutdown", Value::Null), Ok(Value::Null));
    let err = server
        .request(
            "puppet-ls/syntaxTree",
            json!({"textDocument": {"uri": uri}}),
        )
        .expect_err("request after shutdown");
    assert_eq!(err["code"], -32600, "{err}");
    server.notify(
        "textDocument/didChange",
        change(3, &uri, json!([{"text": "x"}])),
    );
    server.notify("exit", Value::Null);
    let status = server.wait_exit(TIMEOUT).expect("the server exits");
    assert!(status.success(), "{status:?}");
}
