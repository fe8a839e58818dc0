//! End-to-end: the real `puppet-ls` binary over stdio, driven like an
//! editor on fixture workspaces (a module with autoloaded type aliases, a
//! control repository with several modules).

mod support;

use serde_json::{json, Value};
use support::{codes, doc_pos, fixture, position_of, text_edits_for, Server, TempDir, TIMEOUT};

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
  include demo::missing
  contain demo::web
  notice($undefined)
  notice($x, $port)
}
#- demo/manifests/web.pp
# The web part.
class demo::web {
  file { '/tmp/web':
    ensure => file,
  }
}
"#;

const CONTROL_REPO: &str = r#"
#- environment.conf
modulepath = site:modules
#- manifests/site.pp
node default {
  include profile::base
}
#- site/profile/manifests/base.pp
# The base profile.
class profile::base {
  include ntp
}
#- modules/ntp/manifests/init.pp
# NTP.
class ntp (
  String $server = 'pool.ntp.org',
) {
  notice($server)
}
"#;

/// Capabilities of a push-diagnostics editor with progress and watching.
fn push_caps() -> Value {
    json!({
        "window": {"workDoneProgress": true},
        "workspace": {
            "didChangeWatchedFiles": {"dynamicRegistration": true},
            "workspaceEdit": {"documentChanges": true, "resourceOperations": ["create", "rename", "delete"]},
            "configuration": true,
        },
        "textDocument": {
            "publishDiagnostics": {"versionSupport": true},
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "completion": {"completionItem": {"snippetSupport": true}},
        },
    })
}

/// Starts a server on `dir` and waits for the end of indexing.
fn start(dir: &TempDir, caps: Value) -> (Server, Value) {
    let mut server = Server::start();
    let init = server.initialize(dir.path(), caps);
    let ended = server.wait_notification("$/progress", |p| p["value"]["kind"] == "end", TIMEOUT);
    assert!(ended.is_some(), "indexing never reported its end");
    (server, init)
}

fn read(dir: &TempDir, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

fn open(server: &mut Server, dir: &TempDir, rel: &str) -> (String, String) {
    let uri = dir.uri(rel);
    let text = read(dir, rel);
    server.did_open(&uri, 1, &text);
    (uri, text)
}

fn has_code(code: &'static str) -> impl Fn(&Value) -> bool {
    move |p: &Value| codes(&p["diagnostics"]).iter().any(|c| c == code)
}

fn lacks_code(code: &'static str) -> impl Fn(&Value) -> bool {
    move |p: &Value| !codes(&p["diagnostics"]).iter().any(|c| c == code)
}

#[test]
fn initialize_negotiates_position_encoding_and_capabilities() {
    let dir = fixture(MODULE);
    let (server, init) = start(&dir, push_caps());
    let caps = &init["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental sync");
    assert!(caps["diagnosticProvider"].is_null(), "push mode: {caps}");
    assert_eq!(init["serverInfo"]["name"], "puppet-ls");
    assert!(!server
        .server_requests_for("window/workDoneProgress/create")
        .is_empty());
    assert!(!server
        .server_requests_for("client/registerCapability")
        .is_empty());
    assert!(server.shutdown().success());

    let mut server = Server::start();
    let mut caps = push_caps();
    caps["general"] = json!({"positionEncodings": ["utf-8", "utf-16"]});
    let init = server.initialize(dir.path(), caps);
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    // Answer the indexing progress request before shutting down (see
    // lsp_adversarial: an unanswered server request blocks `exit`).
    server.wait_notification("$/progress", |p| p["value"]["kind"] == "end", TIMEOUT);
    assert!(server.shutdown().success());
}

#[test]
fn utf8_client_gets_byte_columns() {
    let dir = fixture(MODULE);
    let mut server = Server::start();
    let mut caps = push_caps();
    caps["general"] = json!({"positionEncodings": ["utf-8"]});
    server.initialize(dir.path(), caps);
    let uri = dir.uri("demo/manifests/enc.pp");
    // 'é' is 2 bytes in UTF-8, 1 unit in UTF-16.
    let text = "$a = 'é' ; notice($nope)\n";
    server.did_open(&uri, 1, text);
    let p = server.wait_diagnostics(&uri, has_code("unknown-variable"));
    let d = p["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "unknown-variable")
        .unwrap();
    let byte_col = text.find("$nope").unwrap();
    assert_eq!(d["range"]["start"]["character"], byte_col, "{d}");
    assert_eq!(d["range"]["start"]["line"], 0);
}

#[test]
fn push_diagnostics_follow_incremental_changes() {
    let dir = fixture(MODULE);
    let (mut server, _) = start(&dir, push_caps());
    let (uri, text) = open(&mut server, &dir, "demo/manifests/init.pp");
    let p = server.wait_diagnostics(&uri, |p| {
        p["version"] == 1 && has_code("unknown-class")(p) && has_code("unknown-variable")(p)
    });
    let diags = p["diagnostics"].as_array().unwrap();
    let unknown_var = diags
        .iter()
        .find(|d| d["code"] == "unknown-variable")
        .unwrap();
    assert_eq!(
        unknown_var["range"]["start"],
        position_of(&text, "$undefined", 0)
    );
    assert!(unknown_var["message"]
        .as_str()
        .unwrap()
        .contains("undefined"));
    assert_eq!(unknown_var["source"], "puppet-ls");
    let unknown_class = diags.iter().find(|d| d["code"] == "unknown-class").unwrap();
    assert!(unknown_class["message"]
        .as_str()
        .unwrap()
        .contains("demo::missing"));

    // Fix the variable: replace `$undefined` by `$x` (an incremental change).
    let start = position_of(&text, "$undefined", 0);
    let end = position_of(&text, "$undefined", 10);
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": start, "end": end}, "text": "$x"}],
        }),
    );
    let p = server.wait_diagnostics(&uri, |p| {
        p["version"] == 2 && lacks_code("unknown-variable")(p)
    });
    assert!(has_code("unknown-class")(&p), "{p:#}");

    // A syntax error appears, then goes away with the next edit.
    let end_pos = position_of(&read(&dir, "demo/manifests/init.pp"), "}\n", 0);
    let insert = json!({"start": end_pos, "end": end_pos});
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 3},
            "contentChanges": [{"range": insert, "text": "  if {\n"}],
        }),
    );
    server.wait_diagnostics(&uri, |p| p["version"] == 3 && has_code("syntax-error")(p));
    let after = json!({"start": end_pos, "end": {"line": end_pos["line"].as_u64().unwrap() + 1, "character": 0}});
    server.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 4},
            "contentChanges": [{"range": after, "text": ""}],
        }),
    );
    let p = server.wait_diagnostics(&uri, |p| {
        p["version"] == 4 && lacks_code("syntax-error")(p) && has_code("unknown-class")(p)
    });
    assert!(lacks_code("unknown-variable")(&p), "{p:#}");
    assert!(server.shutdown().success());
}

#[test]
fn pull_diagnostics_when_the_client_supports_them() {
    let dir = fixture(MODULE);
    let mut caps = push_caps();
    caps["textDocument"]["diagnostic"] = json!({"dynamicRegistration": false});
    let (mut server, init) = start(&dir, caps);
    assert_eq!(
        init["capabilities"]["diagnosticProvider"]["workspaceDiagnostics"],
        true
    );
    // Files with errors that are not open are reported by workspace/diagnostic.
    let report = server.call("workspace/diagnostic", json!({"previousResultIds": []}));
    let items = report["items"].as_array().unwrap();
    let init_report = items
        .iter()
        .find(|i| {
            i["uri"]
                .as_str()
                .unwrap()
                .ends_with("demo/manifests/init.pp")
        })
        .unwrap_or_else(|| panic!("init.pp not in {report:#}"));
    assert!(codes(&init_report["items"]).contains(&"unknown-class".to_string()));
    assert!(!items
        .iter()
        .any(|i| i["uri"].as_str().unwrap().ends_with("web.pp")));

    let (uri, _) = open(&mut server, &dir, "demo/manifests/init.pp");
    let report = server.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(report["kind"], "full");
    let c = codes(&report["items"]);
    assert!(c.contains(&"unknown-class".to_string()), "{report:#}");
    assert!(c.contains(&"unknown-variable".to_string()), "{report:#}");
    // No pushes in pull mode.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let _ = server.request(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": uri}}),
    );
    assert!(
        !server
            .notifications
            .iter()
            .any(|n| n["method"] == "textDocument/publishDiagnostics"),
        "pushed in pull mode"
    );
    assert!(server.shutdown().success());
}

#[test]
fn hover_definition_references_and_rename() {
    let dir = fixture(MODULE);
    let (mut server, _) = start(&dir, push_caps());
    let (uri, text) = open(&mut server, &dir, "demo/manifests/init.pp");

    // Hover on `$x` where it is used: inferred type and value.
    let hover = server.call(
        "textDocument/hover",
        doc_pos(&uri, position_of(&text, "$x, $port", 1)),
    );
    let shown = hover["contents"].to_string();
    assert!(shown.contains("Integer[8080, 8080]"), "{hover:#}");
    assert!(shown.contains("8080"), "{hover:#}");

    // Hover on the alias shows its definition.
    let hover = server.call(
        "textDocument/hover",
        doc_pos(&uri, position_of(&text, "Demo::Port", 3)),
    );
    assert!(
        hover["contents"].to_string().contains("Integer[1, 65535]"),
        "{hover:#}"
    );

    // Definition of the autoloaded alias: types/port.pp, the name's range.
    let def = server.call(
        "textDocument/definition",
        doc_pos(&uri, position_of(&text, "Demo::Port", 2)),
    );
    let target = first_location(&def);
    assert!(target.0.ends_with("demo/types/port.pp"), "{def:#}");
    assert_eq!(
        target.1,
        json!({"start": {"line": 0, "character": 5}, "end": {"line": 0, "character": 15}}),
        "{def:#}"
    );

    // Definition of a class from `contain`.
    let def = server.call(
        "textDocument/definition",
        doc_pos(&uri, position_of(&text, "demo::web", 2)),
    );
    let target = first_location(&def);
    assert!(target.0.ends_with("demo/manifests/web.pp"), "{def:#}");
    assert_eq!(
        target.1["start"]["line"], 1,
        "after the documentation comment"
    );

    // Definition of a variable: its assignment.
    let def = server.call(
        "textDocument/definition",
        doc_pos(&uri, position_of(&text, "$x, $port", 1)),
    );
    let target = first_location(&def);
    assert_eq!(target.0, uri);
    assert_eq!(target.1["start"], position_of(&text, "$x = ", 0), "{def:#}");

    // References of `$x`: the assignment and the use.
    let refs = server.call(
        "textDocument/references",
        json!({
            "textDocument": {"uri": uri},
            "position": position_of(&text, "$x = ", 1),
            "context": {"includeDeclaration": true},
        }),
    );
    let refs = refs.as_array().unwrap();
    assert_eq!(refs.len(), 2, "{refs:?}");

    // References of the class demo::web include the `contain` in init.pp.
    let web_uri = dir.uri("demo/manifests/web.pp");
    let web_text = read(&dir, "demo/manifests/web.pp");
    server.did_open(&web_uri, 1, &web_text);
    let refs = server.call(
        "textDocument/references",
        json!({
            "textDocument": {"uri": web_uri},
            "position": position_of(&web_text, "demo::web", 2),
            "context": {"includeDeclaration": false},
        }),
    );
    assert!(
        refs.as_array()
            .unwrap()
            .iter()
            .any(|r| r["uri"] == uri && r["range"]["start"] == position_of(&text, "demo::web", 0)),
        "{refs:#}"
    );

    // Highlights of `$x`.
    let hl = server.call(
        "textDocument/documentHighlight",
        doc_pos(&uri, position_of(&text, "$x = ", 1)),
    );
    assert_eq!(hl.as_array().unwrap().len(), 2, "{hl:#}");

    // Rename the variable.
    let edit = server.call(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": position_of(&text, "$x = ", 1), "newName": "total"}),
    );
    let edits = text_edits_for(&edit, &uri);
    assert_eq!(edits.len(), 2, "{edit:#}");
    assert!(edits
        .iter()
        .all(|e| e["newText"].as_str().unwrap().contains("total")));

    // Rename the class demo::web: edits in both files and the file moved.
    let prep = server.call(
        "textDocument/prepareRename",
        doc_pos(&web_uri, position_of(&web_text, "demo::web", 2)),
    );
    assert!(!prep.is_null());
    let edit = server.call(
        "textDocument/rename",
        json!({"textDocument": {"uri": web_uri}, "position": position_of(&web_text, "demo::web", 2), "newName": "demo::site"}),
    );
    let changes = edit["documentChanges"]
        .as_array()
        .unwrap_or_else(|| panic!("expected documentChanges: {edit:#}"));
    assert!(
        changes.iter().any(|c| c["kind"] == "rename"
            && c["oldUri"]
                .as_str()
                .unwrap()
                .ends_with("demo/manifests/web.pp")
            && c["newUri"]
                .as_str()
                .unwrap()
                .ends_with("demo/manifests/site.pp")),
        "{edit:#}"
    );
    assert!(!text_edits_for(&edit, &uri).is_empty(), "{edit:#}");
    assert!(text_edits_for(&edit, &uri)
        .iter()
        .all(|e| e["newText"] == "demo::site"));
    assert!(server.shutdown().success());
}

/// The first location of a definition reply (Location or LocationLink).
fn first_location(def: &Value) -> (String, Value) {
    let first = if def.is_array() { &def[0] } else { def };
    if let Some(uri) = first["targetUri"].as_str() {
        (uri.to_string(), first["targetSelectionRange"].clone())
    } else {
        (
            first["uri"]
                .as_str()
                .unwrap_or_else(|| panic!("{def:#}"))
                .to_string(),
            first["range"].clone(),
        )
    }
}

#[test]
fn rename_without_resource_operations_does_not_move_files() {
    let dir = fixture(MODULE);
    let (mut server, _) = start(&dir, json!({"window": {"workDoneProgress": true}}));
    let (uri, text) = open(&mut server, &dir, "demo/manifests/web.pp");
    let edit = server.call(
        "textDocument/rename",
        json!({"textDocument": {"uri": uri}, "position": position_of(&text, "demo::web", 2), "newName": "demo::site"}),
    );
    assert!(
        !edit.to_string().contains("\"rename\""),
        "file operation sent to a client without support: {edit:#}"
    );
    assert!(!text_edits_for(&edit, &uri).is_empty(), "{edit:#}");
}

#[test]
fn symbols_completion_signature_help_and_tokens() {
    let dir = fixture(MODULE);
    let (mut server, _) = start(&dir, push_caps());
    let (uri, text) = open(&mut server, &dir, "demo/manifests/init.pp");

    let symbols = server.call(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let top = symbols.as_array().unwrap();
    assert_eq!(top.len(), 1, "{symbols:#}");
    assert_eq!(top[0]["name"], "demo");
    assert_eq!(top[0]["kind"], 5, "a class");
    assert_eq!(top[0]["range"]["start"]["line"], 0);
    assert!(
        top[0]["children"].to_string().contains("port"),
        "{symbols:#}"
    );

    let found = server.call("workspace/symbol", json!({"query": "port"}));
    assert!(
        found
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "Demo::Port"
                && s["location"]["uri"]
                    .as_str()
                    .unwrap()
                    .ends_with("types/port.pp")),
        "{found:#}"
    );

    // Completion after `$` and inside a resource body, in incomplete code.
    let comp_uri = dir.uri("demo/manifests/comp.pp");
    let comp =
        "class demo::comp {\n  $port_number = 8080\n  notice($)\n  service { 'x':\n    \n  }\n}\n";
    server.did_open(&comp_uri, 1, comp);
    let items = server.call(
        "textDocument/completion",
        doc_pos(&comp_uri, position_of(comp, "$)", 1)),
    );
    let names = labels(&items);
    assert!(names.iter().any(|l| l.contains("port_number")), "{names:?}");
    let items = server.call(
        "textDocument/completion",
        doc_pos(&comp_uri, json!({"line": 4, "character": 4})),
    );
    let names = labels(&items);
    assert!(names.iter().any(|l| l == "ensure"), "{names:?}");
    assert!(names.iter().any(|l| l == "enable"), "{names:?}");

    // Signature help inside a call.
    let sig_uri = dir.uri("demo/manifests/sig.pp");
    let sig = "$s = sprintf('%s-%s', 'a', )\n";
    server.did_open(&sig_uri, 1, sig);
    let help = server.call(
        "textDocument/signatureHelp",
        doc_pos(&sig_uri, position_of(sig, " )", 1)),
    );
    let label = help["signatures"][help["activeSignature"].as_u64().unwrap_or(0) as usize]["label"]
        .as_str()
        .unwrap_or_else(|| panic!("{help:#}"));
    assert!(label.contains("sprintf"), "{help:#}");
    assert_eq!(
        help["signatures"][0]["parameters"][0]["label"],
        json!([8, 16]),
        "{help:#}"
    );

    // Semantic tokens.
    let tokens = server.call(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri}}),
    );
    let data = tokens["data"].as_array().unwrap();
    assert!(!data.is_empty());
    assert_eq!(data.len() % 5, 0);
    let ranged = server.call(
        "textDocument/semanticTokens/range",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 3, "character": 0}, "end": {"line": 4, "character": 0}}}),
    );
    let ranged = ranged["data"].as_array().unwrap();
    assert!(!ranged.is_empty() && ranged.len() < data.len() && ranged.len() % 5 == 0);

    // Folding: the class body.
    let folds = server.call(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": uri}}),
    );
    let last_line = text.lines().count() as u64 - 1;
    assert!(
        folds
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["startLine"] == 2 && f["endLine"].as_u64().unwrap() == last_line - 1),
        "{folds:#}"
    );

    // Selection ranges grow outwards from `8000`.
    let pos = position_of(&text, "8000", 1);
    let sel = server.call(
        "textDocument/selectionRange",
        json!({"textDocument": {"uri": uri}, "positions": [pos]}),
    );
    let mut node = &sel[0];
    let mut ranges = Vec::new();
    while node.is_object() {
        ranges.push(node["range"].clone());
        node = &node["parent"];
    }
    assert!(ranges.len() >= 3, "{sel:#}");
    assert_eq!(ranges[0]["start"], position_of(&text, "8000", 0), "{sel:#}");
    assert_eq!(ranges[0]["end"], position_of(&text, "8000", 4), "{sel:#}");

    // Inlay hints: the type of `$x`.
    let hints = server.call(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 20, "character": 0}}}),
    );
    assert!(
        hints.to_string().contains("Integer[8080, 8080]"),
        "{hints:#}"
    );

    // The syntax tree.
    let tree = server.call(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": uri}}),
    );
    let tree = tree.as_str().unwrap();
    assert!(tree.lines().count() > 20, "{tree}");
    assert!(tree.contains("demo::missing"), "{tree}");
    assert!(server.shutdown().success());
}

fn labels(items: &Value) -> Vec<String> {
    let list = if items.is_array() {
        items
    } else {
        &items["items"]
    };
    list.as_array()
        .unwrap_or_else(|| panic!("{items:#}"))
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn code_action_fixes_a_did_you_mean() {
    let dir = fixture(MODULE);
    let (mut server, _) = start(&dir, push_caps());
    let uri = dir.uri("demo/manifests/svc.pp");
    let text = "service { 'x':\n  ensure => runing,\n}\n";
    server.did_open(&uri, 1, text);
    let p = server.wait_diagnostics(&uri, |p| {
        p["diagnostics"].to_string().contains("did you mean")
    });
    let diag = p["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap().contains("did you mean"))
        .unwrap()
        .clone();
    let actions = server.call(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": diag["range"],
            "context": {"diagnostics": [diag]},
        }),
    );
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "quickfix")
        .unwrap_or_else(|| panic!("{actions:#}"));
    let edits = text_edits_for(&action["edit"], &uri);
    assert_eq!(edits.len(), 1, "{action:#}");
    assert_eq!(edits[0]["newText"], "running", "{action:#}");
    // Applying it leaves no diagnostic.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": edits[0]["range"], "text": edits[0]["newText"]}
        ]}),
    );
    let p = server.wait_diagnostics(&uri, |p| p["version"] == 2);
    assert!(
        !p["diagnostics"].to_string().contains("did you mean"),
        "{p:#}"
    );
    assert!(server.shutdown().success());
}

#[test]
fn configuration_and_watched_files_update_diagnostics() {
    let dir = fixture(MODULE);
    let (mut server, _) = start(&dir, push_caps());
    let (uri, _) = open(&mut server, &dir, "demo/manifests/init.pp");
    server.wait_diagnostics(&uri, |p| {
        p["version"] == 1 && has_code("unknown-variable")(p)
    });

    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"diagnostics": {"ignore": ["unknown-variable"]}}}),
    );
    let p = server.wait_diagnostics(&uri, lacks_code("unknown-variable"));
    assert!(has_code("unknown-class")(&p), "{p:#}");

    // The missing class appears on disk, outside the editor.
    dir.write("demo/manifests/missing.pp", "class demo::missing {\n}\n");
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": dir.uri("demo/manifests/missing.pp"), "type": 1}]}),
    );
    let p = server.wait_diagnostics(&uri, lacks_code("unknown-class"));
    assert!(
        lacks_code("unknown-variable")(&p),
        "config still applies: {p:#}"
    );

    // And disappears again.
    std::fs::remove_file(dir.join("demo/manifests/missing.pp")).unwrap();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": dir.uri("demo/manifests/missing.pp"), "type": 3}]}),
    );
    server.wait_diagnostics(&uri, has_code("unknown-class"));

    // Re-enable the code.
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"puppet-ls": {"diagnostics": {"ignore": []}}}}),
    );
    server.wait_diagnostics(&uri, has_code("unknown-variable"));
    assert!(server.shutdown().success());
}

#[test]
fn control_repository_with_several_modules() {
    let dir = fixture(CONTROL_REPO);
    let (mut server, _) = start(&dir, push_caps());
    let (uri, text) = open(&mut server, &dir, "site/profile/manifests/base.pp");
    let p = server.wait_diagnostics(&uri, |p| p["version"] == 1);
    assert_eq!(p["diagnostics"], json!([]), "{p:#}");

    let def = server.call(
        "textDocument/definition",
        doc_pos(&uri, position_of(&text, "ntp", 1)),
    );
    let target = first_location(&def);
    assert!(
        target.0.ends_with("modules/ntp/manifests/init.pp"),
        "{def:#}"
    );
    assert_eq!(
        target.1,
        json!({"start": {"line": 1, "character": 6}, "end": {"line": 1, "character": 9}})
    );

    let hover = server.call(
        "textDocument/hover",
        doc_pos(&uri, position_of(&text, "ntp", 1)),
    );
    assert!(hover["contents"].to_string().contains("ntp"), "{hover:#}");

    let site_uri = dir.uri("manifests/site.pp");
    let site = read(&dir, "manifests/site.pp");
    server.did_open(&site_uri, 1, &site);
    let def = server.call(
        "textDocument/definition",
        doc_pos(&site_uri, position_of(&site, "profile::base", 3)),
    );
    assert!(
        first_location(&def)
            .0
            .ends_with("site/profile/manifests/base.pp"),
        "{def:#}"
    );

    let found = server.call("workspace/symbol", json!({"query": "ntp"}));
    assert!(
        found.as_array().unwrap().iter().any(|s| s["name"] == "ntp"),
        "{found:#}"
    );

    // A mistyped class in the control repo is reported.
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": position_of(&text, "ntp", 0), "end": position_of(&text, "ntp", 3)}, "text": "ntpd"}
        ]}),
    );
    let p = server.wait_diagnostics(&uri, |p| p["version"] == 2);
    assert!(has_code("unknown-class")(&p), "{p:#}");
    assert!(server.shutdown().success());
}
