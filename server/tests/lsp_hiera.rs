//! Hiera end to end (issue 16): one control repository with an environment
//! layer and a module layer, driven over the protocol like an editor —
//! hover, definition both ways, completion, references, rename and every
//! Hiera diagnostic — and checked with `puppet-ls check` on the same files,
//! which must report exactly what the server reports.

mod support;

use expect_test::expect;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use support::{
    apply_edits, doc_pos, fixture, position_of, pull_capabilities, text_edits_for, Server, TempDir,
};

const CONTROL_REPO: &str = r#"
#- environment.conf
modulepath = modules
#- manifests/site.pp
# Site.
include ntp
include motd
$pools = lookup('ntp::servers', Array[String], 'unique')
notice($pools)
#- hiera.yaml
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: Nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: Common
    path: common.yaml
#- data/nodes/web01.example.com.yaml
ntp::servers: [web.pool]
#- data/nodes/db01.example.com.yaml
ntp::servers: [db.pool
#- data/common.yaml
ntp::servers:
  - a.pool
ntp::port: fast
ntp::serverz: []
motd::message: "%{nope('x')}"
#- modules/ntp/hiera.yaml
version: 5
hierarchy:
  - name: Common
    path: common.yaml
#- modules/ntp/data/common.yaml
ntp::servers: [module.pool]
#- modules/ntp/manifests/init.pp
# Keeps the clock right.
class ntp(Array[String] $servers = [], Integer $port = 123) {
  notice($servers, $port)
}
#- modules/motd/hiera.yaml
version: 5
hierarchy:
  - name: Common
#- modules/motd/manifests/init.pp
# The message of the day.
class motd(String $message = 'hello') {
  notice($message)
}
"#;

/// A server on the control repository, its files indexed.
fn start(dir: &TempDir) -> Server {
    let mut caps = pull_capabilities();
    caps["workspace"]["workspaceEdit"] = json!({"documentChanges": true});
    let mut server = Server::start();
    server.initialize(dir.path(), caps);
    server.wait_indexed();
    server
}

/// The file's text on disk.
fn text(dir: &TempDir, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

/// Opens a data file as an editor does: language `yaml`.
fn open_yaml(server: &mut Server, dir: &TempDir, rel: &str, text: &str) -> String {
    let uri = dir.uri(rel);
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
    );
    uri
}

/// `path:line code severity` (1-based lines, paths relative to the
/// repository), sorted: the shape both the protocol and `check` are read into.
type Finding = String;

fn relative(dir: &TempDir, uri_or_path: &str) -> String {
    let root = dir.path().to_string_lossy().to_string();
    let path = uri_or_path.strip_prefix("file://").unwrap_or(uri_or_path);
    path.strip_prefix(&root)
        .unwrap_or(path)
        .trim_start_matches('/')
        .to_string()
}

/// The Hiera findings of the server's workspace diagnostics (every file,
/// none of them open).
fn workspace_findings(server: &mut Server, dir: &TempDir) -> BTreeSet<Finding> {
    let report = server.call("workspace/diagnostic", json!({"previousResultIds": []}));
    let severity = |d: &Value| match d["severity"].as_u64() {
        Some(1) => "error",
        Some(2) => "warning",
        Some(3) => "info",
        _ => "hint",
    };
    report["items"]
        .as_array()
        .expect("a workspace report")
        .iter()
        .flat_map(|item| {
            let file = relative(dir, item["uri"].as_str().unwrap_or_default());
            item["items"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(move |d| {
                    format!(
                        "{file}:{} {} {}",
                        d["range"]["start"]["line"].as_u64().unwrap_or_default() + 1,
                        d["code"].as_str().unwrap_or_default(),
                        severity(&d)
                    )
                })
        })
        .collect()
}

/// What `puppet-ls check --format json` reports on the repository.
fn check_findings(dir: &TempDir) -> BTreeSet<Finding> {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_puppet-ls"))
        .args([
            "check",
            "--no-lint",
            "--no-format-check",
            "--format",
            "json",
        ])
        .arg(dir.path())
        .output()
        .expect("run puppet-ls check");
    let out = String::from_utf8(output.stdout).unwrap();
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let problems = report
        .as_array()
        .or_else(|| report["problems"].as_array())
        .expect("a list of problems");
    problems
        .iter()
        .map(|p| {
            format!(
                "{}:{} {} {}",
                relative(dir, p["path"].as_str().unwrap_or_default()),
                p["line"],
                p["code"].as_str().unwrap_or_default(),
                p["severity"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

#[test]
fn every_hiera_diagnostic_over_the_protocol_and_in_check() {
    let dir = fixture(CONTROL_REPO);
    let mut server = start(&dir);
    let findings = workspace_findings(&mut server, &dir);
    expect![[r#"
        {
            "data/common.yaml:3 hiera-type-mismatch error",
            "data/common.yaml:4 hiera-unknown-parameter warning",
            "data/common.yaml:5 hiera-interpolation error",
            "data/nodes/db01.example.com.yaml:2 yaml-syntax error",
            "modules/motd/hiera.yaml:3 hiera-config error",
        }
    "#]]
    .assert_debug_eq(&findings);
    assert_eq!(
        check_findings(&dir),
        findings,
        "check and the server differ"
    );

    // An open data file is checked as it is typed: the fix clears the
    // mismatch, a new misspelt key is reported with its suggestion.
    let uri = open_yaml(
        &mut server,
        &dir,
        "data/common.yaml",
        &text(&dir, "data/common.yaml"),
    );
    let edited = "ntp::servers:\n  - a.pool\nntp::port: 123\nntp::serverz: []\nmotd::message: hi\n";
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": edited}]}),
    );
    let report = server.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    let items = report["items"].as_array().expect("a report");
    let shown: Vec<String> = items
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["code"].as_str().unwrap_or_default(),
                d["message"].as_str().unwrap_or_default()
            )
        })
        .collect();
    expect![[r#"
        [
            "hiera-unknown-parameter class 'ntp' has no parameter 'serverz': automatic parameter lookup never reads this key: did you mean 'ntp::servers'?",
        ]
    "#]]
    .assert_debug_eq(&shown);
    // Its quick fix takes the suggestion.
    let actions = server.call(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": items[0]["range"],
            "context": {"diagnostics": [items[0]], "only": ["quickfix"]},
        }),
    );
    let fix = &actions[0];
    assert_eq!(fix["title"], "Change to 'ntp::servers'", "{actions:#}");
    let edits = Value::Array(text_edits_for(&fix["edit"], &uri));
    assert_eq!(
        apply_edits(edited, &edits).lines().nth(3),
        Some("ntp::servers: []")
    );
    assert!(server.shutdown().success());
}

#[test]
fn hover_definition_completion_references_and_rename_across_code_and_data() {
    let dir = fixture(CONTROL_REPO);
    let mut server = start(&dir);
    let init = dir.uri("modules/ntp/manifests/init.pp");
    let init_text = text(&dir, "modules/ntp/manifests/init.pp");
    let site = dir.uri("manifests/site.pp");
    let site_text = text(&dir, "manifests/site.pp");
    let common = dir.uri("data/common.yaml");
    let common_text = text(&dir, "data/common.yaml");
    let servers_param = position_of(&init_text, "$servers", 2);

    // Hover on the class parameter: its values in both layers, in lookup
    // order, each level named with its path template.
    let hover = server.call("textDocument/hover", doc_pos(&init, servers_param.clone()));
    let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
    let hiera_part = &markdown[markdown.find("**Hiera**").unwrap_or(0)..];
    expect![[r#"
        **Hiera** `ntp::servers`: first found wins

        - `data/nodes/web01.example.com.yaml` (environment level *Nodes*, `data/nodes/%{trusted.certname}.yaml`): `['web.pool']`
        - `data/common.yaml` (environment level *Common*, `data/common.yaml`): `['a.pool']`
        - `modules/ntp/data/common.yaml` (module ntp level *Common*, `data/common.yaml`): `['module.pool']`

        The data's values are `Array[String]`.
    "#]]
    .assert_eq(hiera_part);

    // Hover on the lookup key honours the call's merge.
    let key = position_of(&site_text, "ntp::servers", 3);
    let hover = server.call("textDocument/hover", doc_pos(&site, key.clone()));
    let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(markdown.contains("`unique`"), "{markdown}");

    // Definition: from the lookup key to every data file defining it…
    let definition = server.call("textDocument/definition", doc_pos(&site, key.clone()));
    let targets: Vec<String> = locations(&definition)
        .iter()
        .map(|(uri, line)| format!("{}:{line}", relative(&dir, uri)))
        .collect();
    expect![[r#"
        [
            "data/nodes/web01.example.com.yaml:0",
            "data/common.yaml:0",
            "modules/ntp/data/common.yaml:0",
        ]
    "#]]
    .assert_debug_eq(&targets);
    // …and from a data key to the parameter, with the key's hover.
    open_yaml(&mut server, &dir, "data/common.yaml", &common_text);
    let data_key = position_of(&common_text, "ntp::servers", 6);
    let definition = server.call(
        "textDocument/definition",
        doc_pos(&common, data_key.clone()),
    );
    assert_eq!(
        locations(&definition),
        [(init.clone(), servers_param["line"].as_u64().unwrap())],
        "{definition:#}"
    );
    let hover = server.call("textDocument/hover", doc_pos(&common, data_key));
    let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        markdown.contains("Parameter `$servers` of class `ntp`, declared on line 2")
            && markdown.contains("Bound by automatic parameter lookup."),
        "{markdown}"
    );

    // Completion: keys inside `lookup('`, parameters in a data file.
    // Every key the data defines, misspelt ones included: `lookup()` may
    // read any of them.
    let completion = server.call("textDocument/completion", doc_pos(&site, key));
    assert_eq!(
        labels(&completion),
        ["motd::message", "ntp::port", "ntp::servers", "ntp::serverz"]
    );
    // The environment's data may bind any class's parameters; the keys
    // the file binds already are not offered again.
    let mut complete_line_2 = |rel: &str, text: &str| {
        let uri = open_yaml(&mut server, &dir, rel, text);
        let end_of_line_2 = text.lines().nth(1).unwrap_or_default().len();
        let position = json!({"line": 1, "character": end_of_line_2});
        labels(&server.call("textDocument/completion", doc_pos(&uri, position)))
    };
    assert_eq!(
        complete_line_2(
            "data/nodes/web01.example.com.yaml",
            "ntp::servers: [web.pool]\nntp::\n"
        ),
        ["motd::message", "ntp::port"]
    );
    // A module's data answers only its own namespace.
    assert_eq!(
        complete_line_2(
            "modules/ntp/data/common.yaml",
            "ntp::servers: [module.pool]\n\n"
        ),
        ["ntp::port"]
    );

    // References of the parameter include its data keys in both layers.
    let references = server.call(
        "textDocument/references",
        json!({
            "textDocument": {"uri": init},
            "position": servers_param,
            "context": {"includeDeclaration": true},
        }),
    );
    let mut found: Vec<String> = locations(&references)
        .iter()
        .map(|(uri, line)| format!("{}:{line}", relative(&dir, uri)))
        .collect();
    found.sort();
    expect![[r#"
        [
            "data/common.yaml:0",
            "data/nodes/web01.example.com.yaml:0",
            "modules/ntp/data/common.yaml:0",
            "modules/ntp/manifests/init.pp:1",
            "modules/ntp/manifests/init.pp:2",
        ]
    "#]]
    .assert_debug_eq(&found);

    // Rename of the parameter renames its keys in every data file; the
    // workspace is then clean of the old name.
    let rename = server.call(
        "textDocument/rename",
        json!({"textDocument": {"uri": init}, "position": servers_param, "newName": "pools"}),
    );
    let renamed: Vec<String> = [
        "modules/ntp/manifests/init.pp",
        "data/common.yaml",
        "data/nodes/web01.example.com.yaml",
        "modules/ntp/data/common.yaml",
    ]
    .iter()
    .map(|rel| {
        let before = if *rel == "data/nodes/web01.example.com.yaml" {
            "ntp::servers: [web.pool]\nntp::\n".to_string()
        } else {
            text(&dir, rel)
        };
        let edits = Value::Array(text_edits_for(&rename, &dir.uri(rel)));
        let after = apply_edits(&before, &edits);
        format!("{rel}: {}", after.lines().next().unwrap_or_default())
    })
    .collect();
    expect![[r#"
        [
            "modules/ntp/manifests/init.pp: # Keeps the clock right.",
            "data/common.yaml: ntp::pools:",
            "data/nodes/web01.example.com.yaml: ntp::pools: [web.pool]",
            "modules/ntp/data/common.yaml: ntp::pools: [module.pool]",
        ]
    "#]]
    .assert_debug_eq(&renamed);
    let init_after = apply_edits(&init_text, &Value::Array(text_edits_for(&rename, &init)));
    assert!(
        init_after.contains("Array[String] $pools = []") && init_after.contains("notice($pools,"),
        "{init_after}"
    );
    assert!(server.shutdown().success());
}

/// `(uri, start line)` of a definition or references reply.
fn locations(reply: &Value) -> Vec<(String, u64)> {
    let list = match reply {
        Value::Array(items) => items.clone(),
        Value::Null => Vec::new(),
        single => vec![single.clone()],
    };
    list.iter()
        .map(|l| {
            let uri = l["targetUri"]
                .as_str()
                .or(l["uri"].as_str())
                .unwrap_or_default();
            let range = if l["targetSelectionRange"].is_object() {
                &l["targetSelectionRange"]
            } else {
                &l["range"]
            };
            (
                uri.to_string(),
                range["start"]["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

/// The labels of a completion reply, in the server's order.
fn labels(reply: &Value) -> Vec<String> {
    let items = reply["items"].as_array().or(reply.as_array());
    items
        .into_iter()
        .flatten()
        .filter_map(|i| i["label"].as_str().map(String::from))
        .collect()
}
