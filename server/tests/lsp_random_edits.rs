//! Thousands of random incremental edits (Puppet fragments, multi-byte
//! characters, UTF-16 positions, several changes per notification) sent
//! to an open document without waiting: the server's final text and
//! diagnostics must equal those of the final text opened fresh.

mod support;

use serde_json::{json, Value};
use support::{file_uri, pull_capabilities, Client};

const EDITS: usize = 2000;
const FRAGMENTS: [&str; 16] = [
    "class a {\n",
    "}\n",
    "$x = 1\n",
    "include foo\n",
    "'é'",
    "\"${x} ü\"",
    "😀",
    "notify { 'n': message => $x }\n",
    "\n",
    "# commentaire ∑\n",
    "[1, 2]",
    "Integer[1, 2]",
    "if $x { }\n",
    "define d($p) {}\n",
    " ",
    "{",
];

/// xorshift: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The LSP position (UTF-16) of a byte offset at a character boundary.
fn utf16_position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = before[line_start..].encode_utf16().count();
    json!({"line": line, "character": character})
}

/// A random character boundary of `text`.
fn boundary(rng: &mut Rng, text: &str) -> usize {
    let boundaries: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    boundaries[rng.below(boundaries.len())]
}

fn pull(client: &mut Client, uri: &str) -> Value {
    let report = client.call(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(report["kind"], "full");
    report["items"].clone()
}

#[test]
fn random_incremental_edits_match_a_fresh_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("manifests/init.pp");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let uri = file_uri(&path);
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut text = String::from("class start {\n  $v = 'ä'\n}\n");

    let mut client = Client::start(&[]);
    client.initialize(pull_capabilities(), &[dir.path()], Value::Null);
    client.open(&path, 0, &text);
    let mut version = 0;
    let mut edits = 0;
    while edits < EDITS {
        let mut changes = Vec::new();
        for _ in 0..=rng.below(3) {
            let start = boundary(&mut rng, &text);
            let end = if rng.below(3) == 0 {
                // A deletion of a few characters.
                let rest: Vec<usize> = text[start..]
                    .char_indices()
                    .map(|(i, _)| start + i)
                    .chain([text.len()])
                    .take(1 + rng.below(6))
                    .collect();
                *rest.last().unwrap()
            } else {
                start
            };
            let insert = if end > start && rng.below(2) == 0 {
                ""
            } else {
                FRAGMENTS[rng.below(FRAGMENTS.len())]
            };
            changes.push(json!({
                "range": {
                    "start": utf16_position(&text, start),
                    "end": utf16_position(&text, end),
                },
                "text": insert,
            }));
            text.replace_range(start..end, insert);
            edits += 1;
        }
        version += 1;
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        );
    }
    let edited_tree = client.call(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": uri}}),
    );
    let edited = pull(&mut client, &uri);
    assert!(client.shutdown_and_exit().success());

    // The final text, opened fresh in a new server.
    let mut fresh = Client::start(&[]);
    fresh.initialize(pull_capabilities(), &[dir.path()], Value::Null);
    fresh.open(&path, 1, &text);
    let tree = fresh.call(
        "puppet-ls/syntaxTree",
        json!({"textDocument": {"uri": uri}}),
    );
    // The tree is lossless: equal trees mean equal texts.
    assert_eq!(edited_tree, tree);
    assert!(tree.as_str().unwrap().len() > text.len());
    // Random fragments make broken code: the comparison is not vacuous.
    assert!(!edited.as_array().unwrap().is_empty());
    assert_eq!(edited, pull(&mut fresh, &uri));
    assert!(fresh.shutdown_and_exit().success());
}
