//! End-to-end tests of the language server: the real binary over stdio,
//! driven like an editor, on fixture workspaces written to temp dirs.

mod support;

use serde_json::{json, Value};
use std::path::Path;
use support::{codes, file_uri, pull_capabilities, push_capabilities, write_fixture, Client};

const MODULE: &str = r#"
#- /mymod/metadata.json
{"name": "me-mymod", "version": "1.0.0"}
#- /mymod/types/port.pp
type Mymod::Port = Integer[1, 65535]
#- /mymod/manifests/init.pp
class mymod (
  Mymod::Port $port = 80,
) {
  notify { "port ${port}": }
}
#- /mymod/manifests/broken.pp
class mymod::broken {
  include mymod::missing
}
"#;

const CONTROL_REPO: &str = r#"
#- /environment.conf
modulepath = site:modules:$basemodulepath
#- /manifests/site.pp
node default { include role::web }
#- /site/role/manifests/web.pp
class role::web {
  include profile::ntp
}
#- /site/profile/manifests/ntp.pp
class profile::ntp {
  class { 'ntp': servers => ['pool.ntp.org'] }
}
#- /site/profile/manifests/broken.pp
class profile::broken {
  include ntp::nothere
}
#- /modules/ntp/metadata.json
{"name": "puppetlabs-ntp", "version": "1.0.0"}
#- /modules/ntp/manifests/init.pp
class ntp (Array[String] $servers = []) {
}
"#;

fn workspace(fixture: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_fixture(dir.path(), fixture);
    dir
}

fn change(version: i32, uri: &str, changes: Value) -> Value {
    json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
}

fn range(l1: usize, c1: usize, l2: usize, c2: usize) -> Value {
    json!({"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}})
}

#[test]
fn initialize_negotiates_position_encoding_and_capabilities() {
    for (caps, encoding) in [
        (push_capabilities(true), "utf-8"),
        (push_capabilities(false), "utf-16"),
        (json!({}), "utf-16"),
    ] {
        let mut client = Client::start(&[]);
        let result = client.initialize(caps, &[], Value::Null);
        assert_eq!(result["capabilities"]["positionEncoding"], encoding);
        assert_eq!(result["capabilities"]["textDocumentSync"]["change"], 2);
        assert_eq!(result["capabilities"]["diagnosticProvider"], Value::Null);
        assert_eq!(result["serverInfo"]["name"], "puppet-ls");
        assert!(client.shutdown_and_exit().success());
    }
    let mut client = Client::start(&["lsp", "--stdio", "--log-level", "error"]);
    let result = client.initialize(pull_capabilities(), &[], Value::Null);
    assert_eq!(
        result["capabilities"]["diagnosticProvider"]["workspaceDiagnostics"],
        true
    );
    assert!(client.shutdown_and_exit().success());
}

/// Opens `init.pp` with non-ASCII text and checks positions and versions
/// of pushed diagnostics through incremental changes.
fn push_diagnostics_scenario(utf8: bool) {
    let dir = workspace(MODULE);
    let root = dir.path().join("mymod");
    let mut client = Client::start(&["--stdio"]);
    client.initialize(push_capabilities(utf8), &[&root], Value::Null);
    client.wait_notification(|n| {
        n["method"] == "$/progress" && n["params"]["value"]["kind"] == "begin"
    });
    client.wait_indexed();
    assert_eq!(
        client
            .server_requests("window/workDoneProgress/create")
            .len(),
        1
    );

    // A closed file with an error is reported after indexing, unversioned.
    let broken = file_uri(&root.join("manifests/broken.pp"));
    let params = client.wait_diagnostics(&broken, |_| true);
    assert_eq!(codes(&params["diagnostics"]), ["unknown-class"]);
    assert_eq!(params["version"], Value::Null);
    assert_eq!(params["diagnostics"][0]["source"], "puppet-ls");
    assert_eq!(params["diagnostics"][0]["severity"], 1);

    let init = root.join("manifests/init.pp");
    let uri = file_uri(&init);
    let line3 = "  notify { \"é😀 ${undefined}\": }";
    let text = format!("class mymod (\n  Mymod::Nope $port = 80,\n) {{\n{line3}\n}}\n");
    client.open(&init, 1, &text);
    let params = client.wait_diagnostics(&uri, |p| p["version"] == 1);
    assert_eq!(
        codes(&params["diagnostics"]),
        ["unknown-type", "unknown-variable"]
    );
    let prefix = &line3[..line3.find("undefined").unwrap()];
    let column = if utf8 {
        prefix.len()
    } else {
        prefix.encode_utf16().count()
    };
    assert_eq!(params["diagnostics"][1]["range"]["start"]["line"], 3);
    assert_eq!(
        params["diagnostics"][1]["range"]["start"]["character"],
        column
    );

    // `Nope` -> `Port`; then the variable's name after the emoji, using
    // columns in the negotiated encoding.
    let name_start = column;
    let name_end = column + "undefined".len();
    client.notify(
        "textDocument/didChange",
        change(
            2,
            &uri,
            json!([
                {"range": range(1, 9, 1, 13), "text": "Port"},
                {"range": range(3, name_start, 3, name_end), "text": "port"},
            ]),
        ),
    );
    let params = client.wait_diagnostics(&uri, |p| p["version"] == 2);
    assert_eq!(codes(&params["diagnostics"]), Vec::<String>::new());

    // A syntax error shows up (the quick pass or the full one).
    client.notify(
        "textDocument/didChange",
        change(3, &uri, json!([{"range": range(4, 0, 4, 1), "text": ""}])),
    );
    let params = client.wait_diagnostics(&uri, |p| p["version"] == 3);
    assert!(!codes(&params["diagnostics"]).is_empty());
    assert_eq!(params["diagnostics"][0]["severity"], 1);
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn push_diagnostics_follow_incremental_changes_utf16() {
    push_diagnostics_scenario(false);
}

#[test]
fn push_diagnostics_follow_incremental_changes_utf8() {
    push_diagnostics_scenario(true);
}

#[test]
fn pull_diagnostics_for_open_and_closed_files() {
    let dir = workspace(MODULE);
    let root = dir.path().join("mymod");
    let mut client = Client::start(&[]);
    client.initialize(pull_capabilities(), &[&root], Value::Null);
    client.wait_indexed();

    let broken = file_uri(&root.join("manifests/broken.pp"));
    let report = client.call("workspace/diagnostic", json!({"previousResultIds": []}));
    let items = report["items"].as_array().unwrap();
    let item = items.iter().find(|i| i["uri"] == broken.as_str()).unwrap();
    assert_eq!(codes(&item["items"]), ["unknown-class"]);
    assert_eq!(items.len(), 1, "only files with problems: {report}");

    let init = root.join("manifests/init.pp");
    let uri = file_uri(&init);
    client.open(&init, 1, "class mymod(Mymod::Nope $x) {}\n");
    let report = client.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(report["kind"], "full");
    assert_eq!(codes(&report["items"]), ["unknown-type"]);
    let id = report["resultId"].as_str().unwrap().to_string();
    let report = client.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}, "previousResultId": id}),
    );
    assert_eq!(report["kind"], "unchanged");

    // Fixed in the editor: the next pull sees the new text.
    client.notify(
        "textDocument/didChange",
        change(
            2,
            &uri,
            json!([{"range": range(0, 19, 0, 23), "text": "Port"}]),
        ),
    );
    let report = client.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(codes(&report["items"]), Vec::<String>::new());
    assert!(
        client
            .notifications
            .iter()
            .all(|n| n["method"] != "textDocument/publishDiagnostics"),
        "a pull client gets no pushed diagnostics"
    );
    assert!(!client
        .server_requests("workspace/diagnostic/refresh")
        .is_empty());
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn control_repo_with_file_watching() {
    let dir = workspace(CONTROL_REPO);
    let root = dir.path();
    let mut client = Client::start(&[]);
    client.initialize(push_capabilities(false), &[root], Value::Null);
    client.wait_indexed();
    let registrations = client.server_requests("client/registerCapability");
    let registration = &registrations[0]["params"]["registrations"][0];
    assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
    let globs: Vec<&str> = registration["registerOptions"]["watchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["globPattern"].as_str().unwrap())
        .collect();
    assert!(globs.contains(&"**/*.pp") && globs.contains(&"**/environment.conf"));

    let broken_path = root.join("site/profile/manifests/broken.pp");
    let broken = file_uri(&broken_path);
    let params = client.wait_diagnostics(&broken, |_| true);
    assert_eq!(codes(&params["diagnostics"]), ["unknown-class"]);

    // An open file refers to a class that does not exist yet...
    let web = root.join("site/role/manifests/web.pp");
    let uri = file_uri(&web);
    client.open(&web, 1, "class role::web {\n  include profile::ntpx\n}\n");
    let params = client.wait_diagnostics(&uri, |p| p["version"] == 1);
    assert_eq!(codes(&params["diagnostics"]), ["unknown-class"]);

    // ...until it is created outside the editor.
    let created = root.join("site/profile/manifests/ntpx.pp");
    std::fs::write(&created, "class profile::ntpx {}\n").unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&created), "type": 1}]}),
    );
    client.wait_diagnostics(&uri, |p| p["diagnostics"] == json!([]));

    // A deleted file's diagnostics are cleared.
    std::fs::remove_file(&broken_path).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": broken, "type": 3}]}),
    );
    client.wait_diagnostics(&broken, |p| p["diagnostics"] == json!([]));

    // A new module (metadata.json) is discovered.
    client.clear_notifications();
    write_fixture(
        root,
        "#- /modules/extra/metadata.json\n{\"name\": \"me-extra\"}\n#- /modules/extra/manifests/init.pp\nclass extra {}\n",
    );
    client.notify(
        "textDocument/didChange",
        change(
            2,
            &uri,
            json!([{"range": range(1, 10, 1, 23), "text": "extra"}]),
        ),
    );
    let params = client.wait_diagnostics(&uri, |p| p["version"] == 2);
    assert_eq!(codes(&params["diagnostics"]), ["unknown-class"]);
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&root.join("modules/extra/metadata.json")), "type": 1}]}),
    );
    client.wait_diagnostics(&uri, |p| p["diagnostics"] == json!([]));
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn configuration_hides_ignored_codes() {
    let dir = workspace(MODULE);
    let root = dir.path().join("mymod");
    let mut client = Client::start(&[]);
    client.initialize(
        push_capabilities(false),
        &[&root],
        json!({"diagnostics": {"ignore": ["unknown-type"]}}),
    );
    client.wait_indexed();
    let init = root.join("manifests/init.pp");
    let uri = file_uri(&init);
    client.open(
        &init,
        1,
        "class mymod(Mymod::Nope $x) {\n  include nowhere\n  notify { $nothing: }\n}\n",
    );
    let params = client.wait_diagnostics(&uri, |p| p["version"] == 1);
    assert_eq!(
        codes(&params["diagnostics"]),
        ["unknown-class", "unknown-variable"]
    );

    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"puppet-ls": {"diagnostics": {"ignore": ["unknown-class"]}}}}),
    );
    let params = client.wait_diagnostics(&uri, |p| {
        !codes(&p["diagnostics"]).contains(&"unknown-class".to_string())
    });
    assert_eq!(
        codes(&params["diagnostics"]),
        ["unknown-type", "unknown-variable"]
    );

    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"strictVariables": false}}),
    );
    let params = client.wait_diagnostics(&uri, |p| {
        !codes(&p["diagnostics"]).contains(&"unknown-variable".to_string())
    });
    assert_eq!(
        codes(&params["diagnostics"]),
        ["unknown-type", "unknown-class"]
    );
    assert!(client.shutdown_and_exit().success());
}

/// The tree `puppet-ls parse --tree` prints for a text.
fn cli_tree(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_puppet-ls"))
        .args(["parse", "--tree"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    // The tree, without the problem lines that follow it.
    stdout
        .lines()
        .take_while(|l| !l.starts_with(&*path.to_string_lossy()))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn syntax_tree_request_matches_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("site.pp");
    std::fs::write(&path, "# on disk\n").unwrap();
    let mut client = Client::start(&[]);
    client.initialize(push_capabilities(false), &[dir.path()], Value::Null);
    let text = "node default {\n  $x = \"é ${facts['os']}\"\n}\n";
    client.open(&path, 1, text);
    let tree = client.call(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": file_uri(&path)}}),
    );
    let expected = cli_tree(dir.path(), "copy.pp", text);
    assert!(expected.starts_with("SOURCE_FILE@"));
    assert_eq!(tree.as_str().unwrap(), expected);
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn adversarial_input_leaves_the_server_working() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.pp");
    let uri = file_uri(&path);
    let mut client = Client::start(&[]);
    client.initialize(push_capabilities(false), &[dir.path()], Value::Null);

    // Invalid JSON: a parse error reply with a null id.
    client.send_raw(b"{this is not json");
    let reply = client.response_with_null_id();
    assert_eq!(reply["error"]["code"], -32700);
    // Invalid JSON-RPC shapes.
    client.send_raw(br#"{"jsonrpc": "2.0", "id": 77}"#);
    client.send_raw(br#"[1, 2, 3]"#);
    client.send_raw(br#"{"jsonrpc": "2.0", "method": 5, "id": "x"}"#);
    // Unknown methods.
    let reply = client.request("no/such/method", json!({}));
    assert_eq!(reply["error"]["code"], -32601);
    client.notify("no/such/notification", json!({"x": 1}));
    client.notify("$/unknownThing", json!(null));
    // Changes to unopened documents, bad parameters, non-file URIs.
    client.notify(
        "textDocument/didChange",
        change(
            2,
            &file_uri(&dir.path().join("never.pp")),
            json!([{"text": "x"}]),
        ),
    );
    client.notify("textDocument/didChange", json!({"bogus": true}));
    client.notify("textDocument/didOpen", json!({"textDocument": {"uri": "untitled:1", "languageId": "puppet", "version": 1, "text": "$x = "}}));
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let reply = client.request(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": "untitled:1"}}),
    );
    assert_eq!(reply["error"]["code"], -32602);
    let reply = client.request("puppet-ls/syntaxTree", json!({"nothing": 1}));
    assert_eq!(reply["error"]["code"], -32602);
    let reply = client.request(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": file_uri(&dir.path().join("nope.pp"))}}),
    );
    assert!(reply["error"].is_object());

    // Out-of-range positions clamp: the text goes to the end.
    client.open(&path, 1, "$a = 1\n");
    client.notify(
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
    let tree = client.call(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": uri}}),
    );
    // A reversed range becomes an empty one at its start: no change.
    let expected = cli_tree(dir.path(), "expected.pp", "$a = 1 # é\n$b = 2\n");
    assert_eq!(tree, json!(expected));

    // After shutdown, requests are refused; `exit` ends the process cleanly.
    assert_eq!(
        client.request("shutdown", Value::Null)["result"],
        Value::Null
    );
    let reply = client.request(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(reply["error"]["code"], -32600);
    client.notify(
        "textDocument/didChange",
        change(3, &uri, json!([{"text": "x"}])),
    );
    client.notify("exit", Value::Null);
    assert!(client.wait_exit().success());
}

#[test]
fn exit_without_shutdown_is_an_error_status() {
    let mut client = Client::start(&[]);
    client.initialize(json!({}), &[], Value::Null);
    client.notify("exit", Value::Null);
    assert!(!client.wait_exit().success());
}
