//! End-to-end tests of the language server's protocol behaviour: position
//! encodings, progress, push and pull diagnostics, file watching in a
//! control repository, settings and the syntax-tree request — the real
//! binary over stdio, driven like an editor, on fixture workspaces.

mod support;

use serde_json::{json, Value};
use std::time::Duration;
use support::{
    cli_tree, codes, file_uri, fixture, pull_capabilities, push_capabilities, Server, TIMEOUT,
};

const MODULE: &str = r#"
#- mymod/metadata.json
{"name": "me-mymod", "version": "1.0.0", "author": "me", "summary": "My module", "license": "Apache-2.0", "source": "x", "dependencies": []}
#- mymod/types/port.pp
type Mymod::Port = Integer[1, 65535]
#- mymod/manifests/init.pp
# The module.
class mymod (
  Mymod::Port $port = 80,
) {
  notify { "port ${port}": }
}
#- mymod/manifests/broken.pp
# Refers to a class that does not exist.
class mymod::broken {
  include mymod::missing
}
"#;

const CONTROL_REPO: &str = r#"
#- environment.conf
modulepath = site:modules:$basemodulepath
#- manifests/site.pp
node default { include role::web }
#- site/role/manifests/web.pp
# The web server role.
class role::web {
  include profile::ntp
}
#- site/profile/manifests/ntp.pp
# Time.
class profile::ntp {
  class { 'ntp': servers => ['pool.ntp.org'] }
}
#- site/profile/manifests/broken.pp
# Refers to a class that does not exist.
class profile::broken {
  include ntp::nothere
}
#- modules/ntp/metadata.json
{"name": "puppetlabs-ntp", "version": "1.0.0", "author": "puppetlabs", "summary": "NTP", "license": "Apache-2.0", "source": "x", "dependencies": []}
#- modules/ntp/manifests/init.pp
# NTP.
class ntp (Array[String] $servers = []) {
}
"#;

fn change(version: i32, uri: &str, changes: Value) -> Value {
    json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})
}

fn range(l1: usize, c1: usize, l2: usize, c2: usize) -> Value {
    json!({"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}})
}

/// Every way of starting the server on stdio, with a client that declares
/// no capabilities and no workspace folders. (Push and pull clients, and
/// UTF-8 negotiation, are in `lsp_e2e.rs`.)
#[test]
fn initialize_without_capabilities_or_folders() {
    for args in [
        &[][..],
        &["--stdio"][..],
        &["lsp", "--stdio", "--log-level", "error"][..],
    ] {
        let mut server = Server::start_with(args);
        let result = server.initialize_with(&[], json!({}), Value::Null);
        let caps = &result["capabilities"];
        assert_eq!(caps["positionEncoding"], "utf-16", "{args:?}");
        assert_eq!(caps["textDocumentSync"]["change"], 2, "{args:?}");
        assert_eq!(caps["diagnosticProvider"], Value::Null, "{args:?}");
        assert_eq!(result["serverInfo"]["name"], "puppet-ls", "{args:?}");
        assert!(server.shutdown().success(), "{args:?}");
    }
}

/// Opens `init.pp` with non-ASCII text and checks positions and versions
/// of pushed diagnostics through incremental changes.
fn push_diagnostics_scenario(utf8: bool) {
    let dir = fixture(MODULE);
    let root = dir.join("mymod");
    let mut server = Server::start_with(&["--stdio"]);
    let result = server.initialize(&root, push_capabilities(utf8));
    let encoding = if utf8 { "utf-8" } else { "utf-16" };
    assert_eq!(result["capabilities"]["positionEncoding"], encoding);
    let begun = server.wait_notification("$/progress", |p| p["value"]["kind"] == "begin", TIMEOUT);
    assert!(begun.is_some(), "indexing never reported its start");
    server.wait_indexed();
    assert_eq!(
        server
            .server_requests_for("window/workDoneProgress/create")
            .len(),
        1
    );

    // A closed file with an error is reported after indexing, unversioned.
    let broken = file_uri(&root.join("manifests/broken.pp"));
    let params = server.wait_diagnostics(&broken, |_| true);
    assert_eq!(codes(&params["diagnostics"]), ["unknown-class"]);
    assert_eq!(params["version"], Value::Null);
    assert_eq!(params["diagnostics"][0]["source"], "puppet-ls");
    assert_eq!(params["diagnostics"][0]["severity"], 1);

    let uri = file_uri(&root.join("manifests/init.pp"));
    let line3 = "  notify { \"é😀 ${undefined}\": }";
    let text = format!("class mymod (\n  Mymod::Nope $port = 80,\n) {{\n{line3}\n}}\n");
    server.did_open(&uri, 1, &text);
    // puppet-lint's findings follow the analysis'. They come with the
    // first report, or, when linting the text on disk at indexing took
    // over the inline budget (a loaded machine), with the report sent
    // once the pause after the edit has passed.
    let params = server.wait_diagnostics(&uri, |p| {
        p["version"] == 1
            && codes(&p["diagnostics"])
                .iter()
                .any(|c| c == "variable_scope")
    });
    assert_eq!(
        codes(&params["diagnostics"]),
        [
            "unknown-type",
            "unknown-variable",
            "documentation",
            "variable_scope"
        ]
    );
    assert_eq!(params["diagnostics"][3]["source"], "puppet-lint");
    assert_eq!(params["diagnostics"][3]["severity"], 2);
    assert_eq!(
        params["diagnostics"][3]["range"],
        params["diagnostics"][1]["range"]
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
    server.notify(
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
    let params = server.wait_diagnostics(&uri, |p| p["version"] == 2);
    assert_eq!(codes(&params["diagnostics"]), ["documentation"]);

    // A syntax error shows up (the quick pass or the full one).
    server.notify(
        "textDocument/didChange",
        change(3, &uri, json!([{"range": range(4, 0, 4, 1), "text": ""}])),
    );
    let params = server.wait_diagnostics(&uri, |p| p["version"] == 3);
    assert!(!codes(&params["diagnostics"]).is_empty());
    assert_eq!(params["diagnostics"][0]["severity"], 1);
    assert!(server.shutdown().success());
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
    let dir = fixture(MODULE);
    let root = dir.join("mymod");
    let mut server = Server::start();
    let result = server.initialize(&root, pull_capabilities());
    assert_eq!(
        result["capabilities"]["diagnosticProvider"]["workspaceDiagnostics"],
        true
    );
    server.wait_indexed();

    let broken = file_uri(&root.join("manifests/broken.pp"));
    let report = server.call("workspace/diagnostic", json!({"previousResultIds": []}));
    let items = report["items"].as_array().unwrap();
    let item = items.iter().find(|i| i["uri"] == broken.as_str()).unwrap();
    assert_eq!(codes(&item["items"]), ["unknown-class"]);
    assert_eq!(items.len(), 1, "only files with problems: {report}");

    let uri = file_uri(&root.join("manifests/init.pp"));
    server.did_open(&uri, 1, "# The module.\nclass mymod(Mymod::Nope $x) {}\n");
    let report = server.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(report["kind"], "full");
    assert_eq!(codes(&report["items"]), ["unknown-type"]);
    let id = report["resultId"].as_str().unwrap().to_string();
    let report = server.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}, "previousResultId": id}),
    );
    assert_eq!(report["kind"], "unchanged");

    // Fixed in the editor: the next pull sees the new text.
    server.notify(
        "textDocument/didChange",
        change(
            2,
            &uri,
            json!([{"range": range(1, 19, 1, 23), "text": "Port"}]),
        ),
    );
    let report = server.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(codes(&report["items"]), Vec::<String>::new());
    assert!(
        server
            .notifications
            .iter()
            .all(|n| n["method"] != "textDocument/publishDiagnostics"),
        "a pull client gets no pushed diagnostics"
    );
    assert!(!server
        .server_requests_for("workspace/diagnostic/refresh")
        .is_empty());
    assert!(server.shutdown().success());
}

/// A client that already has every result is answered only once
/// something changed (long polling), not at once with nothing new.
#[test]
fn workspace_diagnostics_are_long_polled() {
    let dir = fixture(MODULE);
    let root = dir.join("mymod");
    let mut server = Server::start();
    server.initialize(&root, pull_capabilities());
    server.wait_indexed();
    let first = server.call("workspace/diagnostic", json!({"previousResultIds": []}));
    let known: Vec<Value> = first["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| json!({"uri": i["uri"], "value": i["resultId"]}))
        .collect();
    assert_eq!(known.len(), 1, "{first:#}");

    let id =
        json!(server.send_request("workspace/diagnostic", json!({"previousResultIds": known})));
    assert!(
        server
            .response_within(&id, Duration::from_millis(700))
            .is_none(),
        "nothing changed, yet the request was answered"
    );
    // The broken file is fixed on disk.
    let broken = root.join("manifests/broken.pp");
    std::fs::write(
        &broken,
        "# Fixed.\nclass mymod::broken {\n  include mymod\n}\n",
    )
    .unwrap();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&broken), "type": 2}]}),
    );
    let report = server
        .response_within(&id, Duration::from_secs(20))
        .expect("answered once something changed")
        .expect("a report");
    let items = report["items"].as_array().unwrap();
    let item = items
        .iter()
        .find(|i| i["uri"] == file_uri(&broken).as_str())
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(item["kind"], "full");
    assert_eq!(codes(&item["items"]), Vec::<String>::new());

    // Shutting down answers a waiting request.
    let known = vec![json!({"uri": item["uri"], "value": item["resultId"]})];
    let id =
        json!(server.send_request("workspace/diagnostic", json!({"previousResultIds": known})));
    let shutdown = json!(server.send_request("shutdown", Value::Null));
    assert!(server
        .response_within(&id, Duration::from_secs(10))
        .is_some_and(|r| r.is_ok()));
    assert!(server
        .response_within(&shutdown, Duration::from_secs(10))
        .is_some());
}

#[test]
fn control_repo_with_file_watching() {
    let dir = fixture(CONTROL_REPO);
    let root = dir.path();
    let mut server = Server::start();
    server.initialize(root, push_capabilities(false));
    server.wait_indexed();
    let registrations = server.server_requests_for("client/registerCapability");
    let registration = &registrations[0]["params"]["registrations"][0];
    assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
    let globs: Vec<&str> = registration["registerOptions"]["watchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["globPattern"].as_str().unwrap())
        .collect();
    assert!(globs.contains(&"**/*.pp") && globs.contains(&"**/environment.conf"));

    let broken = dir.uri("site/profile/manifests/broken.pp");
    let params = server.wait_diagnostics(&broken, |_| true);
    assert_eq!(codes(&params["diagnostics"]), ["unknown-class"]);

    // An open file refers to a class that does not exist yet...
    let uri = dir.uri("site/role/manifests/web.pp");
    server.did_open(
        &uri,
        1,
        "# Web.\nclass role::web {\n  include profile::ntpx\n}\n",
    );
    let params = server.wait_diagnostics(&uri, |p| p["version"] == 1);
    assert_eq!(codes(&params["diagnostics"]), ["unknown-class"]);

    // ...until it is created outside the editor.
    dir.write("site/profile/manifests/ntpx.pp", "class profile::ntpx {}\n");
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": dir.uri("site/profile/manifests/ntpx.pp"), "type": 1}]}),
    );
    server.wait_diagnostics(&uri, |p| p["diagnostics"] == json!([]));

    // A deleted file's diagnostics are cleared.
    std::fs::remove_file(dir.join("site/profile/manifests/broken.pp")).unwrap();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": broken, "type": 3}]}),
    );
    server.wait_diagnostics(&broken, |p| p["diagnostics"] == json!([]));

    // A new module (metadata.json) is discovered.
    server.clear_notifications();
    dir.write("modules/extra/metadata.json", "{\"name\": \"me-extra\"}\n");
    dir.write("modules/extra/manifests/init.pp", "class extra {}\n");
    server.notify(
        "textDocument/didChange",
        change(
            2,
            &uri,
            json!([{"range": range(2, 10, 2, 23), "text": "extra"}]),
        ),
    );
    let params = server.wait_diagnostics(&uri, |p| p["version"] == 2);
    assert_eq!(codes(&params["diagnostics"]), ["unknown-class"]);
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": dir.uri("modules/extra/metadata.json"), "type": 1}]}),
    );
    server.wait_diagnostics(&uri, |p| p["diagnostics"] == json!([]));
    assert!(server.shutdown().success());
}

#[test]
fn configuration_hides_ignored_codes() {
    let dir = fixture(MODULE);
    let root = dir.join("mymod");
    let mut server = Server::start();
    server.initialize_with(
        &[&root],
        push_capabilities(false),
        json!({"diagnostics": {"ignore": ["unknown-type", "documentation"]}}),
    );
    server.wait_indexed();
    let uri = file_uri(&root.join("manifests/init.pp"));
    server.did_open(
        &uri,
        1,
        "class mymod(Mymod::Nope $x) {\n  include nowhere\n  notify { $nothing: }\n}\n",
    );
    let params = server.wait_diagnostics(&uri, |p| p["version"] == 1);
    assert_eq!(
        codes(&params["diagnostics"]),
        ["unknown-class", "unknown-variable", "variable_scope"]
    );

    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"puppet-ls": {"diagnostics": {"ignore": ["unknown-class"]}}}}),
    );
    let params = server.wait_diagnostics(&uri, |p| {
        !codes(&p["diagnostics"]).contains(&"unknown-class".to_string())
    });
    assert_eq!(
        codes(&params["diagnostics"]),
        [
            "unknown-type",
            "unknown-variable",
            "documentation",
            "variable_scope"
        ]
    );

    // The Puppet checked for, switched without a restart: reading an
    // unknown variable fails on Puppet 8 (the default), is undef with a
    // warning on Puppet 7.
    let severity_of_unknown_variable = |p: &serde_json::Value| {
        p["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|d| d["code"] == "unknown-variable")
            .map(|d| d["severity"].clone())
    };
    assert_eq!(severity_of_unknown_variable(&params), Some(json!(1)));
    let announced = |server: &mut Server, version: &str| {
        server
            .wait_notification(
                "puppet-ls/target",
                |p| p["version"] == version,
                std::time::Duration::from_secs(20),
            )
            .unwrap_or_else(|| panic!("no puppet-ls/target for Puppet {version}"))
    };
    let target = announced(&mut server, "8");
    assert_eq!(
        target["description"],
        "Puppet 8 (strict = error, strict_variables = true; version the default)"
    );
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"puppetVersion": "7"}}),
    );
    let target = announced(&mut server, "7");
    assert_eq!(
        (&target["strict"], &target["strictVariables"]),
        (&json!("warning"), &json!(false))
    );
    assert_eq!(
        target["description"],
        "Puppet 7 (strict = warning, strict_variables = false; version set by the editor's settings)"
    );
    let params =
        server.wait_diagnostics(&uri, |p| severity_of_unknown_variable(p) == Some(json!(2)));
    assert_eq!(
        codes(&params["diagnostics"]),
        [
            "unknown-type",
            "unknown-class",
            "unknown-variable",
            "documentation",
            "variable_scope"
        ]
    );
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"puppetVersion": "7", "strictVariables": true}}),
    );
    server.wait_diagnostics(&uri, |p| severity_of_unknown_variable(p) == Some(json!(1)));

    // puppet-lint's checks switched off, then one check's severity raised
    // (settings are replaced as a whole).
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"diagnostics": {"ignore": ["unknown-variable"]}, "lint": {"enabled": false}}}),
    );
    let params = server.wait_diagnostics(&uri, |p| codes(&p["diagnostics"]).len() == 2);
    assert_eq!(
        codes(&params["diagnostics"]),
        ["unknown-type", "unknown-class"]
    );
    server.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"diagnostics": {"ignore": ["unknown-variable"],
                            "severity": {"variable_scope": "error"}}}}),
    );
    let params = server.wait_diagnostics(&uri, |p| codes(&p["diagnostics"]).len() == 4);
    let scope = &params["diagnostics"][3];
    assert_eq!(
        (&scope["code"], &scope["severity"]),
        (&json!("variable_scope"), &json!(1))
    );
    assert!(server.shutdown().success());
}

#[test]
fn syntax_tree_request_matches_the_cli() {
    let dir = fixture("#- site.pp\n# on disk\n");
    let uri = dir.uri("site.pp");
    let mut server = Server::start();
    server.initialize(dir.path(), push_capabilities(false));
    let text = "node default {\n  $x = \"é ${facts['os']}\"\n}\n";
    server.did_open(&uri, 1, text);
    let tree = server.call(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": uri}}),
    );
    let expected = cli_tree(&dir.join("copy.pp"), text);
    assert!(expected.starts_with("SOURCE_FILE@"));
    assert_eq!(tree.as_str().unwrap(), expected);
    assert!(server.shutdown().success());
}

/// Hiera files that are not open are reported with the workspace's other
/// files: a data file that is not valid YAML, a `hiera.yaml` level without a
/// path.
#[test]
fn hiera_files_are_in_the_workspace_diagnostics() {
    let dir = fixture(
        "#- hiera.yaml\nversion: 5\nhierarchy:\n  - name: Common\n\
         #- data/common.yaml\nntp::servers: [a\n\
         #- manifests/site.pp\n# Site.\nnotice('x')\n",
    );
    let mut server = Server::start();
    server.initialize(dir.path(), pull_capabilities());
    server.wait_indexed();
    let report = server.call("workspace/diagnostic", json!({"previousResultIds": []}));
    let items = report["items"].as_array().unwrap();
    let of = |rel: &str| {
        items
            .iter()
            .find(|i| i["uri"] == dir.uri(rel).as_str())
            .unwrap_or_else(|| panic!("{rel} not in {report:#}"))
    };
    assert_eq!(codes(&of("data/common.yaml")["items"]), ["yaml-syntax"]);
    let config = &of("hiera.yaml")["items"];
    assert_eq!(codes(config), ["hiera-config"]);
    assert_eq!(config[0]["range"]["start"]["line"], 2);

    // A data file created outside the editor joins the workspace; a YAML
    // file elsewhere does not.
    dir.write("data/nodes/web01.yaml", "a: [\n");
    dir.write("ci/pipeline.yaml", "a: [\n");
    let created = |rel: &str| json!({"uri": dir.uri(rel), "type": 1});
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [created("data/nodes/web01.yaml"), created("ci/pipeline.yaml")]}),
    );
    // The files are read in the background: ask until they are in.
    let new_file = dir.uri("data/nodes/web01.yaml");
    let mut uris: Vec<String> = Vec::new();
    for _ in 0..100 {
        let report = server.call("workspace/diagnostic", json!({"previousResultIds": []}));
        uris = report["items"]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(|i| i["uri"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        if uris.iter().any(|u| u == new_file.as_str()) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(uris.iter().any(|u| u == new_file.as_str()), "{uris:?}");
    assert!(
        !uris
            .iter()
            .any(|u| u == dir.uri("ci/pipeline.yaml").as_str()),
        "{uris:?}"
    );
    assert!(server.shutdown().success());
}

#[test]
fn hover_shows_the_configured_nodes_value_as_puppet_lookup_computes_it() {
    let dir = fixture(
        "#- puppet-ls.toml\n[hiera]\nnode = \"web01.example.com\"\nfacts = \"facts/web01.yaml\"\n\
         #- facts/web01.yaml\nos:\n  family: Debian\n\
         #- hiera.yaml\nversion: 5\nhierarchy:\n  - name: Nodes\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: OS\n    path: \"os/%{facts.os.family}.yaml\"\n  - name: Common\n    path: common.yaml\n\
         #- data/nodes/web01.example.com.yaml\nntp::servers: [web.pool]\n\
         #- data/os/Debian.yaml\nntp::servers: [debian.pool]\n\
         #- data/common.yaml\nlookup_options:\n  ntp::servers:\n    merge: unique\nntp::servers: [a.pool]\n\
         #- modules/ntp/manifests/init.pp\n# Time.\nclass ntp(Array[String] $servers) {}\n\
         #- manifests/site.pp\n# Site.\ninclude ntp\n",
    );
    let mut server = Server::start();
    server.initialize(dir.path(), pull_capabilities());
    server.wait_indexed();
    let uri = dir.uri("modules/ntp/manifests/init.pp");
    let hover = server.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri.as_str()}, "position": {"line": 1, "character": 27}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        text.contains("For node `web01.example.com`: `['web.pool', 'debian.pool', 'a.pool']` (from `data/nodes/web01.example.com.yaml`, `data/os/Debian.yaml`, `data/common.yaml`)"),
        "{text}"
    );
    assert!(server.shutdown().success());
}

#[test]
fn hiera_data_files_answer_hover_definition_and_diagnostics_over_the_protocol() {
    let dir = fixture(
        "#- hiera.yaml\nversion: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n\
         #- data/common.yaml\nntp::servers: a.pool\n\
         #- modules/ntp/manifests/init.pp\n# Time.\nclass ntp(Array[String] $servers) {}\n\
         #- manifests/site.pp\n# Site.\n$s = lookup('ntp::servers')\n\
         #- ci/pipeline.yaml\njobs: [\n",
    );
    let mut server = Server::start();
    server.initialize(dir.path(), pull_capabilities());
    server.wait_indexed();
    let data = dir.uri("data/common.yaml");
    let opened = |server: &mut Server, uri: &str, text: &str| {
        server.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
        );
        server.call(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
    };
    let report = opened(&mut server, data.as_str(), "ntp::servers: a.pool\n");
    assert_eq!(codes(&report["items"]), ["hiera-type-mismatch"]);
    // Another YAML file the editor opens is not Hiera's: nothing reported.
    let other = dir.uri("ci/pipeline.yaml");
    let report = opened(&mut server, other.as_str(), "jobs: [\n");
    assert_eq!(codes(&report["items"]), Vec::<String>::new());

    let hover = server.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": data.as_str()}, "position": {"line": 0, "character": 3}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        text.contains("Parameter `$servers` of class `ntp`"),
        "{hover}"
    );
    let definition = server.call(
        "textDocument/definition",
        json!({"textDocument": {"uri": data.as_str()}, "position": {"line": 0, "character": 3}}),
    );
    let target = definition
        .as_array()
        .and_then(|a| a.first())
        .unwrap_or(&definition);
    assert_eq!(
        target["targetUri"].as_str(),
        Some(dir.uri("modules/ntp/manifests/init.pp").as_str()),
        "{definition}"
    );
    let site = dir.uri("manifests/site.pp");
    let definition = server.call(
        "textDocument/definition",
        json!({"textDocument": {"uri": site.as_str()}, "position": {"line": 1, "character": 15}}),
    );
    let target = definition
        .as_array()
        .and_then(|a| a.first())
        .unwrap_or(&definition);
    assert_eq!(
        target["targetUri"].as_str(),
        Some(data.as_str()),
        "{definition}"
    );

    // Completion of keys in the data file and in the lookup() string.
    let labels = |reply: &serde_json::Value| -> Vec<String> {
        let items = reply.get("items").unwrap_or(reply);
        items
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|i| i["label"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let reply = server.call(
        "textDocument/completion",
        json!({"textDocument": {"uri": data.as_str()}, "position": {"line": 0, "character": 0}}),
    );
    assert!(
        labels(&reply).contains(&"ntp::servers".to_string()),
        "{reply}"
    );
    let reply = server.call(
        "textDocument/completion",
        json!({"textDocument": {"uri": site.as_str()}, "position": {"line": 1, "character": 15}}),
    );
    assert!(
        labels(&reply).contains(&"ntp::servers".to_string()),
        "{reply}"
    );

    // References of the parameter include its data key; rename edits it.
    let init = dir.uri("modules/ntp/manifests/init.pp");
    let at_param =
        json!({"textDocument": {"uri": init.as_str()}, "position": {"line": 1, "character": 27}});
    let mut with_context = at_param.clone();
    with_context["context"] = json!({"includeDeclaration": true});
    let references = server.call("textDocument/references", with_context);
    let uris: Vec<&str> = references
        .as_array()
        .map(|a| a.iter().filter_map(|l| l["uri"].as_str()).collect())
        .unwrap_or_default();
    assert!(uris.contains(&data.as_str()), "{references}");
    let mut rename = at_param;
    rename["newName"] = json!("pools");
    let edit = server.call("textDocument/rename", rename);
    let text = edit.to_string();
    assert!(
        text.contains(data.as_str()) && text.contains("\"newText\":\"pools\""),
        "{edit}"
    );
    assert!(server.shutdown().success());
}

const MODULES_WITH_METADATA: &str = r#"
#- modules/app/metadata.json
{
  "name": "acme-app",
  "version": "1.0.0",
  "author": "acme",
  "summary": "An application",
  "license": "Apache-2.0",
  "source": "x",
  "dependencies": [
    {"name": "puppetlabs/stdlib", "version_requirement": ">= 4.13.1 < 9.0.0"}
  ]
}
#- modules/app/manifests/init.pp
# The app.
class app {
  include other
}
#- modules/stdlib/metadata.json
{"name": "puppetlabs-stdlib", "version": "9.4.1", "author": "puppetlabs", "summary": "Standard library", "license": "Apache-2.0", "source": "x", "dependencies": []}
#- modules/stdlib/manifests/init.pp
# Stdlib.
class stdlib {}
#- modules/other/metadata.json
{"name": "acme-other", "version": "2.0.0", "author": "acme", "summary": "Other", "license": "Apache-2.0", "source": "x"}
#- modules/other/manifests/init.pp
# Other.
class other {}
"#;

#[test]
fn metadata_files_answer_hover_definition_and_diagnostics_over_the_protocol() {
    let dir = fixture(MODULES_WITH_METADATA);
    let mut server = Server::start();
    server.initialize(dir.path(), pull_capabilities());
    server.wait_indexed();
    // Closed files are reported: a dependency out of range, a missing
    // field, a class of an undeclared module.
    let report = server.call("workspace/diagnostic", json!({"previousResultIds": []}));
    let of = |rel: &str| {
        let uri = dir.uri(rel);
        report["items"]
            .as_array()
            .and_then(|items| items.iter().find(|i| i["uri"] == uri.as_str()))
            .map(|i| codes(&i["items"]))
            .unwrap_or_default()
    };
    assert_eq!(
        of("modules/app/metadata.json"),
        ["unmet-dependency"],
        "{report}"
    );
    assert_eq!(
        of("modules/other/metadata.json"),
        ["metadata-schema"],
        "{report}"
    );
    assert_eq!(
        of("modules/app/manifests/init.pp"),
        ["undeclared-dependency"],
        "{report}"
    );

    // The editor opens metadata.json (language `json`) and edits it.
    let app = dir.uri("modules/app/metadata.json");
    let text = std::fs::read_to_string(dir.join("modules/app/metadata.json")).unwrap();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": app.as_str(), "languageId": "json", "version": 1, "text": text}}),
    );
    let pull = |server: &mut Server| {
        let report = server.call(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": app.as_str()}}),
        );
        codes(&report["items"])
    };
    assert_eq!(pull(&mut server), ["unmet-dependency"]);
    let line = text.lines().position(|l| l.contains("stdlib")).unwrap();
    let column = text.lines().nth(line).unwrap().find("< 9.0.0").unwrap();
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": app.as_str(), "version": 2}, "contentChanges": [
            {"range": range(line, column + 2, line, column + 3), "text": "10"}
        ]}),
    );
    assert_eq!(pull(&mut server), Vec::<String>::new());

    // Hover and definition on the dependency's name.
    let name_column = text
        .lines()
        .nth(line)
        .unwrap()
        .find("puppetlabs/stdlib")
        .unwrap()
        + 3;
    let at = json!({"textDocument": {"uri": app.as_str()}, "position": {"line": line, "character": name_column}});
    let hover = server.call("textDocument/hover", at.clone());
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        shown.contains("Module `puppetlabs-stdlib` 9.4.1")
            && shown.contains("Version 9.4.1 satisfies `>= 4.13.1 < 10.0.0`."),
        "{hover}"
    );
    let definition = server.call("textDocument/definition", at);
    let target = definition
        .as_array()
        .and_then(|a| a.first())
        .unwrap_or(&definition);
    let uri = target["targetUri"].as_str().or(target["uri"].as_str());
    assert_eq!(
        uri,
        Some(dir.uri("modules/stdlib/metadata.json").as_str()),
        "{definition}"
    );
    // A JSON file that is no module's metadata is not analysed.
    let other = dir.uri("package.json");
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": other.as_str(), "languageId": "json", "version": 1, "text": "{,"}}),
    );
    let report = server.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": other.as_str()}}),
    );
    assert_eq!(codes(&report["items"]), Vec::<String>::new());
    assert!(server.shutdown().success());
}

/// From `$port`, from `"${port}"` in a string, and from the attribute
/// setting the parameter in a declaration.
#[test]
fn type_definition_goes_from_a_variable_to_its_alias() {
    let dir = fixture(
        "#- types/port.pp\n# A port.\ntype Web::Port = Integer[1, 65535]\n\
         #- manifests/init.pp\n# Web.\nclass web(Web::Port $port) {\n  notice($port)\n  notice(\"${port}\")\n}\n\
         #- manifests/site.pp\n# Site.\nclass web::site {\n  class { 'web': port => 80 }\n}\n",
    );
    let mut server = Server::start();
    let reply = server.initialize(dir.path(), pull_capabilities());
    assert_eq!(
        reply["capabilities"]["typeDefinitionProvider"], true,
        "{reply}"
    );
    server.wait_indexed();
    let init = dir.uri("manifests/init.pp");
    let site = dir.uri("manifests/site.pp");
    for (uri, line, character) in [(&init, 2, 11), (&init, 3, 13), (&site, 2, 18)] {
        let found = server.call(
            "textDocument/typeDefinition",
            json!({"textDocument": {"uri": uri.as_str()}, "position": {"line": line, "character": character}}),
        );
        let target = found.as_array().and_then(|a| a.first()).unwrap_or(&found);
        assert_eq!(
            target["targetUri"].as_str(),
            Some(dir.uri("types/port.pp").as_str()),
            "{uri:?} {line}:{character}: {found}"
        );
    }
    assert!(server.shutdown().success());
}

#[test]
fn document_links_open_templates_and_files_and_follow_the_disk() {
    let dir = fixture(
        "#- web/templates/a.erb\na\n#- web/templates/b.epp\nb\n#- web/files/motd\nhello\n\
         #- web/manifests/init.pp\n# Web.\nclass web {\n  \
         file { '/a': content => template('web/a.erb') }\n  \
         file { '/b': content => epp('web/b.epp') }\n  \
         file { '/m': source => 'puppet:///modules/web/motd' }\n  \
         file { '/n': content => file('web/new') }\n}\n",
    );
    let mut server = Server::start();
    let reply = server.initialize(dir.path(), push_capabilities(false));
    assert_eq!(
        reply["capabilities"]["documentLinkProvider"]["resolveProvider"], false,
        "{reply}"
    );
    server.wait_indexed();
    let uri = dir.uri("web/manifests/init.pp");
    let params = server.wait_diagnostics(&uri, |_| true);
    assert_eq!(codes(&params["diagnostics"]), ["unknown-module-file"]);
    let links = server.call(
        "textDocument/documentLink",
        json!({"textDocument": {"uri": uri.as_str()}}),
    );
    let found: Vec<(u64, u64, String)> = links
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["range"]["start"]["line"].as_u64().unwrap(),
                l["range"]["start"]["character"].as_u64().unwrap(),
                l["target"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (2, 36, dir.uri("web/templates/a.erb")),
            (3, 31, dir.uri("web/templates/b.epp")),
            (4, 26, dir.uri("web/files/motd")),
        ],
        "{links}"
    );

    // The missing file is created: the error goes and the link appears.
    dir.write("web/files/new", "new\n");
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": dir.uri("web/files/new"), "type": 1}]}),
    );
    server.wait_diagnostics(&uri, |p| p["diagnostics"] == json!([]));
    let links = server.call(
        "textDocument/documentLink",
        json!({"textDocument": {"uri": uri.as_str()}}),
    );
    assert_eq!(links.as_array().map(Vec::len), Some(4), "{links}");

    // A template is deleted: its call is an error again.
    std::fs::remove_file(dir.join("web/templates/a.erb")).unwrap();
    server.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": dir.uri("web/templates/a.erb"), "type": 3}]}),
    );
    let params = server.wait_diagnostics(&uri, |p| p["diagnostics"] != json!([]));
    assert_eq!(codes(&params["diagnostics"]), ["unknown-template"]);
    assert!(server.shutdown().success());
}

const CALLS: &str = "#- web/manifests/init.pp\n# Web.\nclass web {\n  include web::install\n  web::vhost { 'a': }\n}\n\
     #- web/manifests/install.pp\n# Install.\nclass web::install { }\n\
     #- web/manifests/vhost.pp\n# A vhost.\ndefine web::vhost {\n  class { 'web::install': }\n}\n\
     #- manifests/site.pp\nnode default {\n  include web\n}\n";

#[test]
fn call_hierarchy_incoming_and_outgoing() {
    let dir = fixture(CALLS);
    let mut server = Server::start();
    let reply = server.initialize(dir.path(), pull_capabilities());
    assert_eq!(
        reply["capabilities"]["callHierarchyProvider"], true,
        "{reply}"
    );
    server.wait_indexed();
    let init = dir.uri("web/manifests/init.pp");
    // From the reference in `include web::install`.
    let items = server.call(
        "textDocument/prepareCallHierarchy",
        json!({"textDocument": {"uri": init.as_str()}, "position": {"line": 2, "character": 14}}),
    );
    let item = &items[0];
    assert_eq!(item["name"], "web::install", "{items}");
    assert_eq!(item["uri"], dir.uri("web/manifests/install.pp"));
    let incoming = server.call("callHierarchy/incomingCalls", json!({"item": item}));
    let callers: Vec<(&str, u64)> = incoming
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["from"]["name"].as_str().unwrap(),
                c["fromRanges"][0]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(callers, [("web", 2), ("web::vhost", 2)], "{incoming}");

    // What the node does, and what the class it includes does in turn.
    let site = dir.uri("manifests/site.pp");
    let items = server.call(
        "textDocument/prepareCallHierarchy",
        json!({"textDocument": {"uri": site.as_str()}, "position": {"line": 0, "character": 6}}),
    );
    let outgoing = server.call("callHierarchy/outgoingCalls", json!({"item": items[0]}));
    assert_eq!(outgoing[0]["to"]["name"], "web", "{outgoing}");
    let outgoing = server.call(
        "callHierarchy/outgoingCalls",
        json!({"item": outgoing[0]["to"]}),
    );
    let callees: Vec<&str> = outgoing
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["to"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(callees, ["web::install", "web::vhost"], "{outgoing}");
    assert!(server.shutdown().success());
}

#[test]
fn code_lenses_only_when_switched_on() {
    let dir = fixture(CALLS);
    let install = dir.uri("web/manifests/install.pp");
    let lens_request = json!({"textDocument": {"uri": install.as_str()}});

    let mut server = Server::start();
    server.initialize(dir.path(), pull_capabilities());
    server.wait_indexed();
    assert_eq!(
        server.call("textDocument/codeLens", lens_request.clone()),
        Value::Null
    );
    assert!(server.shutdown().success());

    let mut server = Server::start();
    server.initialize_with(
        &[dir.path()],
        pull_capabilities(),
        json!({"codeLens": {"references": true}}),
    );
    server.wait_indexed();
    let lenses = server.call("textDocument/codeLens", lens_request);
    let shown: Vec<(&str, &str, usize)> = lenses
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let command = &l["command"];
            (
                command["title"].as_str().unwrap(),
                command["command"].as_str().unwrap(),
                command["arguments"][2].as_array().map_or(0, Vec::len),
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("2 references", "puppet-ls.showReferences", 2),
            ("included by 2", "puppet-ls.showReferences", 2)
        ],
        "{lenses}"
    );
    assert_eq!(
        lenses[0]["range"]["start"],
        json!({"line": 1, "character": 6})
    );
    assert!(server.shutdown().success());
}

#[test]
fn linked_editing_of_a_heredoc_tag() {
    let dir = fixture("#- manifests/site.pp\n$a = @(END)\n  text\n  | END\nnotice($a)\n");
    let mut server = Server::start();
    let reply = server.initialize(dir.path(), pull_capabilities());
    assert_eq!(
        reply["capabilities"]["linkedEditingRangeProvider"], true,
        "{reply}"
    );
    let uri = dir.uri("manifests/site.pp");
    server.did_open(&uri, 1, "$a = @(END)\n  text\n  | END\nnotice($a)\n");
    let linked = server.call(
        "textDocument/linkedEditingRange",
        json!({"textDocument": {"uri": uri.as_str()}, "position": {"line": 2, "character": 5}}),
    );
    assert_eq!(
        linked["ranges"],
        json!([range(0, 7, 0, 10), range(2, 4, 2, 7)]),
        "{linked}"
    );
    assert!(linked["wordPattern"].is_string(), "{linked}");
    let none = server.call(
        "textDocument/linkedEditingRange",
        json!({"textDocument": {"uri": uri.as_str()}, "position": {"line": 3, "character": 2}}),
    );
    assert_eq!(none, Value::Null);
    assert!(server.shutdown().success());
}

#[test]
fn puppet_strings_in_hover_signature_help_and_diagnostics() {
    let dir = fixture(
        "#- web/manifests/init.pp\n# @summary A web server.\n# @param port\n#   Where it listens.\n# @param gone Left over.\n\
         class web(Integer $port = 80) { }\n\
         #- web/manifests/site.pp\n# Site.\nclass web::site {\n  class { 'web': port => 8080 }\n}\n",
    );
    let mut server = Server::start();
    server.initialize(dir.path(), push_capabilities(false));
    server.wait_indexed();
    let init = dir.uri("web/manifests/init.pp");
    let params = server.wait_diagnostics(&init, |p| p["diagnostics"] != json!([]));
    assert_eq!(codes(&params["diagnostics"]), ["strings-unknown-param"]);
    let site = dir.uri("web/manifests/site.pp");
    let hover = server.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": site.as_str()}, "position": {"line": 2, "character": 12}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        text.contains("A web server.") && text.contains("- `port`: Where it listens."),
        "{hover}"
    );
    // The attribute setting the parameter: its declared type and `@param`.
    let hover = server.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": site.as_str()}, "position": {"line": 2, "character": 18}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("```puppet\nport => Integer\n```")
            && text.contains("Integer $port = 80")
            && text.contains("\nWhere it listens.\n"),
        "{hover}"
    );
    assert_eq!(
        hover["range"],
        json!({"start": {"line": 2, "character": 17}, "end": {"line": 2, "character": 21}}),
        "{hover}"
    );
    let help = server.call(
        "textDocument/signatureHelp",
        json!({"textDocument": {"uri": site.as_str()}, "position": {"line": 2, "character": 25}}),
    );
    let signature = &help["signatures"][0];
    assert_eq!(signature["documentation"], "A web server.", "{help}");
    assert_eq!(
        signature["parameters"][0]["documentation"], "Where it listens.",
        "{help}"
    );
    assert!(server.shutdown().success());
}
