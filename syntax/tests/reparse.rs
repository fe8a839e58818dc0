//! Differential test of incremental reparsing: for random edits over real
//! files, `Parse::reparse` must give exactly the tree and errors of a full
//! parse of the edited text. Uses the installed corpus when present, and
//! always the repository's own test data.

use puppet_syntax::{parse, Parse, ReparseStrategy, SourceKind, TextEdit, TextRange, TextSize};
use std::path::{Path, PathBuf};

/// Insertions that stress lexer modes and brace balance.
const MEANINGFUL: &[&str] = &[
    "{",
    "}",
    "\"",
    "'",
    "@(",
    "@(END)\n",
    "$",
    "\n",
    " ",
    "${",
    "x",
    "foo",
    "[",
    "]",
    "(",
    ")",
    "/",
    "#",
    "/*",
    "*/",
    "<%",
    "%>",
    ",",
    ":",
    "=>",
    "1",
    "0x",
    "include ",
    "class ",
    "\nclass x {}\n",
    "|",
    "\\",
    "->",
];

fn char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn random_edit(rng: &mut fastrand::Rng, text: &str) -> TextEdit {
    let start = char_boundary(text, rng.usize(..text.len() + 1));
    let max_delete = match rng.usize(..4) {
        0 => 0,
        1 => 1,
        2 => 8,
        _ => 40,
    };
    let end = char_boundary(text, start + rng.usize(..max_delete + 1)).max(start);
    let insert = match rng.usize(..3) {
        0 => String::new(),
        1 => MEANINGFUL[rng.usize(..MEANINGFUL.len())].to_string(),
        _ => {
            // A snippet of the file itself.
            let from = char_boundary(text, rng.usize(..text.len() + 1));
            let to = char_boundary(text, from + rng.usize(..20)).max(from);
            text[from..to].to_string()
        }
    };
    TextEdit::replace(
        TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32)),
        insert,
    )
}

fn sources() -> Vec<(PathBuf, String)> {
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")];
    let corpus = Path::new("/usr/share/puppet/modules");
    if corpus.is_dir() {
        dirs.push(corpus.to_path_buf());
    }
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("pp" | "epp")
            ) {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    if text.len() < 64 * 1024 {
                        files.push((path, text));
                    }
                }
            }
        }
    }
    files.sort();
    files
}

fn assert_same(incremental: &Parse, full: &Parse, context: &dyn Fn() -> String) {
    if incremental.green() != full.green() {
        let (a, b) = (incremental.debug_tree(), full.debug_tree());
        let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
        let first = a
            .iter()
            .zip(&b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()));
        let from = first.saturating_sub(8);
        panic!(
            "tree differs from a full parse\n{}\n--- incremental\n{}\n--- full\n{}",
            context(),
            a[from..(first + 8).min(a.len())].join("\n"),
            b[from..(first + 8).min(b.len())].join("\n")
        );
    }
    assert_eq!(
        incremental.errors(),
        full.errors(),
        "errors differ from a full parse\n{}",
        context()
    );
}

#[test]
fn reparse_equals_full_parse() {
    let files = sources();
    assert!(!files.is_empty());
    let seed = std::env::var("REPARSE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_1234_abcd_0001);
    let mut rng = fastrand::Rng::with_seed(seed);
    // REPARSE_CASES raises the count for a longer local run.
    let cases = std::env::var("REPARSE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6000);
    let mut counts = [0usize; 3];
    for case in 0..cases {
        let (path, text) = &files[rng.usize(..files.len())];
        let kind = SourceKind::from_path(path);
        let old = parse(text, kind);
        let edit = random_edit(&mut rng, text);
        let (incremental, strategy) = old.reparse_with_strategy(&edit);
        let edited = edit.apply(text);
        let full = parse(&edited, kind);
        assert_same(&incremental, &full, &|| {
            format!("case {case}: {} edit {edit:?}", path.display())
        });
        counts[strategy as usize] += 1;
    }
    println!(
        "reparse strategies over {cases} random edits: token {}, block {}, full {}",
        counts[ReparseStrategy::Token as usize],
        counts[ReparseStrategy::Block as usize],
        counts[ReparseStrategy::Full as usize]
    );
    assert!(
        counts[ReparseStrategy::Token as usize] > 0 && counts[ReparseStrategy::Block as usize] > 0
    );
}

#[test]
fn chained_reparses_equal_full_parse() {
    let files = sources();
    let mut rng = fastrand::Rng::with_seed(0x5eed_1234_abcd_0002);
    for round in 0..150 {
        let (path, text) = &files[rng.usize(..files.len())];
        let kind = SourceKind::from_path(path);
        let mut current = text.clone();
        let mut incremental = parse(&current, kind);
        for step in 0..15 {
            // Small, typing-like edits: one character in or out.
            let at = char_boundary(&current, rng.usize(..current.len() + 1));
            let edit = if rng.usize(..3) == 0 && at < current.len() {
                let end = char_boundary(&current, at + 1).max(at);
                let end = if end == at {
                    (at + 1..=current.len())
                        .find(|&i| current.is_char_boundary(i))
                        .unwrap_or(at)
                } else {
                    end
                };
                TextEdit::replace(TextRange::new((at as u32).into(), (end as u32).into()), "")
            } else {
                let c = ["a", " ", "\n", "$", "{", "}", "'", "1", "_", "-"][rng.usize(..10)];
                TextEdit::replace(TextRange::empty((at as u32).into()), c)
            };
            let before = current.clone();
            let (next, strategy) = incremental.reparse_with_strategy(&edit);
            incremental = next;
            current = edit.apply(&current);
            let full = parse(&current, kind);
            assert_same(&incremental, &full, &|| {
                format!(
                    "round {round} step {step}: {} edit {edit:?} ({strategy:?}) on {before:?}",
                    path.display()
                )
            });
        }
    }
}

/// Found by the fuzzer: a `/` with no closing slash lexes as division;
/// typing a `/` later (here in a comment) makes it a regex up to there.
#[test]
fn slash_typed_after_an_unclosed_regex_start() {
    let text = "![/~#x";
    let edit = TextEdit::replace(TextRange::empty(TextSize::of(text)), "/");
    let incremental = parse(text, SourceKind::Manifest).reparse(&edit);
    let full = parse(&edit.apply(text), SourceKind::Manifest);
    assert_same(&incremental, &full, &|| {
        "slash after pending regex".to_string()
    });
}
