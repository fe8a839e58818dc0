//! The formatter over the real-world corpus (Debian's Puppet modules,
//! installed by `.ci/run`; `PUPPET_CORPUS` points elsewhere): every
//! manifest that parses formats, the result parses into the same program
//! (`same_program`: our own tree in normal form, strings by value, the
//! same comments and heredoc bodies), and formatting it again changes
//! nothing. Without the corpus the test says it was skipped.

use puppet_format::{
    format_document, format_source, same_program, FormatOptions, NotFormatted, TextEdit,
};
use puppet_syntax::SourceKind;
use std::path::PathBuf;

fn corpus_root() -> PathBuf {
    PathBuf::from(
        std::env::var("PUPPET_CORPUS").unwrap_or_else(|_| "/usr/share/puppet/modules".into()),
    )
}

#[test]
fn corpus_formats_to_the_same_program_idempotently() {
    let root = corpus_root();
    if !root.join("stdlib").is_dir() {
        eprintln!(
            "SKIPPED: the real-world corpus is not installed at {}",
            root.display()
        );
        return;
    }
    let files = puppet_vfs::DiskFs.files_under(&root, &["pp"]);
    assert!(
        files.len() > 1500,
        "corpus incomplete: {} manifests",
        files.len()
    );
    let options = FormatOptions::default();
    let mut formatted_count = 0usize;
    let mut not_parsing = 0usize;
    let mut failures = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let shown = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let once = match format_source(&text, SourceKind::Manifest, &options) {
            Ok(once) => once,
            Err(NotFormatted::SyntaxErrors { .. }) => {
                not_parsing += 1;
                continue;
            }
            Err(why) => {
                failures.push(format!("{shown}: {why}"));
                continue;
            }
        };
        formatted_count += 1;
        if let Err(why) = same_program(&text, &once, SourceKind::Manifest) {
            failures.push(format!("{shown}: meaning changed: {why}"));
            continue;
        }
        // The editor's edits give the same text (checked on every tenth
        // file: diffing every file would double the test's time).
        if formatted_count.checked_rem(10) == Some(0) {
            match format_document(&text, SourceKind::Manifest, &options) {
                Ok(edits) if apply(&text, &edits) == once => {}
                Ok(_) => {
                    failures.push(format!("{shown}: the edits do not give the formatted text"))
                }
                Err(why) => failures.push(format!("{shown}: no edits: {why}")),
            }
        }
        match format_source(&once, SourceKind::Manifest, &options) {
            Ok(twice) if twice == once => {}
            Ok(twice) => {
                let line = once
                    .lines()
                    .zip(twice.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                failures.push(format!(
                    "{shown}: not idempotent, first difference on line {}",
                    line + 1
                ));
            }
            Err(why) => failures.push(format!("{shown}: the result does not format: {why}")),
        }
    }
    println!(
        "formatter corpus: {formatted_count} of {} manifests formatted, {not_parsing} do not parse, {} failures",
        files.len(),
        failures.len()
    );
    assert!(
        not_parsing <= 2,
        "{not_parsing} corpus manifests do not parse"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut out = String::new();
    let mut at = 0usize;
    for edit in edits {
        out.push_str(&text[at..usize::from(edit.delete.start())]);
        out.push_str(&edit.insert);
        at = usize::from(edit.delete.end());
    }
    out.push_str(&text[at..]);
    out
}
