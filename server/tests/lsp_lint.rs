//! puppet-lint's checks over the protocol, on the real binary: findings
//! beside the analysis' in pull and push mode, a big document's findings
//! carried past an edit and then brought up to date, quick fixes and "fix
//! all", and `.puppet-lint.rc`.

mod support;

use serde_json::{json, Value};
use support::{
    apply_edits, codes, fixture, position_of, pull_capabilities, push_capabilities, Server,
    TempDir, TIMEOUT,
};

/// A documented class with two puppet-lint findings that have fixes.
const SMALL: &str = "# Demo.\nclass demo {\n  $a = \"x\"\n  file { '/x': mode => '644' }\n}\n";

fn start(dir: &TempDir, capabilities: Value) -> Server {
    let mut server = Server::start();
    server.initialize(dir.path(), capabilities);
    server.wait_indexed();
    server
}

fn pull(server: &mut Server, uri: &str) -> Value {
    let report = server.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    report["items"].clone()
}

fn lint_items(items: &Value) -> Vec<&Value> {
    items
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["source"] == "puppet-lint")
        .collect()
}

/// (code, line, character) of each puppet-lint finding.
fn places(items: &Value) -> Vec<(String, u64, u64)> {
    lint_items(items)
        .iter()
        .map(|d| {
            let start = &d["range"]["start"];
            (
                d["code"].as_str().unwrap().to_string(),
                start["line"].as_u64().unwrap(),
                start["character"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn findings_come_with_the_analysis_and_quick_fixes_repair_them() {
    let dir = fixture("#- demo/manifests/init.pp\n# Demo.\nclass demo {}\n");
    let mut server = start(&dir, pull_capabilities());
    let uri = dir.uri("demo/manifests/init.pp");
    server.did_open(&uri, 1, SMALL);
    let items = pull(&mut server, &uri);
    assert_eq!(
        codes(&items),
        ["double_quoted_strings", "file_mode"],
        "{items:#}"
    );
    let quoted = lint_items(&items)[0].clone();
    assert_eq!(quoted["severity"], 2);
    assert_eq!(quoted["range"]["start"], position_of(SMALL, "\"x\"", 0));

    // The quick fix of the finding under the cursor, tied to it.
    let actions = server.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": quoted["range"],
               "context": {"diagnostics": [quoted], "only": ["quickfix"]}}),
    );
    let actions = actions.as_array().unwrap();
    let titles: Vec<&str> = actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Ignore puppet-lint check double_quoted_strings on this line",
            "Use single quotes"
        ],
        "{actions:#?}"
    );
    for action in actions {
        assert_eq!(action["kind"], "quickfix");
        assert_eq!(action["diagnostics"][0]["code"], "double_quoted_strings");
    }
    let edits = &actions[1]["edit"]["changes"][&uri];
    assert_eq!(
        apply_edits(SMALL, edits),
        SMALL.replace("\"x\"", "'x'"),
        "{actions:#?}"
    );
    // The other silences the finding with a control comment.
    let ignored = apply_edits(SMALL, &actions[0]["edit"]["changes"][&uri]);
    assert_eq!(
        ignored,
        SMALL.replace("\"x\"", "\"x\" # lint:ignore:double_quoted_strings"),
        "{actions:#?}"
    );

    // "Fix all" (for fix-on-save) repairs both.
    let actions = server.call(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0},
               "end": {"line": 0, "character": 0}}, "context": {"diagnostics": [], "only": ["source.fixAll"]}}),
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:#?}");
    assert_eq!(actions[0]["kind"], "source.fixAll");
    let fixed = apply_edits(SMALL, &actions[0]["edit"]["changes"][&uri]);
    assert_eq!(
        fixed,
        "# Demo.\nclass demo {\n  $a = 'x'\n  file { '/x': mode => '0644' }\n}\n"
    );
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"text": fixed}]}),
    );
    assert_eq!(codes(&pull(&mut server, &uri)), Vec::<String>::new());
    assert!(server.shutdown().success());
}

/// Parts of [`big_manifest`], each with one finding.
const PARTS: usize = 400;

/// A manifest big enough that linting it is slow (thousands of lines).
fn big_manifest() -> String {
    let block = |i: usize| {
        let filler = "notice('filler')\n".repeat(10);
        format!("# Part {i}.\n$v{i} = \"x\"\nnotice($v{i})\n{filler}")
    };
    (0..PARTS).map(block).collect()
}

#[test]
fn a_big_documents_findings_follow_edits_and_are_brought_up_to_date() {
    let dir = fixture("#- demo/manifests/init.pp\n# Demo.\nclass demo {}\n");
    let mut server = start(&dir, pull_capabilities());
    let uri = dir.uri("manifests/site.pp");
    let text = big_manifest();
    server.did_open(&uri, 1, &text);
    let before = places(&pull(&mut server, &uri));
    assert_eq!(before.len(), PARTS, "one per part");

    // A line inserted before part 200's string: findings after it move
    // down a line, those before stay.
    let at = position_of(&text, "# Part 200.", 0);
    let inserted = "  # new\n";
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": {"start": at, "end": at}, "text": inserted}]}),
    );
    let line = at["line"].as_u64().unwrap();
    let moved: Vec<_> = before
        .iter()
        .map(|(c, l, ch)| (c.clone(), if *l > line { l + 1 } else { *l }, *ch))
        .collect();
    assert_eq!(places(&pull(&mut server, &uri)), moved);

    // A new finding typed in: the editor is asked to pull again once the
    // current text is linted, and then has it.
    let at = position_of(&text, "notice('filler')", 0);
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3},
               "contentChanges": [{"range": {"start": at, "end": at}, "text": "$b = \"y\"\n"}]}),
    );
    let refreshes = server
        .server_requests_for("workspace/diagnostic/refresh")
        .len();
    let deadline = std::time::Instant::now() + TIMEOUT;
    let mut after = Vec::new();
    while std::time::Instant::now() < deadline {
        after = places(&pull(&mut server, &uri));
        if after.len() == PARTS + 1 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(
        after.len(),
        PARTS + 1,
        "the typed string's finding is shown"
    );
    assert!(
        server.wait_server_requests("workspace/diagnostic/refresh", refreshes + 1, TIMEOUT),
        "the editor was asked to pull again"
    );
    assert!(server.shutdown().success());
}

#[test]
fn push_clients_get_findings_and_their_update() {
    let dir = fixture("#- demo/manifests/init.pp\n# Demo.\nclass demo {}\n");
    let mut server = start(&dir, push_capabilities(false));
    let uri = dir.uri("manifests/site.pp");
    let text = big_manifest();
    server.did_open(&uri, 1, &text);
    let params = server.wait_diagnostics(&uri, |p| p["version"] == 1);
    assert_eq!(places(&params["diagnostics"]).len(), PARTS);
    let at = position_of(&text, "notice('filler')", 0);
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": {"start": at, "end": at}, "text": "$b = \"y\"\n"}]}),
    );
    let params = server.wait_diagnostics(&uri, |p| {
        p["version"] == 2 && places(&p["diagnostics"]).len() == PARTS + 1
    });
    assert_eq!(params["version"], 2);
    assert!(server.shutdown().success());
}

#[test]
fn puppet_lint_rc_switches_checks_off() {
    let dir = fixture(
        "#- .puppet-lint.rc\n--no-double_quoted_strings-check\n#- demo/manifests/init.pp\n# Demo.\nclass demo {}\n",
    );
    let mut server = start(&dir, pull_capabilities());
    let uri = dir.uri("demo/manifests/init.pp");
    server.did_open(&uri, 1, SMALL);
    assert_eq!(codes(&pull(&mut server, &uri)), ["file_mode"]);
    assert!(server.shutdown().success());
}
